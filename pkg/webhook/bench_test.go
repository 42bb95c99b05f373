package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/webhook"
)

// TestDeliveryBench (WEBHOOK_BENCH=1; scripts/bench.sh part "webhooks") measures
// delivery alone: WEBHOOK_BENCH_EVENTS (100,000) delivery.receipt events are
// written as receipt batches would write them (INSERTs of 1,000 events at
// WEBHOOK_BENCH_RATE events/s, default 10,000, the rate the engine applies
// receipts at here; 0 writes them all first, measuring the drain rate) while a
// deliverer with the default settings posts them to a local receiver. It reports
// events/s, the latency from the event's write to its POST (p50/p99), and the
// CPU of this process (deliverer, producer and receiver) and of PostgreSQL per event.
func TestDeliveryBench(t *testing.T) {
	if os.Getenv("WEBHOOK_BENCH") == "" {
		t.Skip("set WEBHOOK_BENCH=1 to run the webhook delivery benchmark")
	}
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("WEBHOOK_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	rate := 10_000 // events/s written; 0 writes them all first (a backlog: the drain rate)
	if v, err := strconv.Atoi(os.Getenv("WEBHOOK_BENCH_RATE")); err == nil && v >= 0 {
		rate = v
	}
	db := testenv.Postgres(t)
	ctx := context.Background()
	var mu sync.Mutex
	lat := make([]time.Duration, 0, n)
	posts := 0
	var last time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		now := time.Now()
		var b webhook.Body
		_ = json.Unmarshal(raw, &b)
		mu.Lock()
		posts++
		last = now
		for _, e := range b.Events {
			lat = append(lat, now.Sub(e.CreatedAt))
		}
		mu.Unlock()
	}))
	defer srv.Close()
	var endpoint int64
	if err := db.Pool.QueryRow(ctx, `WITH a AS (INSERT INTO accounts (name) VALUES ('bench') RETURNING id)
		INSERT INTO webhook_endpoints (account_id, url, events, secret) SELECT id, $1, '{delivery.receipt}', 'whsec_bench' FROM a
		RETURNING id`, srv.URL).Scan(&endpoint); err != nil {
		t.Fatal(err)
	}
	d := webhook.NewDeliverer(db.Pool, webhook.Guard{AllowPrivate: true}, webhook.Settings{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { d.Run(runCtx); close(done) }()
	cpu0, pg0 := selfCPU(), pgCPU(t, db)
	start := time.Now()
	for i := 0; i < n; i += 1000 {
		if _, err := db.Pool.Exec(ctx, `INSERT INTO webhook_events (endpoint_id, event, payload)
			SELECT $1, 'delivery.receipt', jsonb_build_object('message_id', g, 'send_id', 1, 'mobile', '98912' || g,
				'status', 2, 'delivered', true, 'at', now()) FROM generate_series($2::bigint, $3::bigint) g`,
			endpoint, i, min(i+1000, n)-1); err != nil {
			t.Fatal(err)
		}
		if rate > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(i+1000) * time.Second / time.Duration(rate))))
		}
	}
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		got := len(lat)
		mu.Unlock()
		if got >= n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d events posted", got, n)
		}
	}
	cpu, pg := selfCPU()-cpu0, pgCPU(t, db)-pg0
	stop()
	<-done
	mu.Lock()
	defer mu.Unlock()
	wall := last.Sub(start)
	slices.Sort(lat)
	t.Logf("BENCH webhooks: %d events in %d POSTs, %.2f s from the first write to the last POST: %.0f events/s (written at %d/s; 0: all at once)",
		n, posts, wall.Seconds(), float64(n)/wall.Seconds(), rate)
	t.Logf("BENCH webhooks: latency write → POST p50 %s, p99 %s, max %s", lat[len(lat)/2].Round(time.Millisecond),
		lat[len(lat)*99/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	t.Logf("BENCH webhooks: CPU per event: this process (deliverer + producer + receiver) %.1f µs, PostgreSQL %.1f µs",
		float64(cpu.Microseconds())/float64(n), float64(pg.Microseconds())/float64(n))
}

// selfCPU is this process's user and system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pgCPU is the CPU time of the backends of the test database (from /proc; the
// server runs on this machine), 0 when it cannot be read.
func pgCPU(t *testing.T, db testenv.Database) time.Duration {
	rows, err := db.Pool.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return 0
	}
	defer rows.Close()
	var total time.Duration
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			continue
		}
		total += procCPU(pid)
	}
	return total
}

// procCPU reads utime + stime of a process from /proc (clock ticks of 10 ms).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := len(s) - 1
	for i > 0 && s[i] != ')' {
		i--
	}
	var f []string
	field := ""
	for _, c := range s[i+2:] {
		if c == ' ' {
			f, field = append(f, field), ""
			continue
		}
		field += string(c)
	}
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}
