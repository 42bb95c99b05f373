package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/rollup"
)

// TestBenchDashboardCharts (gated: CHAPAR_BENCH_DASHBOARD=1) measures GET
// /v1/api/panel/dashboard_charts of an account with BENCH_DASHBOARD_ROWS
// recipients (default 1,000,000) in 300 sends spread over the last 30 days, with
// their statuses and operators. It times the rollup job's first full run (every
// send marked), one more send's incremental run, then 2,000 sequential requests:
// p50/p99 and the test process's CPU per request (API and client together). It
// fails when p99 is above 150 ms (docs/benchmarks.md).
func TestBenchDashboardCharts(t *testing.T) {
	if os.Getenv("CHAPAR_BENCH_DASHBOARD") == "" {
		t.Skip("set CHAPAR_BENCH_DASHBOARD=1 to run the benchmark")
	}
	rowsWanted := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("BENCH_DASHBOARD_ROWS")); err == nil && v > 0 {
		rowsWanted = v
	}
	e := keyEnv(t, nil)
	tok, acct := lineOwner(t, e, "benchdash", "09121269101", 1_000)
	ctx := context.Background()
	const sends = 300
	per := rowsWanted / sends
	t0 := time.Now()
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO sends (account_id, type, sender, text, parts, status, recipients, submitted,
			total_parts, cost, expanded_at, finished_at, created_at)
		SELECT $1, 'quick', '30001', 'bench', 1, 'done', $2::int, $2::int, $2::int, $2::int * 250, now(), now(), now() - (g % 30) * interval '1 day'
		FROM generate_series(1, $3) g`, acct, per, sends); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status, done_at)
		SELECT s.id, g / 1000, '0912' || lpad(g::text, 7, '0'), (ARRAY['mci', 'irancell', 'rightel'])[1 + g % 3], 1, 250,
			(ARRAY[2, 2, 2, 3, 1, 6])[1 + g % 6], now()
		FROM sends s, generate_series(1, $2) g WHERE s.account_id = $1`, acct, per); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO rollup_dirty_sends SELECT id FROM sends WHERE account_id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	_, _ = e.DB.Pool.Exec(ctx, `ANALYZE recipients`)
	t.Logf("seeded %d recipients in %d sends in %v", per*sends, sends, time.Since(t0).Round(time.Millisecond))
	job := rollup.NewJob(e.DB.Pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	runJob := func(what string) {
		t0, c0 := time.Now(), cpuNow()
		n, err := job.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("rollup %s: %d sends in %v (Go CPU %v; the work is PostgreSQL's)", what, n, time.Since(t0).Round(time.Millisecond), (cpuNow() - c0).Round(time.Millisecond))
	}
	runJob("first full run")
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE sends SET delivered = delivered + 1 WHERE id = (SELECT max(id) FROM sends WHERE account_id = $1)`, acct); err != nil {
		t.Fatal(err)
	}
	runJob("one changed send")
	lat := make([]time.Duration, 0, 2000)
	req, _ := http.NewRequest(http.MethodGet, e.URL+"/v1/api/panel/dashboard_charts", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	c0 := cpuNow()
	for i := 0; i < cap(lat); i++ {
		t0 := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("status %d", res.StatusCode)
		}
		lat = append(lat, time.Since(t0))
	}
	cpu := cpuNow() - c0
	slices.Sort(lat)
	p99 := lat[len(lat)*99/100]
	t.Logf("dashboard_charts: requests %d  p50 %v  p99 %v  max %v  CPU/request %v", len(lat), lat[len(lat)/2].Round(time.Microsecond),
		p99.Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), (cpu / time.Duration(len(lat))).Round(time.Microsecond))
	if p99 > 150*time.Millisecond {
		t.Fatalf("p99 %v above 150 ms", p99)
	}
}
