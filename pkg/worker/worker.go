// Package worker assembles the worker process: the asynq handlers of the send
// pipeline (one-time codes, expansion), the inbound stream consumer (receipts and
// MO), the stuck-work sweeper and the live progress publisher. cmd/worker and the
// end-to-end tests run the same assembly.
package worker

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/lease"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/history"
	"github.com/chapar/chapar/pkg/inbound"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/phonebook"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/rollup"
	"github.com/chapar/chapar/pkg/secretary"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/voice"
	"github.com/chapar/chapar/pkg/wallet"
	"github.com/chapar/chapar/pkg/webhook"
)

// Publisher sends a live event to an account's browsers.
type Publisher interface {
	Publish(ctx context.Context, accountID int64, event string, data any) error
}

// Worker is one worker process.
type Worker struct {
	Sends *send.Service
	Inbox *inbox.Service
	// Readers answers inbound messages (secretaries and keyword readers).
	Readers *secretary.Service
	// Campaigns runs the recurring campaigns; its Now is the scheduling clock.
	Campaigns *campaign.Service
	// Files parses uploaded files.
	Files *upload.Service
	// Contacts imports parsed files into phonebooks.
	Contacts *phonebook.Service
	// Webhooks delivers the webhook outbox (docs/webhooks.md).
	Webhooks *webhook.Deliverer
	// Rollups keeps the dashboard charts' daily rollups, every cfg.RollupEvery.
	Rollups *rollup.Job
	// History makes the coming months' recipients partitions and archives old
	// months, every cfg.HistoryEvery.
	History *history.Job
	Sweep   send.SweepConfig
	// SweepEvery is the sweeper's period.
	SweepEvery time.Duration

	cfg   config.Config
	pool  *pgxpool.Pool
	rdb   redis.UniversalClient
	queue jobs.Enqueuer
	voice voice.Caller
	pub   Publisher
	log   *slog.Logger
	// Extra loops run beside the consumer and the sweeper (e.g. the progress pump).
	loops []func(context.Context)
	// lead is the workers' lease for the work one of them does for all (Run).
	lead *lease.Lead
	// metrics is the registry Instrument was given (nil: none).
	metrics prometheus.Registerer
}

// Instrument registers the worker's Prometheus metrics on reg (docs/metrics.md):
// the send engine's expansions and holds, the inbound consumer's receipts, the
// webhook deliverer's attempts and backlog, and every asynq queue. Call it
// once, before Run.
func (w *Worker) Instrument(reg prometheus.Registerer) {
	w.metrics = reg
	w.Sends.Instrument(reg)
	w.Webhooks.Instrument(reg)
	reg.MustRegister(jobs.NewQueueCollector(asynq.NewInspector(w.cfg.AsynqRedis())))
}

// New assembles a worker. pub may be nil.
func New(cfg config.Config, log *slog.Logger, pool *pgxpool.Pool, rdb redis.UniversalClient, client *asynq.Client, pub Publisher) *Worker {
	queue := jobs.Waker{Enqueuer: client, RDB: rdb}
	w := &Worker{cfg: cfg, pool: pool, rdb: rdb, queue: queue, pub: pub, log: log, Inbox: inbox.New(pool),
		voice: voice.Sandbox{RDB: rdb}, Sweep: send.DefaultSweep, SweepEvery: time.Second}
	alerts := wallet.NewAlerts(pool, queue)
	alerts.Live = pub
	w.Sends = send.New(pool, queue, line.New(pool), ratelimit.New(rdb, "rl:"), cfg.SendPerMin, alerts.Watch(w.onMoney))
	w.Sends.SetShortLinks(shortlink.New(cfg.ShortLinkBase, cfg.TokenSecret))
	if codes, err := send.ParseBlockedCodes(os.Getenv("CARRIER_BLOCKED_ERR")); err == nil {
		w.Sends.SetBlockedCodes(codes)
	} else {
		log.Error("CARRIER_BLOCKED_ERR ignored", "err", err)
	}
	w.Campaigns = campaign.New(pool, w.Sends, w.notify)
	w.Files = upload.New(pool, upload.NewDisk(cfg.FilesDir), queue, nil, log)
	w.Files.Events = pub
	w.Contacts = phonebook.New(pool, queue, pub)
	w.Inbox.OnStored = webhook.CaptureInbound
	w.Inbox.PartWait = cfg.InboxPartWait
	w.Readers = secretary.New(pool, w.Sends)
	w.Inbox.Answer = w.Readers.Answer
	w.AddLoop(func(ctx context.Context) {
		w.Readers.RepliesLoop(ctx, func(ctx context.Context) time.Duration { return w.lead.Pace(ctx, replyPoll) })
	})
	w.Rollups = rollup.NewJob(pool, log)
	w.History = history.NewJob(pool, log)
	w.History.Keep = cfg.HistoryKeepMonths
	w.Webhooks = webhook.NewDeliverer(pool, webhook.Guard{AllowPrivate: cfg.WebhookAllowPrivate}, webhook.Settings{
		Batch: cfg.WebhookBatch, Window: cfg.WebhookWindow, RetryBase: cfg.WebhookRetryBase, Timeout: cfg.WebhookTimeout,
		Concurrency: cfg.WebhookConcurrency}, log)
	for k, dst := range map[string]*time.Duration{"SWEEP_ABANDONED": &w.Sweep.Abandoned, "SWEEP_STALLED": &w.Sweep.Stalled,
		"SWEEP_NO_RECEIPT": &w.Sweep.NoReceipt, "SWEEP_ORPHANED": &w.Sweep.Orphaned, "MESSAGE_ID_RETENTION": &w.Sends.IDRetention} {
		if d, err := time.ParseDuration(os.Getenv(k)); err == nil {
			*dst = d
		}
	}
	w.Sends.SetIDStore(send.NewIDStore(rdb, w.Sends.IDRetention))
	return w
}

// replyPoll is how often the lead worker looks for secretary replies to send when
// none wait (the others, lease.FollowerPace times less often).
const replyPoll = 200 * time.Millisecond

// AddLoop runs f beside the worker's own loops.
func (w *Worker) AddLoop(f func(context.Context)) { w.loops = append(w.loops, f) }

// Register adds the task handlers to a mux.
func (w *Worker) Register(mux *asynq.ServeMux) {
	mux.HandleFunc(jobs.TypeVerification, w.Sends.HandleVerification(w.voice.Call))
	mux.HandleFunc(jobs.TypeSendExpand, w.Sends.HandleExpand)
	mux.HandleFunc(jobs.TypeFileParse, w.Files.HandleParse)
	mux.HandleFunc(jobs.TypeContactImport, w.Contacts.HandleImport)
	mux.HandleFunc(jobs.TypeContactSearch, w.Contacts.HandleSearchIndex)
}

// taskPoll is how soon the worker looks at its queues again after an empty
// round (then it waits for a wake, up to TASK_QUIET): with the wake, it bounds
// the queueing delay of a one-time code at each of its two worker tasks.
const taskPoll = 20 * time.Millisecond

// Queues are the worker's asynq queues and their weights.
func Queues() map[string]int {
	return map[string]int{jobs.QueueCritical: 6, jobs.QueueDefault: 3, jobs.QueueBulk: 1}
}

// Run serves tasks and runs the loops until ctx ends, then drains.
func (w *Worker) Run(ctx context.Context, name string, concurrency int) error {
	srv, gate, closeRedis, err := jobs.NewServer(w.cfg.AsynqRedis(), asynq.Config{
		Concurrency:     concurrency,
		Queues:          Queues(),
		ShutdownTimeout: 25 * time.Second,
		// After a task, the next round comes this soon (asynq's default is 1 s):
		// a one-time code passes through the worker twice (verification, then
		// expand). An idle worker waits for a wake (jobs.WakeChannel) instead.
		TaskCheckInterval: taskPoll,
		Logger:            config.AsynqLogger(w.log),
	}, w.cfg.TaskQuiet)
	if err != nil {
		return err
	}
	defer closeRedis()
	mux := asynq.NewServeMux()
	w.Register(mux)
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("start asynq: %w", err)
	}
	insp := asynq.NewInspector(w.cfg.AsynqRedis())
	defer insp.Close()
	w.lead = &lease.Lead{RDB: w.rdb, Key: leadKey, Token: name}
	w.Webhooks.Pace = w.lead.Pace
	defer w.lead.Release(context.WithoutCancel(ctx))
	consumer := &inbound.Consumer{RDB: w.rdb, Pool: w.pool, Sends: w.Sends, Inbox: w.Inbox, Name: name, OnMO: w.onMO,
		Consumers: inbound.ParseConsumers(os.Getenv("INBOUND_CONSUMERS")), Lead: w.lead, Alive: alive(insp, name), Metrics: w.metrics}
	var wg sync.WaitGroup
	run := func(f func(context.Context)) {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx) }()
	}
	if gate != nil {
		run(func(ctx context.Context) { jobs.Listen(ctx, w.rdb, gate) })
	}
	run(func(ctx context.Context) { _ = consumer.Run(ctx) })
	run(func(ctx context.Context) { w.sweepLoop(ctx, insp) })
	run(w.scheduleLoop)
	run(w.Webhooks.Run)
	run(w.purgeLoop)
	if w.cfg.RollupEvery > 0 {
		run(func(ctx context.Context) { w.Rollups.Loop(ctx, w.cfg.RollupEvery) })
	}
	if w.cfg.HistoryEvery > 0 {
		run(func(ctx context.Context) { w.History.Loop(ctx, w.cfg.HistoryEvery) })
	}
	for _, f := range w.loops {
		run(f)
	}
	<-ctx.Done()
	srv.Shutdown()
	wg.Wait()
	return nil
}

func (w *Worker) onMoney(ctx context.Context, accountID, balance int64) {
	if w.pub != nil {
		_ = w.pub.Publish(ctx, accountID, "credit.changed", map[string]int64{"credit": balance})
	}
}

func (w *Worker) notify(ctx context.Context, accountID int64, event string, data any) {
	if w.pub != nil {
		_ = w.pub.Publish(ctx, accountID, event, data)
	}
}

// tick runs one of the scheduler's jobs and logs what it did.
func (w *Worker) tick(ctx context.Context, what string, job func(context.Context) (int, error)) {
	if n, err := job(ctx); err != nil {
		w.log.WarnContext(ctx, what, "err", err)
	} else if n > 0 {
		w.log.InfoContext(ctx, what, "n", n)
	}
}

// leadKey is the Redis key of the workers' lease (lease.Lead).
const leadKey = "worker:lead"

// scheduleLoop fires due scheduled sends and recurring campaign runs every second,
// every 30 s requeues file parses that were never queued and contact imports whose
// task was lost (docs/backups.md), and every 10 s queues the search-index task of
// the imports whose contacts are not all searchable yet (docs/contacts.md), on the
// worker that holds the lease. All are safe on several workers at once (row locks
// with SKIP LOCKED, task ids); the lease only saves the others' polls.
func (w *Worker) scheduleLoop(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for tick := 0; ; tick++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !w.lead.Held(ctx) {
			continue
		}
		if tick%30 == 0 {
			w.tick(ctx, "stuck file parses requeued", w.Files.RequeueStuck)
			w.tick(ctx, "stuck contact imports requeued", w.Contacts.RequeueStuckImports)
		}
		if tick%10 == 0 {
			w.tick(ctx, "contact search indexes queued", w.Contacts.QueuePendingIndexes)
		}
		w.tick(ctx, "scheduled sends queued", w.Sends.FireDue)
		w.tick(ctx, "sends resumed as their sending hours opened", w.Sends.ResumeWindowed)
		w.tick(ctx, "gradual sends released", w.Sends.ResumePaced)
		w.tick(ctx, "campaign runs", w.Campaigns.RunDue)
	}
}

func (w *Worker) onMO(ctx context.Context, m inbox.Stored) {
	if w.pub != nil {
		_ = w.pub.Publish(ctx, m.AccountID, "inbox.received", map[string]any{"id": m.ID, "sender": m.Shown(),
			"line": m.Line, "text": m.Text, "received_at": m.ReceivedAt})
	}
}

// alive names the processes alive now as a worker's name does (host-pid): those
// whose asynq servers beat (a dead one's beat ends within 10 s), and this one.
func alive(insp *asynq.Inspector, self string) func(context.Context) (map[string]bool, error) {
	return func(context.Context) (map[string]bool, error) {
		servers, err := insp.Servers()
		if err != nil {
			return nil, fmt.Errorf("asynq servers: %w", err)
		}
		out := map[string]bool{self: true}
		for _, s := range servers {
			out[fmt.Sprintf("%s-%d", s.Host, s.PID)] = true
		}
		return out, nil
	}
}

// sweepLoop runs the sweeper on the worker that holds the lease.
func (w *Worker) sweepLoop(ctx context.Context, insp *asynq.Inspector) {
	t := time.NewTicker(w.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !w.lead.Held(ctx) {
			continue
		}
		did, err := w.Sends.Sweep(ctx, insp, w.Sweep)
		if err != nil {
			w.log.WarnContext(ctx, "sweep", "err", err)
			continue
		}
		for k, n := range did {
			if n > 0 {
				w.log.InfoContext(ctx, "sweeper", "what", k, "n", n)
			}
		}
	}
}
