package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// Settings tune delivery (WEBHOOK_* settings, pkg/config).
type Settings struct {
	Batch       int           // most events per POST (default 100)
	Window      time.Duration // how long a failing delivery is retried before it is dead-lettered (24 h)
	RetryBase   time.Duration // the first retry's delay, doubled each attempt up to RetryMax (10 s)
	RetryMax    time.Duration // the longest delay between attempts (1 h)
	Timeout     time.Duration // one POST, connection to last byte (10 s)
	Concurrency int           // POSTs in flight per worker (16)
	Every       time.Duration // how often the outbox is polled (200 ms)
}

func (s *Settings) defaults() {
	if s.Batch <= 0 {
		s.Batch = 100
	}
	if s.Window <= 0 {
		s.Window = 24 * time.Hour
	}
	if s.RetryBase <= 0 {
		s.RetryBase = 10 * time.Second
	}
	if s.RetryMax <= 0 {
		s.RetryMax = time.Hour
	}
	if s.Timeout <= 0 {
		s.Timeout = 10 * time.Second
	}
	if s.Concurrency <= 0 {
		s.Concurrency = 16
	}
	if s.Every <= 0 {
		s.Every = 200 * time.Millisecond
	}
}

// Deliverer posts the outbox to the endpoints. It runs in the worker beside (never
// inside) the send pipeline's queues, with bounded concurrency and time-outs, so a
// slow or failing receiver delays only its own deliveries. Several workers may run
// one each: batches and deliveries are taken with row locks (SKIP LOCKED).
type Deliverer struct {
	pool   *pgxpool.Pool
	set    Settings
	client *http.Client
	log    *slog.Logger
	slots  chan struct{}
	wg     sync.WaitGroup
	now    func() time.Time

	// Pace, when set, gives the wait after a poll that left slots free from
	// Settings.Every (the worker's lease.Lead.Pace); nil waits Every.
	Pace func(ctx context.Context, every time.Duration) time.Duration
	// attempts counts the attempts by result (metrics.go).
	attempts *prometheus.CounterVec
}

// NewDeliverer builds a deliverer whose connections pass through guard.
func NewDeliverer(pool *pgxpool.Pool, guard Guard, set Settings, log *slog.Logger) *Deliverer {
	set.defaults()
	dialer := &net.Dialer{Timeout: set.Timeout, Control: guard.Control}
	tr := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute,
		TLSHandshakeTimeout: set.Timeout, ResponseHeaderTimeout: set.Timeout}
	client := &http.Client{Transport: tr, Timeout: set.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Deliverer{pool: pool, set: set, client: client, log: log, slots: make(chan struct{}, set.Concurrency), now: time.Now,
		attempts: newAttempts(nil)}
}

// Run polls the outbox until ctx ends, then waits for the POSTs in flight. While
// every slot is taken and more deliveries are due it claims again as soon as a
// slot frees, rather than at the next poll; after a poll that left slots free it
// waits Settings.Every, or what Pace makes of it.
func (d *Deliverer) Run(ctx context.Context) {
	defer d.wg.Wait()
	for {
		busy, err := d.Step(ctx)
		if err != nil && ctx.Err() == nil {
			d.log.WarnContext(ctx, "webhook delivery", "err", err)
		}
		if busy {
			select {
			case <-ctx.Done():
				return
			case d.slots <- struct{}{}: // a slot is free: claim again at once
				<-d.slots
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(d.pace(ctx)):
		}
	}
}

func (d *Deliverer) pace(ctx context.Context) time.Duration {
	if d.Pace == nil {
		return d.set.Every
	}
	return d.Pace(ctx, d.set.Every)
}

// Step batches the waiting events and starts the due deliveries there are free
// slots for; busy reports that it filled every slot (more may be due).
func (d *Deliverer) Step(ctx context.Context) (busy bool, err error) {
	for {
		n, err := d.batch(ctx)
		if err != nil {
			return false, err
		}
		if n < batchRound {
			break
		}
	}
	free := cap(d.slots) - len(d.slots)
	if free == 0 {
		return true, nil
	}
	due, err := d.claim(ctx, free)
	if err != nil {
		return false, err
	}
	for _, j := range due {
		d.slots <- struct{}{}
		d.wg.Add(1)
		go func() {
			defer func() { <-d.slots; d.wg.Done() }()
			d.deliver(context.WithoutCancel(ctx), j)
		}()
	}
	return len(due) == free, nil
}

// batchRound is the most events one batching statement takes.
const batchRound = 20000

// batch groups up to batchRound waiting events into deliveries of at most
// Settings.Batch events per endpoint, and returns how many events it took.
func (d *Deliverer) batch(ctx context.Context) (int, error) {
	taken := 0
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `WITH locked AS (
				SELECT id, endpoint_id FROM webhook_events WHERE delivery_id IS NULL
				ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED),
			g AS (SELECT id, endpoint_id, (row_number() OVER (PARTITION BY endpoint_id ORDER BY id) - 1) / $1 AS grp FROM locked)
			SELECT g.endpoint_id, e.account_id, array_agg(g.id ORDER BY g.id) FROM g JOIN webhook_endpoints e ON e.id = g.endpoint_id
			GROUP BY g.endpoint_id, e.account_id, g.grp ORDER BY min(g.id)`, d.set.Batch, batchRound)
		if err != nil {
			return fmt.Errorf("webhook batch: %w", err)
		}
		type group struct {
			endpoint, account int64
			ids               []int64
		}
		groups, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (group, error) {
			var g group
			return g, r.Scan(&g.endpoint, &g.account, &g.ids)
		})
		if err != nil {
			return fmt.Errorf("webhook batch: %w", err)
		}
		b := &pgx.Batch{}
		for _, g := range groups {
			taken += len(g.ids)
			b.Queue(`WITH d AS (INSERT INTO webhook_deliveries (endpoint_id, account_id, events) VALUES ($1, $2, $3) RETURNING id)
				UPDATE webhook_events SET delivery_id = (SELECT id FROM d) WHERE id = ANY($4)`, g.endpoint, g.account, len(g.ids), g.ids)
		}
		if len(groups) == 0 {
			return nil
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("webhook batch: %w", err)
		}
		return nil
	})
	return taken, err
}

// job is one claimed delivery.
type job struct {
	id, endpoint int64
	attempts     int
	firstAt      time.Time
	url, secret  string
	enabled      bool
}

// claim takes up to n due deliveries, leasing them (next_at moves past the
// time-out) so that a worker that dies mid-POST leaves them to be retried.
func (d *Deliverer) claim(ctx context.Context, n int) ([]job, error) {
	lease := d.set.Timeout*2 + 30*time.Second
	rows, err := d.pool.Query(ctx, `WITH due AS (
			SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_at <= now()
			ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED)
		UPDATE webhook_deliveries w SET next_at = now() + $2::interval, attempts = w.attempts + 1
		FROM due, webhook_endpoints e WHERE w.id = due.id AND e.id = w.endpoint_id
		RETURNING w.id, w.endpoint_id, w.attempts, w.first_at, e.url, e.secret, e.enabled AND e.deleted_at IS NULL`, n, lease)
	if err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (job, error) {
		var j job
		return j, r.Scan(&j.id, &j.endpoint, &j.attempts, &j.firstAt, &j.url, &j.secret, &j.enabled)
	})
	if err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	return out, nil
}

// Event is one event of a POST body.
type Event struct {
	ID        int64           `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// Body is what a webhook POST carries.
type Body struct {
	DeliveryID int64   `json:"delivery_id"`
	Events     []Event `json:"events"`
}

// deliver makes one attempt of a delivery and records its outcome.
func (d *Deliverer) deliver(ctx context.Context, j job) {
	status, err := d.post(ctx, j)
	if err == nil && status >= 200 && status < 300 {
		d.record(ctx, j, `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status = $2,
			last_error = '' WHERE id = $1`, status)
		d.attempts.WithLabelValues("delivered").Inc()
		return
	}
	msg := fmt.Sprintf("HTTP %d", status)
	if err != nil {
		msg = err.Error()
	}
	if len(msg) > 500 {
		msg = msg[:500]
	}
	var st *int
	if status > 0 {
		st = &status
	}
	wait := d.backoff(j.attempts)
	if !j.enabled || d.now().Add(wait).After(j.firstAt.Add(d.set.Window)) {
		d.record(ctx, j, `UPDATE webhook_deliveries SET status = 'dead', last_status = $2, last_error = $3 WHERE id = $1`, st, msg)
		d.attempts.WithLabelValues("dead").Inc()
		return
	}
	d.record(ctx, j, `UPDATE webhook_deliveries SET next_at = now() + $2::interval, last_status = $3, last_error = $4
		WHERE id = $1`, wait, st, msg)
	d.attempts.WithLabelValues("retry").Inc()
}

func (d *Deliverer) record(ctx context.Context, j job, sql string, args ...any) {
	if _, err := d.pool.Exec(ctx, sql, append([]any{j.id}, args...)...); err != nil {
		d.log.WarnContext(ctx, "webhook delivery outcome not recorded; it will be retried", "delivery", j.id, "err", err)
	}
}

// backoff is the delay after the attempt-th failure: RetryBase doubled each
// time, capped at RetryMax, with up to 20% jitter.
func (d *Deliverer) backoff(attempt int) time.Duration {
	w := d.set.RetryBase
	for i := 1; i < attempt && w < d.set.RetryMax; i++ {
		w *= 2
	}
	w = min(w, d.set.RetryMax)
	return w + time.Duration(rand.Int64N(int64(w)/5+1))
}

// post sends the delivery's events, signed, and returns the HTTP status.
func (d *Deliverer) post(ctx context.Context, j job) (int, error) {
	if !j.enabled {
		return 0, fmt.Errorf("%s", MsgDisabled)
	}
	body, err := d.body(ctx, j.id)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	now := d.now()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Chapar-Webhooks/1")
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(HeaderSignature, Sign(j.secret, now, body))
	req.Header.Set(HeaderDelivery, strconv.FormatInt(j.id, 10))
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// body builds the JSON of a delivery from its events.
func (d *Deliverer) body(ctx context.Context, deliveryID int64) ([]byte, error) {
	rows, err := d.pool.Query(ctx, `SELECT id, event, created_at, payload FROM webhook_events
		WHERE delivery_id = $1 ORDER BY id`, deliveryID)
	if err != nil {
		return nil, fmt.Errorf("webhook events: %w", err)
	}
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) {
		var e Event
		return e, r.Scan(&e.ID, &e.Type, &e.CreatedAt, &e.Data)
	})
	if err != nil {
		return nil, fmt.Errorf("webhook events: %w", err)
	}
	return json.Marshal(Body{DeliveryID: deliveryID, Events: evs})
}
