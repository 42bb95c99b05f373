package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/sendrules"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/sms"
)

// ChunkSize is the number of recipients claimed together (one
// recipient_claims row). What may reach the SMSC is bounded by the claim's
// grants, which also stop the chunk when the send is stopped or paused; the
// rest of the batch stays queued, so a stop refunds it at once. The send's
// status is read again before each chunk.
const ChunkSize = 500

// GrantMin is the smallest grant of a claim: how many more of its recipients
// may be handed to the SMSC before the recorder confirms further ones. A
// handler asks for grantHorizon of its recent pace at a time, at least this.
const GrantMin = 16

// grantHorizon is how much of a handler's pace one grant covers; the next
// one is asked for when half of it is left, and takes a grant transaction
// (a few milliseconds) to come. The pace is never measured over less than
// grantPaceMin, so that the burst of a start does not inflate the grants.
const (
	grantHorizon = 40 * time.Millisecond
	grantPaceMin = 250 * time.Millisecond
)

const (
	bindWait     = 30 * time.Second // a batch waits this long for a bound bind, then is retried
	textCacheMax = 4096             // split texts kept (send, text) → parts
)

// errNoBindHere hands a batch back to the queue when this gateway holds none of
// its route's binds (their leases are another gateway's): another gateway
// takes it. It does not count as a failure of the task.
var errNoBindHere = errors.New("this gateway holds no bind of the route: batch left for another gateway")

// errShuttingDown hands a batch back to the queue when the gateway stops
// before it is finished.
var errShuttingDown = errors.New("gateway shutting down: rest of the batch left queued")

// Counters are the gateway's cumulative batch figures, shown in GET /status.
type Counters struct {
	Batches           int64 `json:"batches"`
	Chunks            int64 `json:"chunks"`
	RecipientsSent    int64 `json:"recipients_sent"`
	RecipientsUnknown int64 `json:"recipients_unknown"`
	RecipientsReject  int64 `json:"recipients_rejected"`
	RecipientsStopped int64 `json:"recipients_stopped"`
	PartsAccepted     int64 `json:"parts_accepted"`
	PartsUnknown      int64 `json:"parts_unknown"`
	PartsRejected     int64 `json:"parts_rejected"`
	PartsRetried      int64 `json:"parts_retried"` // resubmitted after ESME_RTHROTTLED
}

type counters struct {
	batches, chunks                                        atomic.Int64
	sent, unknown, rejected, stopped                       atomic.Int64
	partsAccepted, partsUnknown, partsRejected, partsRetry atomic.Int64
}

func (c *counters) snapshot() Counters {
	return Counters{
		Batches: c.batches.Load(), Chunks: c.chunks.Load(),
		RecipientsSent: c.sent.Load(), RecipientsUnknown: c.unknown.Load(),
		RecipientsReject: c.rejected.Load(), RecipientsStopped: c.stopped.Load(),
		PartsAccepted: c.partsAccepted.Load(), PartsUnknown: c.partsUnknown.Load(),
		PartsRejected: c.partsRejected.Load(), PartsRetried: c.partsRetry.Load(),
	}
}

// batchHandler handles jobs.TypeSendBatch.
type batchHandler struct {
	now        func() time.Time   // the clock of the sending hours
	rules      *sendrules.Service // the sending hours (hours.go)
	store      *store
	rec        *recorder
	rdb        redis.UniversalClient
	binds      *binds
	otherRoute string
	gatewayID  string // recipient_claims.gateway
	log        *slog.Logger
	texts      *textCache
	links      *shortlink.Codec
	stopping   <-chan struct{} // closed when the gateway starts to stop
	chunk      int
	grantMin   int
	paces      routePace
	stats      counters
	inflight   sync.WaitGroup
	// journal records how far each claim in hand has been started (nil: none).
	journal *journal

	// afterChunk, when set (tests), runs after each chunk is recorded.
	afterChunk func(b jobs.SendBatch, chunk int)
}

// ProcessTask implements asynq.Handler.
func (h *batchHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	h.inflight.Add(1)
	defer h.inflight.Done()
	var b jobs.SendBatch
	if err := json.Unmarshal(t.Payload(), &b); err != nil {
		return fmt.Errorf("send batch payload: %w: %w", err, asynq.SkipRetry)
	}
	q, _ := asynq.GetQueueName(ctx)
	return h.process(ctx, b, jobs.IsCarrierQueueCritical(q))
}

// stoppingNow reports whether the gateway has begun to stop.
func (h *batchHandler) stoppingNow() bool { return closed(h.stopping) }

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// route returns the operator whose binds carry the batch's operator.
func (h *batchHandler) route(op string) (string, *operatorBinds, error) {
	r := op
	if op == OperatorOther {
		r = h.otherRoute
	}
	ob := h.binds.byOp[r]
	if ob == nil {
		return "", nil, fmt.Errorf("no binds for operator %q (route %q)", op, r)
	}
	return r, ob, nil
}

type batchTotals struct {
	chunks, sent, rejected, stopped, unknown int64
}

func (h *batchHandler) process(ctx context.Context, b jobs.SendBatch, critical bool) (retErr error) {
	start := time.Now()
	r := &batchRun{b: b, critical: critical, log: h.log.With("send_id", b.SendID, "batch", b.Batch, "operator", b.Operator)}
	var err error
	if r.route, r.ob, err = h.route(b.Operator); err != nil {
		return err
	}
	h.stats.batches.Add(1)
	defer func() {
		t := r.tot
		attrs := []any{"chunks", t.chunks, "sent", t.sent, "unknown", t.unknown,
			"rejected", t.rejected, "stopped", t.stopped, "took", time.Since(start).Round(time.Millisecond)}
		if retErr != nil {
			r.log.Warn("batch not finished", append(attrs, "err", retErr)...)
			return
		}
		r.log.Info("batch handled", attrs...)
	}()
	r.grants = grantSizer{min: h.grantMin, max: max(h.chunk, h.grantMin), size: h.grantMin, prev: h.paces.get(r.route)}
	defer func() {
		if r.grants.count > 0 {
			h.paces.set(r.route, r.grants.pace(time.Now()))
		}
	}()
	for chunkNo := 1; ; chunkNo++ {
		send, done, err := h.gate(ctx, r)
		if done || err != nil {
			return err
		}
		if done, err := h.round(ctx, r, send, chunkNo); done || err != nil {
			return err
		}
	}
}

// batchRun is one batch job in progress.
type batchRun struct {
	b      jobs.SendBatch
	log    *slog.Logger
	route  string
	ob     *operatorBinds
	after  int64 // the batch is claimed in id order
	grants grantSizer
	tot    batchTotals
	// critical: taken from a critical carrier queue (the fast lane).
	critical bool
	// closes, when set, is when the send's sending hours close (hours.go).
	closes time.Time
}

// gate reads the send again before a chunk: a stopped send's queued
// recipients are stopped, a paused one waits for Resume, and nothing is
// claimed while the gateway stops or no bind of the route is up.
func (h *batchHandler) gate(ctx context.Context, r *batchRun) (sendRow, bool, error) {
	b := r.b
	send, err := h.store.loadSend(ctx, b.SendID)
	if errors.Is(err, errSendNotFound) {
		return send, true, fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	if err != nil {
		return send, true, err
	}
	if send.halted() {
		n, err := h.store.stopBatch(ctx, b.SendID, b.Batch)
		if err != nil {
			return send, true, err
		}
		r.tot.stopped += n
		h.stats.stopped.Add(n)
		if n > 0 {
			h.markDirty(ctx, b.SendID, r.log)
		}
		return send, true, nil
	}
	if send.Status == "paused" {
		// Resume enqueues the batch again; its queued recipients stay as they are.
		return send, true, nil
	}
	if done, err := h.checkHours(ctx, r, send); done || err != nil {
		return send, true, err
	}
	if h.stoppingNow() {
		return send, true, errShuttingDown
	}
	if err := h.waitBound(ctx, r.ob); err != nil {
		if h.stoppingNow() {
			return send, true, errShuttingDown
		}
		if errors.Is(err, errNoBindHere) {
			return send, true, err
		}
		return send, true, fmt.Errorf("send %d batch %d: %w", b.SendID, b.Batch, err)
	}
	return send, false, nil
}

// round claims one chunk, submits it and waits for the recorder; done
// reports that the batch has nothing more to claim.
func (h *batchHandler) round(ctx context.Context, r *batchRun, send sendRow, chunkNo int) (done bool, err error) {
	b := r.b
	if !r.closes.IsZero() && !h.now().Before(r.closes) {
		return false, nil // the sending hours closed: the next gate pauses the send
	}
	t0 := time.Now()
	c, limit, err := h.claimPaced(ctx, r, send)
	if err != nil || len(c.recs) == 0 {
		return true, err
	}
	r.after = c.recs[len(c.recs)-1].ID
	t1 := time.Now()
	acc := h.rec.open(c.claimID, b.SendID, r.route, r.closes, send.RedisIDs)
	finished := false
	defer func() {
		if !finished { // a panic: stop renewing the claim, the sweeper settles it
			h.rec.abandon(acc)
		}
	}()
	run := h.runChunk(ctx, r, send, acc, c)
	t2 := time.Now()
	if r.critical && len(run.revert) == 0 && !run.refused {
		finished = true
		h.finishLater(r, acc, run, chunkNo)
		return len(c.recs) < limit, nil
	}
	fin := <-h.rec.finish(acc, run.revert)
	finished = true
	if fin.err != nil {
		// The claim stays: the sweeper settles its recipients.
		return true, fmt.Errorf("send %d batch %d: %w", b.SendID, b.Batch, fin.err)
	}
	h.count(r, fin, run)
	r.log.Debug("chunk recorded", "chunk", chunkNo, "claimed", len(c.recs), "sent", fin.sent,
		"rejected", fin.rejected, "returned", len(run.revert), "grant", r.grants.size, "claim", t1.Sub(t0).Round(time.Microsecond),
		"submit", t2.Sub(t1).Round(time.Microsecond), "record", time.Since(t2).Round(time.Microsecond))
	if h.afterChunk != nil {
		h.afterChunk(b, chunkNo)
	}
	if run.refused {
		// The send was stopped or paused (the next round sees which), or a
		// sweeper took the claim over: it has re-queued what was not handed.
		return false, nil
	}
	if len(run.revert) > 0 {
		if err := ctx.Err(); err != nil {
			return true, fmt.Errorf("send %d batch %d interrupted: %w", b.SendID, b.Batch, err)
		}
		return true, errShuttingDown
	}
	return len(c.recs) < limit, nil
}

// claimPaced claims the round's chunk: at most limit recipients, the chunk or
// what a gradual send's pace has released (pace.go; nothing: no claim).
func (h *batchHandler) claimPaced(ctx context.Context, r *batchRun, send sendRow) (claimed, int, error) {
	b := r.b
	limit, err := h.paceLimit(ctx, send)
	if err != nil || limit == 0 {
		return claimed{}, limit, err
	}
	c, err := h.store.claim(ctx, b.SendID, b.Batch, b.Operator, r.after, limit, min(r.grants.next(time.Now()), limit), h.gatewayID,
		send.Ranges)
	if err != nil {
		h.giveBackLost(ctx, r, c.token)
		return claimed{}, limit, err
	}
	if send.PacePerHour > 0 {
		if err := h.store.returnPace(ctx, b.SendID, limit-len(c.recs)); err != nil {
			r.log.Warn("gradual send: unused allotment not returned", "err", err)
		}
	}
	return c, limit, nil
}

// giveBackWait bounds how long a gateway tries to give back a claim whose
// answer it lost: past the sweeper's default Abandoned the sweeper has settled it.
const giveBackWait = 2 * time.Minute

// giveBackLost gives back the claim a failed claim statement may have committed
// all the same (a primary failing over with the commit on its way): none of its
// recipients reached the SMSC, so they are queued again instead of being left to
// the sweeper as granted with an unknown outcome. It tries until the database
// answers, giveBackWait at most, also past the task's end.
func (h *batchHandler) giveBackLost(ctx context.Context, r *batchRun, token int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), giveBackWait)
	defer cancel()
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		n, err := h.store.giveBack(ctx, r.b.SendID, token)
		if err == nil {
			if n > 0 {
				r.log.Warn("a claim whose answer was lost is given back", "recipients", n)
			}
			return
		}
		r.log.Debug("a claim whose answer was lost: give-back failed, retrying", "err", err)
		select {
		case <-ctx.Done():
			r.log.Error("a claim whose answer was lost could not be given back: the sweeper settles it", "err", err)
			return
		case <-time.After(wait):
		}
	}
}

// finishLater records a critical chunk whose every recipient was handed to
// the SMSC without holding the task's worker: the next code needs that worker
// now, and the recorder's next outcome transaction may take a while under a
// campaign. The outcome is as durable as when waited for: if the transaction
// fails, the claim stays and the sweeper settles it, exactly as after a
// failed wait. The gateway's graceful stop waits for it (inflight).
func (h *batchHandler) finishLater(r *batchRun, acc *claimAcc, run chunkRun, chunkNo int) {
	r.tot.chunks++
	b, log := r.b, r.log
	done := h.rec.finish(acc, nil)
	h.inflight.Add(1)
	go func() {
		defer h.inflight.Done()
		fin := <-done
		if fin.err != nil {
			log.Warn("critical chunk not recorded: the sweeper settles its claim", "chunk", chunkNo, "err", fin.err)
			return
		}
		h.countGateway(fin, run)
		if h.afterChunk != nil {
			h.afterChunk(b, chunkNo)
		}
	}()
}

// countGateway adds a recorded chunk to the gateway's figures.
func (h *batchHandler) countGateway(fin finishResult, run chunkRun) {
	h.stats.chunks.Add(1)
	h.stats.sent.Add(fin.sent)
	h.stats.rejected.Add(fin.rejected)
	h.stats.unknown.Add(run.unknown)
}

// count adds a recorded chunk to the batch's and the gateway's figures.
func (h *batchHandler) count(r *batchRun, fin finishResult, run chunkRun) {
	r.tot.chunks++
	r.tot.sent += fin.sent
	r.tot.rejected += fin.rejected
	r.tot.unknown += run.unknown
	h.countGateway(fin, run)
}

// waitBound waits for a bound bind of the route before anything is claimed,
// at most bindWait and never past the start of a shutdown.
func (h *batchHandler) waitBound(ctx context.Context, ob *operatorBinds) error {
	if ob.anyBound() {
		return nil
	}
	if !ob.anyHeld() {
		return errNoBindHere
	}
	ctx, cancel := context.WithTimeout(ctx, bindWait)
	defer cancel()
	go func() {
		select {
		case <-h.stopping:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ob.waitBound(ctx)
}

// markDirty tells the live publisher the send's progress changed. It is a
// notification only: a failure is logged, not returned.
func (h *batchHandler) markDirty(ctx context.Context, sendID int64, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := h.rdb.SAdd(ctx, jobs.DirtySends, strconv.FormatInt(sendID, 10)).Err(); err != nil {
		log.Warn("gateway: mark send dirty", "err", err)
	}
}

// grantSizer sizes a handler's grants: grantHorizon of its recent pace (the
// recipients it started per second, with older seconds fading), at least min,
// at most max. A grant is never taken back, so a larger one (doubling after a
// wait, say) would leave more recipients unknown when the gateway dies; a
// handler that runs ahead of its grant waits for one grant transaction instead.
// Until grantPaceMin has been measured, the rest of that window counts at prev,
// the pace the last batch of the route ended with.
type grantSizer struct {
	min, max int
	size     int
	prev     float64   // recipients per second
	count    int       // recipients started since since
	since    time.Time // start of the measurement
}

func (g *grantSizer) started(now time.Time) {
	if g.since.IsZero() {
		g.since = now
	}
	g.count++
	if el := now.Sub(g.since); el > time.Second {
		g.count /= 2
		g.since = now.Add(-el / 2)
	}
}

// pace is the recipients started per second.
func (g *grantSizer) pace(now time.Time) float64 {
	el := now.Sub(g.since).Seconds()
	if g.since.IsZero() {
		el = 0
	}
	floor := grantPaceMin.Seconds()
	return (float64(g.count) + g.prev*max(0, floor-el)) / max(el, floor)
}

// next returns the size of the next grant.
func (g *grantSizer) next(now time.Time) int {
	g.size = min(max(int(g.pace(now)*grantHorizon.Seconds()), g.min), g.max)
	return g.size
}

// routePace remembers the pace of each route's last batch, so that the next
// batch's first grants are sized from it.
type routePace struct {
	mu sync.Mutex
	m  map[string]float64
}

func (p *routePace) get(route string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.m[route]
}

func (p *routePace) set(route string, pace float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]float64{}
	}
	p.m[route] = pace
}

// outcomeOf is the recorded outcome of a recipient whose parts are all
// answered or will never be submitted; false when nothing was submitted (the
// recipient goes back to the queue).
func outcomeOf(acc *claimAcc, st *recipientState) (outcome, bool) {
	o := outcome{claim: acc, id: st.id}
	switch {
	case st.accepted+st.unknown > 0:
		o.unknown = st.unknown > 0
		o.failed = int16(len(st.parts) - st.accepted - st.unknown)
		o.partStates = partStates(st.states)
		o.msgIDs = slices.Clone(st.ids)
	case st.status != 0:
		o.rejected, o.errText = true, fmt.Sprintf("smsc:0x%02X", uint32(st.status))
	case st.errText != "":
		o.rejected, o.errText = true, st.errText
	default:
		return o, false
	}
	return o, true
}

// Per-part submit states (recipients.part_states, one byte per part).
const (
	partAccepted = 'a' // accepted with a message id
	partUnknown  = '?' // sent, no usable answer: reconciled by receipt
	partRejected = 'r' // refused by the SMSC (or locally): never sent
	partUnsent   = 'n' // never submitted: the chunk stopped first
)

// partStates renders a recipient's part states, parts never answered as
// never submitted.
func partStates(states []byte) string {
	b := make([]byte, len(states))
	for i, c := range states {
		if c == 0 {
			c = partUnsent
		}
		b[i] = c
	}
	return string(b)
}

// textCache keeps the split parts of the texts being sent, made with
// reference 0; submit patches each recipient's reference into a copy.
type textCache struct {
	mu sync.Mutex
	m  map[textKey]textEntry
}

type textKey struct {
	sendID   int64
	cancel11 bool
	text     string
}

type textEntry struct {
	parts []sms.Part
	err   error
}

func newTextCache() *textCache { return &textCache{m: map[textKey]textEntry{}} }

// recipientParts returns the parts of one recipient's text: the send's (or the
// recipient's own) text, with the tracked links of the send's own text rendered
// for the recipient (a recipient's text never adds one: shortlink.RenderFrom). A
// text with links is the recipient's alone, so it is split without the cache.
func (h *batchHandler) recipientParts(send sendRow, rc claimedRecipient, sendParts []sms.Part, sendErr error) ([]sms.Part, error) {
	text := send.Text
	if rc.Text != nil {
		text = *rc.Text
	}
	if shortlink.Has(send.Text) && shortlink.Has(text) { // links come from the send's own text only
		parts, err := sms.Split(sms.Compose(h.links.RenderFrom(send.Text, text, rc.ID), send.Cancel11), 0)
		if err != nil {
			err = fmt.Errorf("split text of send %d: %w", send.ID, err)
		}
		return parts, err
	}
	if rc.Text != nil {
		return h.texts.parts(send.ID, *rc.Text, send.Cancel11)
	}
	return sendParts, sendErr
}

// parts returns the parts of text as sent (with the cancel-11 footer when
// asked). The parts and their payloads are shared: never modify them.
func (c *textCache) parts(sendID int64, text string, cancel11 bool) ([]sms.Part, error) {
	k := textKey{sendID: sendID, cancel11: cancel11, text: text}
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return e.parts, e.err
	}
	parts, err := sms.Split(sms.Compose(text, cancel11), 0)
	if err != nil {
		err = fmt.Errorf("split text of send %d: %w", sendID, err)
	}
	c.mu.Lock()
	if len(c.m) >= textCacheMax {
		clear(c.m)
	}
	c.m[k] = textEntry{parts: parts, err: err}
	c.mu.Unlock()
	return parts, err
}
