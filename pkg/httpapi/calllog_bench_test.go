package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
)

// TestCallLogOverheadBench (APICALL_BENCH=1; scripts/bench.sh part "calllog")
// measures what the API-call log costs the API: two API instances, one with the
// log on and one with it off, answer GET /payment/credit/mine with an API key
// from APICALL_BENCH_CONNS (8) clients for APICALL_BENCH_SECONDS (5) s, in
// alternating rounds (APICALL_BENCH_ROUNDS, 3 each). It reports the median
// requests/s and CPU per request (this process: API and clients; PostgreSQL
// apart) of each and the difference.
func TestCallLogOverheadBench(t *testing.T) {
	if os.Getenv("APICALL_BENCH") == "" {
		t.Skip("set APICALL_BENCH=1 to run the API-call log overhead benchmark")
	}
	conns, secs, rounds := envInt("APICALL_BENCH_CONNS", 8), envInt("APICALL_BENCH_SECONDS", 5), envInt("APICALL_BENCH_ROUNDS", 3)
	type side struct {
		e       *apitest.Env
		key     string
		rps     []float64
		cpu     []float64 // µs per request
		written int
	}
	mk := func(on bool, user, mobile string) *side {
		e := keyEnv(t, func(c *config.Config) { c.APICallLog, c.APIKeyPerMin = on, 0 })
		tok, _ := owner(t, e, user, mobile)
		return &side{e: e, key: newKey(t, e, tok, mobile, walletKey()).Secret}
	}
	on, off := mk(true, "benchon", "09121260001"), mk(false, "benchoff", "09121260002")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns}}
	for r := 0; r < rounds; r++ {
		for _, s := range []*side{off, on} {
			n, wall, cpu := hammer(client, s.e.URL+creditPath, s.key, conns, time.Duration(secs)*time.Second)
			s.rps = append(s.rps, float64(n)/wall.Seconds())
			s.cpu = append(s.cpu, float64(cpu.Microseconds())/float64(n))
		}
	}
	time.Sleep(time.Second) // the last batch
	_ = on.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM api_calls`).Scan(&on.written)
	med := func(xs []float64) float64 { ys := slices.Clone(xs); slices.Sort(ys); return ys[len(ys)/2] }
	t.Logf("BENCH calllog: GET /payment/credit/mine with an API key, %d clients, %d s × %d rounds each, alternating", conns, secs, rounds)
	t.Logf("BENCH calllog: log off: %.0f requests/s (rounds %.0f), CPU %.1f µs/request (rounds %.1f)", med(off.rps), off.rps, med(off.cpu), off.cpu)
	t.Logf("BENCH calllog: log on:  %.0f requests/s (rounds %.0f), CPU %.1f µs/request (rounds %.1f); %d calls written",
		med(on.rps), on.rps, med(on.cpu), on.cpu, on.written)
	t.Logf("BENCH calllog: throughput %+.1f%%, CPU per request %+.1f%% with the log on",
		100*(med(on.rps)/med(off.rps)-1), 100*(med(on.cpu)/med(off.cpu)-1))
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

// hammer sends GETs from conns clients for d and returns the 200s, the wall
// time and this process's CPU time.
func hammer(client *http.Client, url, key string, conns int, d time.Duration) (int64, time.Duration, time.Duration) {
	var n atomic.Int64
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), rusage()
	end := start.Add(d)
	for range conns {
		wg.Go(func() {
			for time.Now().Before(end) {
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := client.Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == 200 {
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return n.Load(), time.Since(start), rusage() - cpu0
}

func rusage() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
