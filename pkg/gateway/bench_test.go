package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/internal/platform/periodic"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/metrics"
	"github.com/chapar/chapar/pkg/smpp"
	"github.com/chapar/chapar/pkg/sms"
)

// The measurements run the simulator in a child process (this test binary
// re-executed with simChildEnv set), so that the CPU time of the gateway and
// of the simulator are measured apart.
const simChildEnv = "GATEWAY_BENCH_SIM_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(simChildEnv) == "1" {
		os.Exit(runSimChild())
	}
	if c := os.Getenv(killChildEnv); c != "" {
		os.Exit(runKillChild(c))
	}
	os.Exit(m.Run())
}

// runSimChild serves the bench-profile simulator: it prints its addresses
// as a JSON line, runs until stdin is closed, then prints its counters.
func runSimChild() int {
	cfg, err := smscsim.Profile("bench")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg.NoHTTP = true
	cfg.Logger = slog.New(slog.DiscardHandler)
	srv, err := smscsim.Start(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	enc := json.NewEncoder(os.Stdout)
	_ = enc.Encode(srv.Addrs())
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = enc.Encode(srv.Stats())
	_ = srv.Close()
	return 0
}

type simChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	addrs map[string]string
	stats *smscsim.Stats
}

func startSimChild(t *testing.T) *simChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), simChildEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start simulator process: %v", err)
	}
	c := &simChild{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() { c.stop(t) })
	line, err := c.out.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &c.addrs) != nil {
		t.Fatalf("simulator process addresses: %q %v", line, err)
	}
	return c
}

// cpu is the simulator process's CPU time so far.
func (c *simChild) cpu(t *testing.T) time.Duration { return procCPU(t, c.cmd.Process.Pid) }

// stop ends the simulator process and returns its final counters.
func (c *simChild) stop(t *testing.T) smscsim.Stats {
	t.Helper()
	if c.stats != nil {
		return *c.stats
	}
	c.stats = &smscsim.Stats{}
	_ = c.stdin.Close()
	line, err := c.out.ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, c.stats)
	}
	if werr := c.cmd.Wait(); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		t.Errorf("simulator process: %v", err)
	}
	return *c.stats
}

// procCPU reads utime+stime of a process from /proc (clock ticks of 10 ms).
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read /proc: %v", err)
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// dbCPU sums the CPU time of the PostgreSQL backends serving database name
// (found by their process title; needs the server on this machine).
func dbCPU(t *testing.T, name string) time.Duration {
	t.Helper()
	var sum time.Duration
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !strings.HasPrefix(string(cmd), "postgres: ") || !strings.Contains(string(cmd), " "+name+" ") {
			continue
		}
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		sum += time.Duration(ut+st) * 10 * time.Millisecond
	}
	return sum
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func envInt(t *testing.T, k string, def int) int {
	t.Helper()
	v := os.Getenv(k)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q", k, v)
	}
	return n
}

func benchText(parts int) (string, bool) {
	if parts == 2 {
		return persian2, true
	}
	return "Chapar benchmark: your code is 123456", false
}

// TestBenchGateway measures one gateway process taking 100,000 recipients
// in batches of 1,000 (asynq tasks) to the bench-profile simulator:
//
//	BENCH=1 go test -count=1 -run TestBenchGateway -v ./pkg/gateway/
//
// BENCH_RECIPIENTS, BENCH_TEXT_PARTS (1 or 2), BENCH_BINDS, BENCH_WINDOW and
// BENCH_CONCURRENCY vary it.
func TestBenchGateway(t *testing.T) {
	if os.Getenv("BENCH") != "1" {
		t.Skip("measurement: set BENCH=1")
	}
	n := envInt(t, "BENCH_RECIPIENTS", 100000)
	parts := envInt(t, "BENCH_TEXT_PARTS", 1)
	nBinds := envInt(t, "BENCH_BINDS", 1)
	window := envInt(t, "BENCH_WINDOW", 100)
	share := float64(envInt(t, "BENCH_CRITICAL_SHARE_PCT", int(DefaultCriticalShare*100))) / 100
	concurrency := envInt(t, "BENCH_CONCURRENCY", 8)
	const batchSize = 1000

	sim := startSimChild(t)
	e := newBareEnv(t)
	// The gateway's pool needs a connection per concurrent batch and some.
	pool, err := db.Open(e.ctx(), fmt.Sprintf("%s&pool_max_conns=%d", e.db.URL, concurrency+4))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	e.gwPool = pool
	// BENCH_METRICS=1: the gateway keeps its Prometheus metrics, gathered every
	// second as a scrape would (docs/benchmarks.md compares both).
	withMetrics := envInt(t, "BENCH_METRICS", 0) == 1
	if withMetrics {
		reg := metrics.NewRegistry()
		e.metrics = reg
		scrapes := scrapeEverySecond(t, reg)
		defer func() { t.Logf("%d scrapes", scrapes.Load()) }()
	}
	text, cancel11 := benchText(parts)
	if c := sms.Count(text, cancel11); c.Parts != parts {
		t.Fatalf("BENCH_TEXT_PARTS=%d: text has %d parts", parts, c.Parts)
	}
	sendID := e.createSend(text, cancel11, "queued")
	if _, err := e.db.Pool.Exec(e.ctx(), `
		INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		SELECT $1, (g - 1) / $3 + 1, '98912' || lpad(g::text, 7, '0'), 'mci', $4, 0, 5
		FROM generate_series(1, $2::int) g`, sendID, n, batchSize, parts); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Pool.Exec(e.ctx(), `ANALYZE recipients`); err != nil {
		t.Fatal(err)
	}
	client := asynq.NewClient(e.asynqOpt())
	batches := (n + batchSize - 1) / batchSize
	for b := 1; b <= batches; b++ {
		task, _ := jobs.NewSendBatch(jobs.SendBatch{SendID: sendID, Batch: b, Operator: "mci"}, false)
		if _, err := client.Enqueue(task); err != nil {
			t.Fatal(err)
		}
	}
	client.Close()

	cfg := e.configFor(sim.addrs["mci"], func(c *Config) {
		c.Binds[0].TPS, c.Binds[0].Window = 0, window
		c.Binds[0].CriticalShare = share
		for len(c.Binds) < nBinds {
			c.Binds = append(c.Binds, c.Binds[0])
		}
		c.Concurrency = concurrency
	})
	g := e.start(cfg, nil)
	cpu0, simCPU0, pgCPU0, t0 := selfCPU(), sim.cpu(t), dbCPU(t, e.db.Name), time.Now()
	waitFor(t, 10*time.Minute, "every recipient submitted", func() bool {
		time.Sleep(30 * time.Millisecond)
		return e.sendCounters(sendID).Submitted == n
	})
	tSubmit, cpuSubmit, simSubmit, pgSubmit := time.Since(t0), selfCPU()-cpu0, sim.cpu(t)-simCPU0, dbCPU(t, e.db.Name)-pgCPU0
	total := n * parts
	waitFor(t, 10*time.Minute, "every receipt in the stream", func() bool {
		time.Sleep(30 * time.Millisecond)
		return e.streamLen() >= int64(total)
	})
	tAll, cpuAll, simAll := time.Since(t0), selfCPU()-cpu0, sim.cpu(t)-simCPU0
	status := g.Status()
	var dlv smpp.Stats
	for _, b := range status.Binds {
		dlv.DeliversReceived += b.Stats.DeliversReceived
		dlv.DeliversNacked += b.Stats.DeliversNacked
		dlv.DeliversOverflow += b.Stats.DeliversOverflow
	}
	if err := g.stop(t); err != nil {
		t.Fatal(err)
	}
	st := sim.stop(t)
	if st.Duplicates != 0 || st.Total.Accepted != int64(total) {
		t.Fatalf("simulator accepted %d parts, want %d; duplicates %d", st.Total.Accepted, total, st.Duplicates)
	}
	if c := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0 AND NOT unknown`, sendID); c != n {
		t.Fatalf("%d recipients sent, want %d", c, n)
	}
	report := fmt.Sprintf(
		"gateway: %d recipients × %d part(s) = %d submit_sm in %d batches, %d bind(s), window %d, concurrency %d, critical share %.2f, metrics %v\n"+
			"  all submitted and recorded: %s → %.0f submit_sm/s (%.0f recipients/s)\n"+
			"    gateway CPU %s = %.1f µs/submit_sm (%.0f%% of a core); simulator CPU %s; PostgreSQL CPU %s = %.1f µs/recipient\n"+
			"  all %d receipts in the stream: %s → %.0f receipts+submits/s\n"+
			"    gateway CPU %s = %.1f µs per message incl. its receipt; simulator CPU %s\n"+
			"  receipts stored %d, parts retried %d; deliver_sm received %d, nacked %d (queue overflow %d)\n"+
			"  recorder %+v",
		n, parts, total, batches, nBinds, window, concurrency, share, withMetrics,
		tSubmit.Round(time.Millisecond), float64(total)/tSubmit.Seconds(), float64(n)/tSubmit.Seconds(),
		cpuSubmit.Round(time.Millisecond), float64(cpuSubmit.Microseconds())/float64(total),
		100*cpuSubmit.Seconds()/tSubmit.Seconds(), simSubmit, pgSubmit, float64(pgSubmit.Microseconds())/float64(n),
		total, tAll.Round(time.Millisecond), float64(total)/tAll.Seconds(),
		cpuAll.Round(time.Millisecond), float64(cpuAll.Microseconds())/float64(total), simAll,
		status.Inbound.Receipts, status.Batches.PartsRetried, dlv.DeliversReceived, dlv.DeliversNacked, dlv.DeliversOverflow,
		status.Recorder)
	t.Log("\n" + report)
	fmt.Println(report)
}

// scrapeEverySecond gathers reg every second until the test ends, as
// Prometheus would scrape it; it counts the scrapes that found the gateway's
// submit_sm_resp histogram.
func scrapeEverySecond(t *testing.T, reg *prometheus.Registry) *atomic.Int64 {
	var n atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go periodic.Every(ctx, time.Second, time.Second, func(context.Context) {
		if _, err := metrics.Find(reg, "chapar_smpp_submit_response_seconds", nil); err == nil {
			n.Add(1)
		}
	})
	return &n
}

// TestBenchRawSMPP measures the ceiling of pkg/smpp alone on this machine:
// one client, pipelined submit_sm to the bench-profile simulator, receipts
// acknowledged by a handler that stores nothing:
//
//	BENCH=1 go test -count=1 -run TestBenchRawSMPP -v ./pkg/gateway/
func TestBenchRawSMPP(t *testing.T) {
	if os.Getenv("BENCH") != "1" {
		t.Skip("measurement: set BENCH=1")
	}
	n := envInt(t, "BENCH_RECIPIENTS", 100000)
	parts := envInt(t, "BENCH_TEXT_PARTS", 1)
	window := envInt(t, "BENCH_WINDOW", 100)
	sim := startSimChild(t)
	text, cancel11 := benchText(parts)
	split, err := sms.Split(sms.Compose(text, cancel11), 0)
	if err != nil || len(split) != parts {
		t.Fatalf("split: %d parts, %v", len(split), err)
	}
	c, err := smpp.NewClient(smpp.Config{
		Addr: sim.addrs["mci"], SystemID: DefaultSystemID, Password: DefaultPassword,
		Window: window, DeliverWorkers: DefaultDeliverWorkers,
		DeliverHandler: func(context.Context, smpp.Deliver) error { return nil },
		Logger:         slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	}()
	ctx := context.Background()
	if err := c.WaitBound(ctx); err != nil {
		t.Fatal(err)
	}
	total := n * parts
	var done, failed atomic.Int64
	finished := make(chan struct{})
	cb := func(_ string, err error) {
		if err != nil {
			failed.Add(1)
		}
		if done.Add(1) == int64(total) {
			close(finished)
		}
	}
	src := smpp.SenderLine("30001234")
	cpu0, simCPU0, t0 := selfCPU(), sim.cpu(t), time.Now()
	for i := range n {
		dest := smpp.Mobile(fmt.Sprintf("98912%07d", i+1))
		for _, p := range split {
			m := &smpp.SubmitSM{Source: src, Dest: dest, ShortMessage: p.Payload, DataCoding: p.DataCoding(), UDH: p.UDHI()}
			if p.UDHI() {
				m.ShortMessage = append([]byte(nil), p.Payload...)
				m.ShortMessage[3] = byte(i)
			}
			if err := c.SubmitAsync(ctx, m, cb); err != nil {
				t.Fatal(err)
			}
		}
	}
	<-finished
	tSubmit, cpuSubmit, simSubmit := time.Since(t0), selfCPU()-cpu0, sim.cpu(t)-simCPU0
	waitFor(t, 5*time.Minute, "every receipt acknowledged", func() bool {
		time.Sleep(10 * time.Millisecond)
		return c.Stats().DeliversAcked >= int64(total)
	})
	tAll, cpuAll, simAll := time.Since(t0), selfCPU()-cpu0, sim.cpu(t)-simCPU0
	if failed.Load() != 0 {
		t.Fatalf("%d submits failed", failed.Load())
	}
	st := sim.stop(t)
	if st.Duplicates != 0 || st.Total.Accepted != int64(total) {
		t.Fatalf("simulator accepted %d, duplicates %d", st.Total.Accepted, st.Duplicates)
	}
	report := fmt.Sprintf(
		"raw pkg/smpp: %d submit_sm (%d part(s) each), 1 bind, window %d\n"+
			"  all answered: %s → %.0f submit_sm/s; client CPU %s = %.1f µs/submit_sm; simulator CPU %s\n"+
			"  all receipts acknowledged: %s → %.0f/s; client CPU %s = %.1f µs per message incl. its receipt; simulator CPU %s",
		total, parts, window,
		tSubmit.Round(time.Millisecond), float64(total)/tSubmit.Seconds(), cpuSubmit.Round(time.Millisecond),
		float64(cpuSubmit.Microseconds())/float64(total), simSubmit,
		tAll.Round(time.Millisecond), float64(total)/tAll.Seconds(), cpuAll.Round(time.Millisecond),
		float64(cpuAll.Microseconds())/float64(total), simAll)
	t.Log("\n" + report)
	fmt.Println(report)
}
