package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/config"
)

// TestBenchAPIKeyVsToken (gated: CHAPAR_BENCH_APIKEY=1) measures POST /v1/api/send of
// 1,000 numbers per request through an API key against the panel's session token:
// the accept path alone (no worker), in alternating blocks so drift hits both paths,
// BENCH_CONNS concurrent clients. It prints p50/p99 per path and the API process's
// CPU per request (getrusage over each path's blocks), and fails when the key's p99
// is more than 10% above the token's (docs/benchmarks.md).
func TestBenchAPIKeyVsToken(t *testing.T) {
	if os.Getenv("CHAPAR_BENCH_APIKEY") == "" {
		t.Skip("set CHAPAR_BENCH_APIKEY=1 to run the benchmark")
	}
	e := keyEnv(t, func(c *config.Config) { c.SendPerMin, c.APIKeyPerMin = 1_000_000, 1_000_000 })
	tok, _ := lineOwner(t, e, "benchkey", "09121269001", 100_000_000_000)
	key := newKey(t, e, tok, "09121269001", map[string]any{"title": "bench", "scopes": []acl.Permission{acl.SendCreate}}).Secret
	nums := make([]string, 1000)
	for i := range nums {
		nums[i] = fmt.Sprintf("0912%07d", 1_000_000+i)
	}
	body, _ := json.Marshal(map[string]any{"text": "سلام", "numbers": nums})
	paths := []struct {
		name   string
		header [2]string
	}{{"token", [2]string{"Authorization", "Bearer " + tok}}, {"api key", [2]string{"apikey", key}}}
	lat := map[string][]time.Duration{}
	cpu := map[string]time.Duration{}
	const blocks, perBlock, conns = 8, 40, 4
	for b := 0; b < blocks; b++ {
		for i, p := range paths {
			if b%2 == 1 { // alternate which path goes first
				p = paths[1-i]
			}
			c0 := cpuNow()
			lat[p.name] = append(lat[p.name], fire(t, e.URL, body, p.header, perBlock, conns)...)
			cpu[p.name] += cpuNow() - c0
		}
	}
	var p99 = map[string]time.Duration{}
	for _, p := range paths {
		d := lat[p.name]
		slices.Sort(d)
		p99[p.name] = d[len(d)*99/100]
		t.Logf("%-7s requests %d  p50 %v  p99 %v  CPU/request %v", p.name, len(d), d[len(d)/2].Round(time.Microsecond),
			p99[p.name].Round(time.Microsecond), (cpu[p.name] / time.Duration(len(d))).Round(time.Microsecond))
	}
	if float64(p99["api key"]) > 1.10*float64(p99["token"]) {
		t.Errorf("API key p99 %v is more than 10%% above the token's %v", p99["api key"], p99["token"])
	}
}

// fire sends n requests over conns clients and returns their latencies.
func fire(t *testing.T, base string, body []byte, h [2]string, n, conns int) []time.Duration {
	var mu sync.Mutex
	var out []time.Duration
	var wg sync.WaitGroup
	jobs := make(chan struct{}, n)
	for range n {
		jobs <- struct{}{}
	}
	close(jobs)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				req, _ := http.NewRequest("POST", base+"/v1/api/send", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(h[0], h[1])
				start := time.Now()
				res, err := http.DefaultClient.Do(req)
				d := time.Since(start)
				if err != nil || res.StatusCode != 201 {
					t.Errorf("send: %v %v", err, res)
				}
				if res != nil {
					res.Body.Close()
				}
				mu.Lock()
				out = append(out, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

// cpuNow is this process's user+system CPU time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
