package phonebook_test

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/phonebook"
)

// TestBench measures, at 1,000,000 contacts: an import of 1,000,000 file rows into a
// phonebook (rows/s, peak heap and RSS of this process, which also serves the API),
// the time the name search then takes to catch up (the worker's search-index task),
// and the latency of contact-list requests through HTTP (p50/p99). Gated by BENCH=1:
//
//	BENCH=1 go test ./pkg/phonebook/ -run TestBench -v -timeout 30m
//
// BENCH_ROWS overrides the size.
func TestBench(t *testing.T) {
	if os.Getenv("BENCH") == "" {
		t.Skip("set BENCH=1 to run the contacts benchmark")
	}
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	e := apitest.Start(t, nil)
	e.Register("bench", "Secret@1234", "09121119999")
	tok := e.Login("bench", "Secret@1234")
	u, err := e.Accounts.ByUsername(ctx, "bench")
	if err != nil {
		t.Fatal(err)
	}
	db := e.DB.Pool
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%.80s: %v", sql, err)
		}
	}
	var book, feature int64
	if err := db.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'بنچمارک', 'bench') RETURNING id`,
		u.AccountID).Scan(&book); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `INSERT INTO contact_features (account_id, title_fa, title_en, type) VALUES ($1, 'امتیاز', 'score', 'integer')
		RETURNING id`, u.AccountID).Scan(&feature); err != nil {
		t.Fatal(err)
	}
	// A parsed upload of n rows: mobile, name (Persian first and last names), gender,
	// a Jalali birth date, two tags and a score.
	var file int64
	if err := db.QueryRow(ctx, `INSERT INTO files (account_id, purpose, name, ext, status, records, valid, columns, mobile_col)
		VALUES ($1, 'contacts', 'bench.xlsx', 'xlsx', 'ready', $2, $2,
		'[{"index":0,"key":"A","title":"موبایل"},{"index":1,"key":"B","title":"نام"},{"index":2,"key":"C","title":"جنسیت"},
		  {"index":3,"key":"D","title":"تولد"},{"index":4,"key":"E","title":"برچسب"},{"index":5,"key":"F","title":"امتیاز"}]', 0)
		RETURNING id`, u.AccountID, n).Scan(&file); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	exec(`INSERT INTO file_rows (file_id, row_no, mobile, cells)
		SELECT $1, g + 1, m, ARRAY['0' || substr(m, 3),
			(ARRAY['علی','محمد','زهرا','فاطمه','رضا','مریم','حسین','سارا','امیر','نرگس'])[1 + g % 10] || ' ' ||
			(ARRAY['رضایی','محمدی','حسینی','کریمی','احمدی','موسوی','جعفری','صادقی','رحیمی','کاظمی','نوری','باقری'])[1 + (g / 10) % 12] ||
			' ' || (g % 997)::text,
			(ARRAY['مرد','زن',''])[1 + g % 3],
			(1340 + g % 60)::text || '/' || (1 + g % 12)::text || '/' || (1 + g % 28)::text,
			'مشتری، شهر ' || (g % 31)::text,
			(g % 1000)::text]
		FROM generate_series(1, $2) g, LATERAL (SELECT '989' || lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0') AS m) x`,
		file, n)
	exec(`ANALYZE file_rows`)
	t.Logf("fixture: %d file rows in %v", n, time.Since(start).Round(time.Millisecond))

	svc := phonebook.New(db, e.Queue, nil)
	r := e.Must(202, "POST", "/v1/api/phonebooks/numbers/import", map[string]any{"file_id": file, "phonebook_id": book,
		"mapping": map[string]any{"name": 1, "gender": 2, "birth_date": 3, "tags": 4, "features": map[string]int{"score": 5}}}, tok)
	var im phonebook.Import
	r.Decode(t, &im)

	var dbName string
	if err := db.QueryRow(ctx, `SELECT current_database()`).Scan(&dbName); err != nil {
		t.Fatal(err)
	}
	peakHeap := watchHeap()
	runtime.GC()
	seq0 := seqReads(t, db)
	cpu0, pg0 := testenv.ProcessCPU(), testenv.BackendCPU(dbName)
	start = time.Now()
	if err := svc.RunImport(ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	cpu, pg := testenv.ProcessCPU()-cpu0, testenv.BackendCPU(dbName)-pg0
	heap := peakHeap()
	if im, err = svc.ImportState(ctx, u.AccountID, im.ID); err != nil || im.Status != "done" || im.Added != n {
		t.Fatalf("import %+v %v", im, err)
	}
	fmt.Printf("BENCH contacts import: %d rows in %v = %.0f rows/s; peak Go heap %d MB, peak RSS of the test process %d MB\n",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds(), heap>>20, peakRSS()>>20)
	fmt.Printf("BENCH contacts import CPU: test process %.2f s (%.1f µs a row), PostgreSQL backends %.2f s (%.1f µs a row); load average %s\n",
		cpu.Seconds(), float64(cpu.Microseconds())/float64(n), pg.Seconds(), float64(pg.Microseconds())/float64(n), testenv.LoadAverage())
	time.Sleep(time.Second) // a backend publishes its table counters at most once a second
	fmt.Printf("BENCH contacts import: rows read by sequential scans of contacts: %.1f a row\n", float64(seqReads(t, db)-seq0)/float64(n))
	// The name search catches up: the worker's search-index task, timed alone.
	if on, err := svc.Indexing(ctx, u.AccountID); err != nil || !on {
		t.Fatalf("indexing right after the import: %v %v", on, err)
	}
	cpu0, pg0 = testenv.ProcessCPU(), testenv.BackendCPU(dbName)
	start = time.Now()
	if _, err := svc.IndexImport(ctx, im.ID); err != nil {
		t.Fatal(err)
	}
	took = time.Since(start)
	cpu, pg = testenv.ProcessCPU()-cpu0, testenv.BackendCPU(dbName)-pg0
	if on, err := svc.Indexing(ctx, u.AccountID); err != nil || on {
		t.Fatalf("indexing after the search index caught up: %v %v", on, err)
	}
	fmt.Printf("BENCH contacts search index caught up in %v after the import; CPU: test process %.2f s, PostgreSQL backends %.2f s (%.1f µs a row); load average %s\n",
		took.Round(time.Millisecond), cpu.Seconds(), pg.Seconds(), float64(pg.Microseconds())/float64(n), testenv.LoadAverage())
	exec(`VACUUM ANALYZE contacts`)
	exec(`VACUUM ANALYZE contact_search`)

	// Contact-list requests at n contacts: each query runs reps times; p50 and p99
	// over all of them, and per query.
	q := url.QueryEscape
	queries := []string{
		"",
		"phonebook_id=" + strconv.FormatInt(book, 10),
		"page=500",
		"search=" + q("علی"),
		"search=" + q("کریمی 5"),
		"search=" + q("فاطمه کاظمی 123"),
		"search=" + q("زهرا صادقی") + "&phonebook_id=" + strconv.FormatInt(book, 10),
		"search=0912",
		"search=" + q("۰۹۱۲۳۴۵"),
		"search=" + q("0900071"),
		"search=5678901",
		"gender=female",
		"tag=" + q("شهر 7"),
		"birth_from=1985-01-01&birth_to=1985-12-31",
		"feature.score=999",
		"search=" + q("مریم") + "&gender=female&tag=" + q("مشتری"),
		"created_from=2020-01-01",
	}
	const reps = 15
	var all []time.Duration
	for _, query := range queries {
		var times []time.Duration
		for range reps {
			start := time.Now()
			r := e.Do("GET", "/v1/api/phonebooks/numbers/contact-list?limit=20&"+query, nil, tok)
			d := time.Since(start)
			if r.Status != 200 {
				t.Fatalf("%s: %s", query, r.Raw)
			}
			times = append(times, d)
		}
		slices.Sort(times)
		all = append(all, times...)
		shown, _ := url.QueryUnescape(query)
		fmt.Printf("BENCH contact-list %-50s p50 %6.1f ms  max %6.1f ms\n", shown,
			ms(times[len(times)/2]), ms(times[len(times)-1]))
	}
	slices.Sort(all)
	fmt.Printf("BENCH contact-list at %d contacts: %d requests, p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", n, len(all),
		ms(all[len(all)/2]), ms(all[len(all)*99/100]), ms(all[len(all)-1]))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// watchHeap samples the Go heap until the returned function reports its peak.
func watchHeap() func() uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(stop); <-done; return peak.Load() }
}

// peakRSS is the process's peak resident set (VmHWM), in bytes.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// seqReads is the rows sequential scans of contacts have read so far (a lookup of
// the import reads by key; a scan is a plan gone wrong).
func seqReads(t *testing.T, db *pgxpool.Pool) (n int64) {
	t.Helper()
	if err := db.QueryRow(context.Background(), `SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables
		WHERE relname = 'contacts'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
