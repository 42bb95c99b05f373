// Package enginetest runs the whole send engine in one test process over real
// connections: the API (internal/testing/apitest) on a fresh PostgreSQL database and a claimed
// Redis database, the worker assembly, an SMPP gateway bound over TCP to the carrier
// simulator, and the simulator itself. It is imported only by _test files.
package enginetest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/worker"
)

// Engine is a running engine.
type Engine struct {
	*apitest.Env
	Sim    *smscsim.Server
	Worker *worker.Worker
	log    *slog.Logger
	gwStop context.CancelFunc
	gwDone chan error
	gwCfg  gateway.Config
	clock  func() time.Time
}

// Options adjust the engine.
type Options struct {
	Sim    func(*smscsim.Config)
	Config func(*config.Config)
	// Now, when set, is the recurring campaigns' clock (tests run a fast one).
	Now func() time.Time
	// Gateway overrides the gateway's environment (e.g. GATEWAY_RESPONSE_TIMEOUT).
	Gateway map[string]string
	// LivePrefix, when set, makes the worker publish its live events on Redis
	// channels under it (a test's own prefix: channels are shared by every
	// logical database).
	LivePrefix string
	// Clock, when set, is the clock of the sending hours in the API, the worker
	// and the gateway (tests move it across the window's edges).
	Clock func() time.Time
	// AnalyzeFrom, when set, is the worker's send.Service.AnalyzeFrom.
	AnalyzeFrom int
}

// Start runs everything; the test's cleanup stops it.
func Start(t testing.TB, o Options) *Engine {
	t.Helper()
	e := &Engine{Env: apitest.Start(t, o.Config)}
	e.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("ENGINE_LOG") != "" {
		e.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	simCfg, _ := smscsim.Profile("test")
	simCfg.Logger = e.log
	if o.Sim != nil {
		o.Sim(&simCfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sim, err := smscsim.Start(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	e.Sim = sim
	t.Cleanup(func() { cancel(); sim.Close() })

	rdb := e.Redis.Client
	var pub worker.Publisher
	if o.LivePrefix != "" {
		pub = live.NewPublisher(rdb, o.LivePrefix)
	}
	e.Worker = worker.New(e.Config, e.log, e.DB.Pool, rdb, e.Queue, pub)
	e.Worker.Rollups.Session, e.Worker.History.Session = e.DB.Direct, e.DB.Direct
	e.Worker.SweepEvery = 200 * time.Millisecond
	e.Worker.Sends.AnalyzeFrom = o.AnalyzeFrom
	if o.Now != nil {
		e.Worker.Campaigns.Now = o.Now
	}
	if o.Clock != nil {
		e.clock = o.Clock
		e.Worker.Sends.SetClock(o.Clock)
		e.Deps.Sends.SetClock(o.Clock)
	}
	wctx, wstop := context.WithCancel(context.Background())
	wdone := make(chan struct{})
	go func() { _ = e.Worker.Run(wctx, "test-worker", 4); close(wdone) }()
	t.Cleanup(func() { wstop(); <-wdone })

	var binds []string // every port of the simulator, the sandbox route's too
	for _, op := range sim.Operators() {
		binds = append(binds, op+"="+sim.Addr(op))
	}
	env := map[string]string{"GATEWAY_BINDS": strings.Join(binds, ","), "GATEWAY_TPS": "0", "GATEWAY_HTTP_ADDR": "127.0.0.1:0",
		"SMPP_SYSTEM_ID": sim.SystemID(), "SMPP_PASSWORD": sim.Password(), "GATEWAY_CONCURRENCY": "4"}
	for k, v := range o.Gateway {
		env[k] = v
	}
	e.gwCfg, err = gateway.LoadConfig("test", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	e.StartGateway(t)
	t.Cleanup(e.StopGateway)
	return e
}

// StartGateway starts (or restarts) the gateway.
func (e *Engine) StartGateway(t testing.TB) {
	t.Helper()
	g, err := gateway.New(e.gwCfg, gateway.Deps{Pool: e.DB.Pool, Redis: e.Redis.Client,
		Asynq: asynq.RedisClientOpt{Addr: e.Redis.Addr, DB: e.Redis.DB}, Log: e.log,
		Links: shortlink.New(e.Config.ShortLinkBase, e.Config.TokenSecret), Now: e.clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.gwStop, e.gwDone = cancel, make(chan error, 1)
	go func() { e.gwDone <- g.Run(ctx) }()
}

// StopGateway stops the gateway gracefully.
func (e *Engine) StopGateway() {
	if e.gwStop != nil {
		e.gwStop()
		<-e.gwDone
		e.gwStop = nil
	}
}

// Wait polls cond until it holds or the timeout passes. The timeout is a
// safety net, never a speed goal: it is at least WaitFloor, so a loaded
// machine only makes the wait longer.
func (e *Engine) Wait(what string, timeout time.Duration, cond func() bool) {
	e.T.Helper()
	timeout = max(timeout, WaitFloor)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.T.Fatalf("timed out after %v waiting for %s\n%s", timeout, what, e.dump())
}

// WaitFloor is the least deadline of Wait.
const WaitFloor = 2 * time.Minute

// dump describes the engine's state, for a failed wait.
func (e *Engine) dump() string {
	ctx := context.Background()
	var b strings.Builder
	rows, err := e.DB.Pool.Query(ctx, `SELECT send_id, status, unknown, count(*) FROM recipients GROUP BY 1, 2, 3 ORDER BY 1, 2`)
	if err == nil {
		for rows.Next() {
			var id, n int64
			var st int16
			var unk bool
			_ = rows.Scan(&id, &st, &unk, &n)
			fmt.Fprintf(&b, "send %d status %d unknown %v: %d\n", id, st, unk, n)
		}
		rows.Close()
	}
	if rows, err := e.DB.Pool.Query(ctx, `SELECT r.id, r.mobile, r.status, r.parts, r.parts_delivered, r.parts_failed,
		coalesce(array_to_string(r.msg_ids, ','), '') || ' ' || r.part_states
		FROM recipients r WHERE r.status IN (0, 1) ORDER BY r.id LIMIT 5`); err == nil {
		for rows.Next() {
			var id int64
			var mobile, ids string
			var st, parts, pd, pf int16
			_ = rows.Scan(&id, &mobile, &st, &parts, &pd, &pf, &ids)
			fmt.Fprintf(&b, "open recipient %d %s status %d parts %d/%d/%d ids %s\n", id, mobile, st, parts, pd, pf, ids)
		}
		rows.Close()
	}
	var pending, mids int64
	_ = e.DB.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM pending_receipts), (SELECT count(*) FROM message_ids)`).Scan(&pending, &mids)
	stream, _ := e.Redis.Client.XLen(ctx, "smpp:inbound").Result()
	st := e.Sim.Stats().Total
	fmt.Fprintf(&b, "pending receipts %d, message ids %d, inbound stream %d, carrier accepted %d receipts sent %d acked %d pending %d",
		pending, mids, stream, st.Accepted, st.ReceiptsSent, st.ReceiptsAcked, st.ReceiptsPending)
	return b.String()
}

// Redis returns the engine's Redis client.
func (e *Engine) RDB() *redis.Client { return e.Redis.Client }

// Account creates a user with credit and a line through the API and the services,
// and returns its session token and account id.
func (e *Engine) Account(username, mobile, lineNumber, kind string, credit int64) (token string, accountID int64) {
	e.T.Helper()
	// Registered with a proven mobile (no sign-up code at the carrier): the only code
	// the account's number receives is the login's.
	ctx := context.Background()
	u, err := e.Accounts.Register(ctx, account.RegisterInput{Name: "کاربر " + username, Username: username, Mobile: mobile,
		Password: "Secret@1234", PasswordConfirmation: "Secret@1234", AcceptRules: true, MobileVerified: true}, "127.0.0.1")
	if err != nil {
		e.T.Fatal(err)
	}
	token = e.Login(username, "Secret@1234")
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, lineNumber, kind, true); err != nil {
		e.T.Fatal(err)
	}
	if credit > 0 {
		if _, err := e.Deps.Wallet.Credit(ctx, walletCredit(u.AccountID, credit)); err != nil {
			e.T.Fatal(err)
		}
	}
	return token, u.AccountID
}
