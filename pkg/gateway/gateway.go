package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/periodic"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sendrules"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/smpp"
)

// Deps are the gateway's connections, opened and closed by the caller.
type Deps struct {
	Pool  *pgxpool.Pool
	Redis redis.UniversalClient
	// WaitReplicas is how many Redis replicas must hold a receipt or MO part
	// before its deliver_sm is answered (config.RedisHA.WaitReplicas).
	WaitReplicas int
	// Asynq is the Redis connection of the task queues.
	Asynq asynq.RedisConnOpt
	Log   *slog.Logger
	// Links renders tracked short links into each recipient's text (nil: the
	// default base, as pkg/send assumes when not told; set it from SHORTLINK_BASE).
	Links *shortlink.Codec
	// Now is the clock that decides the sending hours (nil: time.Now; tests
	// move it).
	Now func() time.Time
	// Metrics is the registry of the gateway's Prometheus metrics (metrics.go;
	// nil: they are kept but not registered).
	Metrics prometheus.Registerer
}

// Gateway is a running SMPP gateway: its binds connect as soon as New
// returns; Run consumes the queues until its context ends. Call Run exactly
// once: it also releases everything New opened.
type Gateway struct {
	cfg      Config
	deps     Deps
	log      *slog.Logger
	binds    *binds
	lease    *leaser // nil unless cfg.BindLeases
	stream   *streamWriter
	handler  *batchHandler
	stopping chan struct{}
	ln       net.Listener
	started  time.Time
	inbound  inboundCounters
	// packed: the inbound stream's entries are written packed (settings
	// 'inbound_format', followInboundFormat).
	packed atomic.Bool
	// formatEvery is how often the inbound format is read (0:
	// send.InboundFormatEvery).
	formatEvery time.Duration
	// The wake gates of the asynq servers, and the closing of their clients.
	gates       []*jobs.Gate
	closeQueues []func()
	// journalScope names the database in the start journals (journal.go).
	journalScope [32]byte
	// lastBeat is what the previous heartbeat counted (status.go).
	lastBeat beatCounts
}

// closeQueueRedis closes the asynq servers' Redis clients (after Shutdown).
func (g *Gateway) closeQueueRedis() {
	for _, f := range g.closeQueues {
		f()
	}
}

type inboundCounters struct {
	receipts, mo, dropped, failed atomic.Int64
}

// InboundCounters are the deliver_sm figures shown in GET /status.
type InboundCounters struct {
	Receipts int64 `json:"receipts"` // receipts stored in the stream
	MO       int64 `json:"mo"`       // MO parts stored in the stream
	Dropped  int64 `json:"dropped"`  // receipts without a message id, acknowledged and logged
	Failed   int64 `json:"failed"`   // not stored: answered with an error for redelivery
}

const (
	heartbeatEvery = 2 * time.Second
	heartbeatTTL   = 10 * time.Second
	// taskPoll is how soon a bulk worker looks at the queues again after an
	// empty round (then it waits for a wake, up to Config.Quiet).
	taskPoll = 100 * time.Millisecond
)

// New validates cfg, starts the binds and listens on cfg.HTTPAddr.
func New(cfg Config, d Deps) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d.Pool == nil || d.Redis == nil || d.Asynq == nil {
		return nil, errors.New("gateway: Pool, Redis and Asynq are required")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	log := d.Log.With("component", "smpp-gateway", "instance", cfg.InstanceID)
	g := &Gateway{
		cfg:      cfg,
		deps:     d,
		log:      log,
		stream:   newStreamWriter(d.Redis, jobs.InboundStream, d.WaitReplicas, log),
		stopping: make(chan struct{}),
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		g.stream.Close()
		return nil, fmt.Errorf("gateway: listen %s: %w", cfg.HTTPAddr, err)
	}
	g.ln = ln
	g.binds, err = openBinds(cfg, g.deliverBatch, newSubmitResp(d.Metrics), log)
	if err != nil {
		_ = ln.Close()
		g.stream.Close()
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if cfg.BindLeases {
		g.lease = &leaser{rdb: d.Redis, instance: cfg.InstanceID, ttl: leaseTTL, renewedAt: map[*bind]time.Time{}}
		lctx, cancel := context.WithTimeout(context.Background(), leaseEvery)
		g.leaseRound(lctx) // the binds this gateway may hold start binding now
		cancel()
	}
	if d.Links == nil {
		d.Links = shortlink.New(shortlink.DefaultBase, "")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	rec := newRecorder(d.Pool, log)
	rec.now = d.Now
	rec.store = send.NewIDStore(d.Redis, cfg.IDRetention)
	g.handler = &batchHandler{
		now:        d.Now,
		rules:      sendrules.New(d.Pool),
		store:      &store{pool: d.Pool},
		rec:        rec,
		rdb:        d.Redis,
		binds:      g.binds,
		otherRoute: cfg.OtherRoute,
		gatewayID:  cfg.InstanceID,
		log:        log,
		texts:      newTextCache(),
		links:      d.Links,
		stopping:   g.stopping,
		chunk:      ChunkSize,
		grantMin:   GrantMin,
	}
	g.openJournal()
	if d.Metrics != nil {
		d.Metrics.MustRegister(collector{g})
	}
	return g, nil
}

// HTTPAddr is the address the status endpoint listens on.
func (g *Gateway) HTTPAddr() string { return g.ln.Addr().String() }

// Queues returns the asynq queues the gateway consumes with their
// priorities; critical queues are served strictly first (and, with
// Config.CriticalConcurrency, by workers of their own as well).
func (g *Gateway) Queues() map[string]int {
	q := map[string]int{}
	for _, op := range g.cfg.QueueOperators() {
		q[jobs.CarrierQueueCritical(op)] = 2
		q[jobs.CarrierQueue(op)] = 1
	}
	return q
}

// servers builds the asynq servers: one for every queue, or, with
// CriticalConcurrency, one for the bulk queues and one of its own for the
// critical queues, so that a one-time code never waits for a worker busy with
// a bulk batch (strict priority alone only orders the tasks waiting for one).
func (g *Gateway) servers() ([]*asynq.Server, error) {
	all := g.Queues()
	if g.cfg.CriticalConcurrency == 0 {
		return g.server(nil, all, g.cfg.Concurrency, taskPoll)
	}
	bulk, crit := map[string]int{}, map[string]int{}
	for q, p := range all {
		if jobs.IsCarrierQueueCritical(q) {
			crit[q] = p
		} else {
			bulk[q] = p
		}
	}
	out, err := g.server(nil, crit, g.cfg.CriticalConcurrency, g.cfg.CriticalPoll)
	if err != nil {
		return nil, err
	}
	return g.server(out, bulk, g.cfg.Concurrency, taskPoll)
}

// server appends to out an asynq server of queues; an idle one waits for a
// wake (jobs.WakeChannel) up to cfg.Quiet, its gate kept for Run.
func (g *Gateway) server(out []*asynq.Server, queues map[string]int, concurrency int, poll time.Duration) ([]*asynq.Server, error) {
	srv, gate, done, err := jobs.NewServer(g.deps.Asynq, asynq.Config{
		Concurrency:       concurrency,
		Queues:            queues,
		StrictPriority:    true,
		ShutdownTimeout:   g.cfg.ShutdownTimeout,
		TaskCheckInterval: poll,
		RetryDelayFunc:    retryDelay,
		// A batch handed on to the gateway holding its binds is no failure:
		// its retry count stays.
		IsFailure:   func(err error) bool { return !errors.Is(err, errNoBindHere) },
		Logger:      config.AsynqLogger(g.log.With("component", "asynq")),
		LogLevel:    asynq.WarnLevel,
		BaseContext: context.Background,
	}, g.cfg.Quiet)
	if err != nil {
		return nil, fmt.Errorf("gateway: asynq server: %w", err)
	}
	if gate != nil {
		g.gates = append(g.gates, gate)
	}
	g.closeQueues = append(g.closeQueues, done)
	return append(out, srv), nil
}

// deliverBatch returns the deliver_sm handler of a bind of operator: each
// receipt or MO part is in the stream before its error is nil, and only then
// does pkg/smpp answer its deliver_sm. A batch's entries are queued to the
// stream writer together, so they usually share one pipeline.
func (g *Gateway) deliverBatch(operator string) smpp.DeliverBatchHandler {
	return func(ctx context.Context, ds []smpp.Deliver) []error {
		errs := make([]error, len(ds))
		entries, ins, at := make([][]any, 0, len(ds)), make([]Inbound, 0, len(ds)), make([]int, 0, len(ds))
		for i, d := range ds {
			in, ok := inboundFromDeliver(operator, d)
			if !ok {
				g.inbound.dropped.Add(1)
				g.log.Warn("gateway: receipt without a message id acknowledged and dropped",
					"operator", operator, "source", d.Source.Addr, "text", d.Text)
				continue
			}
			entries, ins, at = append(entries, g.entry(in)), append(ins, in), append(at, i)
		}
		for k, err := range g.stream.AddMany(ctx, entries) {
			switch {
			case err != nil:
				g.inbound.failed.Add(1)
				errs[at[k]] = fmt.Errorf("store %s from %s: %w", ins[k].Kind, ins[k].Mobile, err)
			case ins[k].Kind == KindReceipt:
				g.inbound.receipts.Add(1)
			default:
				g.inbound.mo.Add(1)
			}
		}
		return errs
	}
}

// entry is in as the inbound stream's entry: packed or one field a value, as
// the inbound format says.
func (g *Gateway) entry(in Inbound) []any {
	if g.packed.Load() {
		return in.Packed()
	}
	return in.Values()
}

// readInboundFormat reads the inbound format (send.InboundFormat); a read that
// fails keeps the format read before (fields until one succeeds).
func (g *Gateway) readInboundFormat(ctx context.Context) {
	f, err := send.InboundFormat(ctx, g.deps.Pool)
	if err != nil {
		if ctx.Err() == nil {
			g.log.Warn("gateway: read the inbound format", "err", err)
		}
		return
	}
	if packed := f == send.InboundPacked; g.packed.Swap(packed) != packed {
		g.log.Info("gateway: inbound format", "format", f)
	}
}

// followInboundFormat reads the inbound format now, then every formatEvery
// (send.InboundFormatEvery when zero) until ctx ends.
func (g *Gateway) followInboundFormat(ctx context.Context) {
	g.readInboundFormat(ctx)
	every := g.formatEvery
	if every <= 0 {
		every = send.InboundFormatEvery
	}
	go periodic.Every(ctx, every, every, g.readInboundFormat)
}

// Run consumes the carrier queues and serves the status endpoint until ctx
// ends, then stops gracefully: it stops pulling tasks, lets the batches in
// hand finish the recipients they started, closes the binds (in-flight
// submits and queued deliveries complete), and returns nil.
func (g *Gateway) Run(ctx context.Context) error {
	g.started = time.Now()
	g.followInboundFormat(ctx)
	queues := g.Queues()
	servers, err := g.servers()
	if err != nil {
		return err
	}
	defer g.closeQueueRedis()
	mux := asynq.NewServeMux()
	mux.Handle(jobs.TypeSendBatch, g.handler)
	for i, srv := range servers {
		if err := srv.Start(mux); err != nil {
			for _, started := range servers[:i] {
				started.Shutdown()
			}
			_ = g.ln.Close()
			g.closeAll(time.Now().Add(g.cfg.ShutdownTimeout))
			return fmt.Errorf("gateway: start asynq server: %w", err)
		}
	}
	if len(g.gates) > 0 {
		wakeCtx, wakeStop := context.WithCancel(context.Background())
		defer wakeStop()
		go jobs.Listen(wakeCtx, g.deps.Redis, g.gates...)
	}
	httpSrv := &http.Server{Handler: g.httpHandler(), ReadHeaderTimeout: 5 * time.Second}
	httpErr := make(chan error, 1)
	go func() { httpErr <- httpSrv.Serve(g.ln) }()
	hbStop := background(g.heartbeatLoop)
	// The leases are renewed until the binds are closed, so that no other
	// gateway opens one while this one still drains it.
	leaseStop := background(func(ctx context.Context) {
		if g.lease != nil {
			g.leaseLoop(ctx)
		}
	})
	g.log.Info("smpp gateway running", "status", "http://"+g.HTTPAddr()+"/status",
		"binds", len(g.binds.all), "queues", queues, "concurrency", g.cfg.Concurrency,
		"critical_concurrency", g.cfg.CriticalConcurrency)

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-httpErr:
		runErr = fmt.Errorf("gateway: status server: %w", err)
	}
	g.stop(servers, leaseStop, hbStop)
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := httpSrv.Shutdown(sctx); err != nil {
		g.log.Warn("gateway: stop status server", "err", err)
	}
	g.log.Info("smpp gateway stopped")
	return runErr
}

// background runs loop until the returned stop is called; stop returns once
// loop has.
func background(loop func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		loop(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// stop is Run's graceful end: no new tasks, the handlers in hand finished (up to
// ShutdownTimeout), the binds closed and their leases left, the heartbeat gone.
func (g *Gateway) stop(servers []*asynq.Server, leaseStop, hbStop func()) {
	deadline := time.Now().Add(g.cfg.ShutdownTimeout)
	g.log.Info("smpp gateway stopping")
	close(g.stopping) // batches begin no further recipient
	for _, srv := range servers {
		srv.Stop() // no new tasks
	}
	var wg sync.WaitGroup
	for _, srv := range servers {
		wg.Go(srv.Shutdown) // waits for the handlers, up to ShutdownTimeout
	}
	wg.Wait()
	held := g.heldBinds()
	g.closeAll(deadline)
	leaseStop()
	g.leaveLeases(held)

	hbStop()
	g.handler.journal.close()
	dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := g.deps.Redis.Del(dctx, jobs.GatewayHeartbeat+g.cfg.InstanceID).Err(); err != nil {
		g.log.Warn("gateway: remove heartbeat", "err", err)
	}
}

// closeAll waits for handlers asynq gave up on, stores what they left with
// the recorder, then closes the binds and the stream writer.
func (g *Gateway) closeAll(deadline time.Time) {
	done := make(chan struct{})
	go func() {
		g.handler.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Until(deadline)):
		g.log.Warn("gateway: batch handlers still running at the shutdown deadline")
	}
	g.handler.rec.close()
	// Leave the binds at least a few seconds to drain in-flight submits.
	cctx, cancel := context.WithDeadline(context.Background(), later(deadline, time.Now().Add(5*time.Second)))
	defer cancel()
	if err := g.binds.close(cctx); err != nil {
		g.log.Warn("gateway: closing binds", "err", err)
	}
	g.stream.Close()
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// retryDelay is short: a failed batch usually waits only for a bind to come
// back, and a batch handed back at shutdown should go out promptly.
func retryDelay(n int, err error, _ *asynq.Task) time.Duration {
	if errors.Is(err, errShuttingDown) {
		return time.Second
	}
	if errors.Is(err, errNoBindHere) {
		return 250*time.Millisecond + rand.N(250*time.Millisecond)
	}
	d := time.Second << min(n, 6) // 2 s … 64 s
	return d/2 + rand.N(d/2+1)
}

// heldBinds are the binds this gateway holds now.
func (g *Gateway) heldBinds() []*bind {
	var out []*bind
	for _, b := range g.binds.all {
		if b.held() {
			out = append(out, b)
		}
	}
	return out
}
