package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/smpp"
)

// persian2 is a Persian text that, with the cancel-11 footer, takes two
// UCS-2 parts (106 units).
var persian2 = strings.Repeat("سلام دنیا ", 10)

func testLogger() *slog.Logger {
	if os.Getenv("GATEWAY_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// env is one test's world: its own database, Redis database and simulator.
type env struct {
	t       *testing.T
	db      testenv.Database
	redis   testenv.Redis
	sim     *smscsim.Server
	account int64
	// gwPool, when set, is the pool the gateway uses instead of db.Pool.
	gwPool *pgxpool.Pool
	// metrics, when set, is the registry of the gateway's metrics.
	metrics prometheus.Registerer
}

func newEnv(t *testing.T, simCfg smscsim.Config) *env {
	t.Helper()
	e := newBareEnv(t)
	simCfg.NoHTTP = true
	if simCfg.Logger == nil {
		simCfg.Logger = testLogger()
	}
	sim, err := smscsim.Start(context.Background(), simCfg)
	if err != nil {
		t.Fatalf("start simulator: %v", err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	e.sim = sim
	return e
}

// newBareEnv is an env without a simulator.
func newBareEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, db: testenv.Postgres(t), redis: testenv.RedisDB(t)}
	if err := e.db.Pool.QueryRow(context.Background(),
		`INSERT INTO accounts (name) VALUES ('gateway test') RETURNING id`).Scan(&e.account); err != nil {
		t.Fatalf("insert account: %v", err)
	}
	return e
}

func (e *env) ctx() context.Context { return context.Background() }

// config returns a gateway configuration with one bind to the simulator's
// mci listener, unthrottled.
func (e *env) config(tweak func(*Config)) Config {
	return e.configFor(e.sim.Addr("mci"), tweak)
}

// configFor is config with the mci bind to addr (credentials chapar/secret).
func (e *env) configFor(addr string, tweak func(*Config)) Config {
	host, port := splitAddr(e.t, addr)
	cfg := testConfig(host, port)
	if tweak != nil {
		tweak(&cfg)
	}
	return cfg
}

// testConfig is the tests' gateway configuration: one mci bind to host:port,
// unthrottled, and no start journal.
func testConfig(host string, port int) Config {
	return Config{
		Binds: []BindConfig{{
			Operator: "mci", Host: host, Port: port,
			SystemID: DefaultSystemID, Password: DefaultPassword,
			Window: 100, EnquireLink: 5 * time.Second, ReconnectMax: time.Second,
			ResponseTimeout: 5 * time.Second, CriticalShare: DefaultCriticalShare,
		}},
		OtherRoute:      "mci",
		HTTPAddr:        "127.0.0.1:0",
		Concurrency:     4,
		DeliverWorkers:  DefaultDeliverWorkers,
		InstanceID:      fmt.Sprintf("test-%d", time.Now().UnixNano()),
		ShutdownTimeout: 10 * time.Second,

		CriticalConcurrency: 2,
		CriticalPoll:        DefaultCriticalPoll,
	}
}

func splitAddr(t *testing.T, addr string) (string, int) {
	t.Helper()
	i := strings.LastIndexByte(addr, ':')
	var port int
	if _, err := fmt.Sscan(addr[i+1:], &port); err != nil || i < 0 {
		t.Fatalf("address %q", addr)
	}
	return addr[:i], port
}

func (e *env) asynqOpt() asynq.RedisClientOpt {
	return asynq.RedisClientOpt{Addr: e.redis.Addr, DB: e.redis.DB}
}

// running is a gateway whose Run is going on in the background.
type running struct {
	*Gateway
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
}

// stop ends Run (once) and returns its error.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.once.Do(func() {
		r.cancel()
		select {
		case r.err = <-r.done:
		case <-time.After(30 * time.Second):
			r.err = errors.New("gateway Run did not return 30 s after its context ended")
		}
	})
	return r.err
}

// start creates the gateway, lets prepare adjust it (the handler's chunk,
// hooks) and runs it until the test ends.
func (e *env) start(cfg Config, prepare func(*Gateway)) *running {
	e.t.Helper()
	pool := e.db.Pool
	if e.gwPool != nil {
		pool = e.gwPool
	}
	g, err := New(cfg, Deps{Pool: pool, Redis: e.redis.Client, Asynq: e.asynqOpt(), Log: testLogger(), Metrics: e.metrics})
	if err != nil {
		e.t.Fatalf("gateway.New: %v", err)
	}
	if prepare != nil {
		prepare(g)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Gateway: g, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- g.Run(ctx) }()
	e.t.Cleanup(func() {
		if err := r.stop(e.t); err != nil {
			e.t.Errorf("gateway Run: %v", err)
		}
	})
	waitFor(e.t, 10*time.Second, "a bound bind", func() bool {
		for _, ob := range g.binds.byOp {
			if ob.anyBound() {
				return true
			}
		}
		return false
	})
	return r
}

// createSend inserts a queued send.
func (e *env) createSend(text string, cancel11 bool, status string) int64 {
	e.t.Helper()
	var id int64
	if err := e.db.Pool.QueryRow(e.ctx(), `
		INSERT INTO sends (account_id, type, sender, text, cancel11, status)
		VALUES ($1, 'bulk', '30001234', $2, $3, $4) RETURNING id`,
		e.account, text, cancel11, status).Scan(&id); err != nil {
		e.t.Fatalf("insert send: %v", err)
	}
	return id
}

// addRecipients inserts n queued recipients of a batch with mobiles
// prefix + 7 digits numbered from first.
func (e *env) addRecipients(sendID int64, batch, n, first int, prefix, operator string, parts int) {
	e.t.Helper()
	if _, err := e.db.Pool.Exec(e.ctx(), `
		INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		SELECT $1, $2, $3 || lpad(g::text, 7, '0'), $4, $5, 0, 5
		FROM generate_series($6::int, $7::int) g`,
		sendID, batch, prefix, operator, parts, first, first+n-1); err != nil {
		e.t.Fatalf("insert recipients: %v", err)
	}
}

func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.Pool.QueryRow(e.ctx(), query, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

type sendCounters struct {
	Status              string
	Submitted, Rejected int
}

func (e *env) sendCounters(id int64) sendCounters {
	e.t.Helper()
	var s sendCounters
	if _, err := send.New(e.db.Pool, nil, nil, nil, 0, nil).FoldCounts(e.ctx()); err != nil {
		e.t.Fatalf("fold send counters: %v", err)
	}
	if err := e.db.Pool.QueryRow(e.ctx(), `SELECT status, submitted, rejected FROM sends WHERE id = $1`, id).
		Scan(&s.Status, &s.Submitted, &s.Rejected); err != nil {
		e.t.Fatalf("send counters: %v", err)
	}
	return s
}

// statusCounts returns the send's recipients per status.
func (e *env) statusCounts(sendID int64) map[int]int {
	e.t.Helper()
	rows, err := e.db.Pool.Query(e.ctx(), `SELECT status, count(*) FROM recipients WHERE send_id = $1 GROUP BY status`, sendID)
	if err != nil {
		e.t.Fatalf("status counts: %v", err)
	}
	defer rows.Close()
	out := map[int]int{}
	for rows.Next() {
		var st, n int
		if err := rows.Scan(&st, &n); err != nil {
			e.t.Fatal(err)
		}
		out[st] = n
	}
	return out
}

// enqueue puts a batch task on its carrier queue and announces it, as the
// services do (jobs.Waker); a non-empty id overrides the task id (a second
// task for the same batch).
func (e *env) enqueue(b jobs.SendBatch, id string) {
	e.t.Helper()
	c := asynq.NewClient(e.asynqOpt())
	defer c.Close()
	task, err := jobs.NewSendBatch(b, false)
	if err != nil {
		e.t.Fatal(err)
	}
	var opts []asynq.Option
	if id != "" {
		opts = append(opts, asynq.TaskID(id))
	}
	if _, err := (jobs.Waker{Enqueuer: c, RDB: e.redis.Client}).EnqueueContext(context.Background(), task, opts...); err != nil {
		e.t.Fatalf("enqueue: %v", err)
	}
}

// batchTask is the asynq task of a batch, for calling the handler directly.
func batchTask(t *testing.T, b jobs.SendBatch) *asynq.Task {
	t.Helper()
	payload, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return asynq.NewTask(jobs.TypeSendBatch, payload)
}

// streamEntries reads the whole inbound stream.
func (e *env) streamEntries() []Inbound {
	e.t.Helper()
	msgs, err := e.redis.Client.XRange(e.ctx(), jobs.InboundStream, "-", "+").Result()
	if err != nil && err != redis.Nil {
		e.t.Fatalf("xrange: %v", err)
	}
	out := make([]Inbound, 0, len(msgs))
	for _, m := range msgs {
		in, err := ParseInbound(m.Values)
		if err != nil {
			e.t.Fatalf("entry %s: %v (%v)", m.ID, err, m.Values)
		}
		out = append(out, in)
	}
	return out
}

func (e *env) streamLen() int64 {
	n, err := e.redis.Client.XLen(e.ctx(), jobs.InboundStream).Result()
	if err != nil && err != redis.Nil {
		e.t.Fatalf("xlen: %v", err)
	}
	return n
}

// waitFor polls cond until it holds. The timeout is a safety net, never a
// speed goal: it is at least waitFloor, so a loaded machine only makes the
// wait longer.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	timeout = max(timeout, waitFloor)
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFloor is the least deadline of waitFor.
const waitFloor = time.Minute

// bindStats sums the smpp counters of the gateway's binds.
func bindStats(g *Gateway) smpp.Stats {
	var s smpp.Stats
	for _, b := range g.binds.all {
		st := b.stats()
		s.Submitted += st.Submitted
		s.Accepted += st.Accepted
		s.Rejected += st.Rejected
		s.Throttled += st.Throttled
		s.Unknown += st.Unknown
		s.Reconnects += st.Reconnects
		s.DeliversAcked += st.DeliversAcked
	}
	return s
}

// serveTCP listens on a free loopback port and serves each connection with
// serve until the test ends.
func serveTCP(t *testing.T, serve func(net.Conn)) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln
}
