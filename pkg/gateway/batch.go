package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/smpp"
	"github.com/chapar/chapar/pkg/sms"
)

// ChunkSize is the number of recipients claimed, submitted and recorded
// together. The send's status is read again before each chunk.
const ChunkSize = 500

const (
	bindWait       = 30 * time.Second // a batch waits this long for a bound bind, then is retried
	recordAttempts = 6                // tries of a chunk's recording transaction
	recordTimeout  = 30 * time.Second
	textCacheMax   = 4096 // split texts kept (send, text) → parts
)

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
	store      *store
	rdb        redis.UniversalClient
	binds      *binds
	otherRoute string
	log        *slog.Logger
	texts      *textCache
	stopping   <-chan struct{} // closed when the gateway starts to stop
	chunk      int
	stats      counters
	inflight   sync.WaitGroup

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
	return h.process(ctx, b)
}

func (h *batchHandler) stoppingNow() bool {
	select {
	case <-h.stopping:
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

func (h *batchHandler) process(ctx context.Context, b jobs.SendBatch) (retErr error) {
	start := time.Now()
	log := h.log.With("send_id", b.SendID, "batch", b.Batch, "operator", b.Operator)
	route, ob, err := h.route(b.Operator)
	if err != nil {
		return err
	}
	h.stats.batches.Add(1)
	var tot batchTotals
	defer func() {
		attrs := []any{"chunks", tot.chunks, "sent", tot.sent, "unknown", tot.unknown,
			"rejected", tot.rejected, "stopped", tot.stopped, "took", time.Since(start).Round(time.Millisecond)}
		if retErr != nil {
			log.Warn("batch not finished", append(attrs, "err", retErr)...)
			return
		}
		log.Info("batch handled", attrs...)
	}()
	for chunkNo := 1; ; chunkNo++ {
		send, err := h.store.loadSend(ctx, b.SendID)
		if errors.Is(err, errSendNotFound) {
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		if err != nil {
			return err
		}
		if send.halted() {
			n, err := h.store.stopBatch(ctx, b.SendID, b.Batch)
			if err != nil {
				return err
			}
			tot.stopped += n
			h.stats.stopped.Add(n)
			if n > 0 {
				h.markDirty(ctx, b.SendID, log)
			}
			return nil
		}
		if h.stoppingNow() {
			return errShuttingDown
		}
		if err := h.waitBound(ctx, ob); err != nil {
			if h.stoppingNow() {
				return errShuttingDown
			}
			return fmt.Errorf("send %d batch %d: %w", b.SendID, b.Batch, err)
		}
		t0 := time.Now()
		recs, err := h.store.claim(ctx, b.SendID, b.Batch, h.chunk)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return nil
		}
		t1 := time.Now()
		out := h.submitChunk(ctx, ob, route, send, recs)
		t2 := time.Now()
		sent, rejected, err := h.recordChunk(ctx, out, log)
		if err != nil {
			// The claimed rows stay at status 7: the sweeper marks them unknown.
			return err
		}
		tot.chunks++
		tot.sent += sent
		tot.rejected += rejected
		h.stats.chunks.Add(1)
		h.stats.sent.Add(sent)
		h.stats.rejected.Add(rejected)
		for _, u := range out.sentUnknown {
			if u {
				tot.unknown++
				h.stats.unknown.Add(1)
			}
		}
		if sent+rejected > 0 {
			h.markDirty(ctx, b.SendID, log)
		}
		log.Debug("chunk recorded", "chunk", chunkNo, "claimed", len(recs), "sent", sent,
			"rejected", rejected, "returned", len(out.revertIDs), "claim", t1.Sub(t0).Round(time.Microsecond),
			"submit", t2.Sub(t1).Round(time.Microsecond), "record", time.Since(t2).Round(time.Microsecond))
		if h.afterChunk != nil {
			h.afterChunk(b, chunkNo)
		}
		if len(out.revertIDs) > 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("send %d batch %d interrupted: %w", b.SendID, b.Batch, err)
			}
			return errShuttingDown
		}
		if len(recs) < h.chunk {
			return nil
		}
	}
}

// waitBound waits for a bound bind of the route before anything is claimed,
// at most bindWait and never past the start of a shutdown.
func (h *batchHandler) waitBound(ctx context.Context, ob *operatorBinds) error {
	if ob.anyBound() {
		return nil
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

// recordChunk stores the chunk's outcome, retrying the transaction: the SMSC
// has already accepted these messages, so their ids must be kept even if
// the task's context ends meanwhile.
func (h *batchHandler) recordChunk(ctx context.Context, o *chunkOutcome, log *slog.Logger) (int64, int64, error) {
	rctx := context.WithoutCancel(ctx)
	delay := 200 * time.Millisecond
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(rctx, recordTimeout)
		sent, rejected, err := h.store.record(actx, o)
		cancel()
		if err == nil {
			return sent, rejected, nil
		}
		if attempt == recordAttempts {
			return 0, 0, err
		}
		log.Warn("gateway: recording chunk failed, retrying", "attempt", attempt, "err", err)
		time.Sleep(delay)
		delay *= 2
	}
}

// recipientState tracks one claimed recipient's parts through submission.
type recipientState struct {
	id       int64
	mobile   string
	parts    []sms.Part
	ids      []string // normalised message id per accepted part
	accepted int
	unknown  int
	rejected int
	status   smpp.Status // first SMSC rejection
	errText  string      // local failure (text, encoding)
}

type partRef struct{ r, p int32 }

type submitResult struct {
	ref partRef
	id  string
	err error
}

// submitChunk submits every part of the claimed recipients, pipelined over
// the operator's binds, and waits for every outcome. Once the gateway starts
// stopping it begins no further recipient but completes those it started;
// once ctx ends it submits nothing more. Parts never submitted count as
// failed for a recipient that was sent, and a recipient with nothing
// submitted goes back to the queue.
func (h *batchHandler) submitChunk(ctx context.Context, ob *operatorBinds, route string, send sendRow, recs []claimedRecipient) *chunkOutcome {
	states := make([]recipientState, len(recs))
	totalParts := 0
	for i, rc := range recs {
		st := &states[i]
		st.id, st.mobile = rc.ID, rc.Mobile
		text := send.Text
		if rc.Text != nil {
			text = *rc.Text
		}
		parts, err := h.texts.parts(send.ID, text, send.Cancel11)
		switch {
		case err != nil:
			st.errText = "text:too_many_parts"
		case len(parts) == 0:
			st.errText = "text:empty"
		default:
			st.parts, st.ids = parts, make([]string, len(parts))
			totalParts += len(parts)
		}
	}

	src := smpp.SenderLine(send.Sender)
	// Buffered for every part, so a callback (on a session's read loop)
	// never blocks: each submitted part has at most one outcome pending.
	results := make(chan submitResult, max(totalParts, 1))
	var (
		retries     []partRef
		cur         partRef
		outstanding int
		halted      bool // ctx ended or the bind closed: submit nothing more
	)
	next := func() (partRef, bool) {
		if halted {
			return partRef{}, false
		}
		if len(retries) > 0 {
			ref := retries[0]
			retries = retries[1:]
			return ref, true
		}
		for int(cur.r) < len(states) {
			if int(cur.p) >= len(states[cur.r].parts) {
				cur.r, cur.p = cur.r+1, 0
				continue
			}
			if cur.p == 0 && h.stoppingNow() {
				return partRef{}, false // never start a recipient while stopping
			}
			ref := cur
			cur.p++
			return ref, true
		}
		return partRef{}, false
	}
	submit := func(ref partRef) {
		st := &states[ref.r]
		part := st.parts[ref.p]
		payload := part.Payload
		if part.UDHI() {
			// The cached split uses reference 0; each recipient gets the low
			// byte of its id, so a message is always sent with the same one.
			payload = bytes.Clone(payload)
			payload[3] = byte(st.id)
		}
		m := &smpp.SubmitSM{
			Source:             src,
			Dest:               smpp.Mobile(st.mobile),
			ShortMessage:       payload,
			DataCoding:         part.DataCoding(),
			UDH:                part.UDHI(),
			RegisteredDelivery: smpp.DefaultRegisteredDelivery,
		}
		err := ob.pick().SubmitAsync(ctx, m, func(id string, err error) {
			results <- submitResult{ref: ref, id: id, err: err}
		})
		switch {
		case err == nil:
			outstanding++
		case ctx.Err() != nil || errors.Is(err, smpp.ErrClosed):
			halted = true // this part and the rest stay unsent
		default:
			// The session refused to encode it (address or length): a
			// resubmission would fail the same way.
			st.rejected++
			if st.errText == "" {
				st.errText = "submit:invalid"
			}
			h.log.Warn("gateway: submit_sm refused locally", "recipient_id", st.id, "err", err)
		}
	}
	handle := func(res submitResult) {
		outstanding--
		st := &states[res.ref.r]
		switch {
		case res.err == nil:
			if id := smpp.NormalizeMessageID(res.id); id != "" {
				st.ids[res.ref.p] = id
				st.accepted++
			} else {
				st.unknown++ // accepted without an id: reconcile by receipt
			}
		case smpp.IsThrottled(res.err):
			// Not accepted: the bind pauses, then the part goes again.
			h.stats.partsRetry.Add(1)
			if !halted && ctx.Err() == nil {
				retries = append(retries, res.ref)
			}
		case smpp.IsUnknown(res.err):
			st.unknown++ // never resent
		default:
			st.rejected++
			if s, ok := smpp.StatusOf(res.err); ok && st.status == 0 {
				st.status = s
			}
		}
	}
	for {
	drain:
		for {
			select {
			case res := <-results:
				handle(res)
			default:
				break drain
			}
		}
		if ref, ok := next(); ok {
			submit(ref)
			continue
		}
		if outstanding == 0 {
			break
		}
		// pkg/smpp completes every written submit exactly once, at the
		// latest after its response time-out or when its session ends.
		handle(<-results)
	}

	o := &chunkOutcome{
		operator:    route,
		sendID:      send.ID,
		msgIDs:      make([]string, 0, totalParts),
		msgRecipIDs: make([]int64, 0, totalParts),
		msgParts:    make([]int16, 0, totalParts),
		sentIDs:     make([]int64, 0, len(states)),
		sentUnknown: make([]bool, 0, len(states)),
		sentFailed:  make([]int16, 0, len(states)),
	}
	for i := range states {
		st := &states[i]
		h.stats.partsAccepted.Add(int64(st.accepted))
		h.stats.partsUnknown.Add(int64(st.unknown))
		h.stats.partsRejected.Add(int64(st.rejected))
		switch {
		case st.accepted+st.unknown > 0:
			for p, id := range st.ids {
				if id != "" {
					o.msgIDs = append(o.msgIDs, id)
					o.msgRecipIDs = append(o.msgRecipIDs, st.id)
					o.msgParts = append(o.msgParts, int16(p+1))
				}
			}
			o.sentIDs = append(o.sentIDs, st.id)
			o.sentUnknown = append(o.sentUnknown, st.unknown > 0)
			o.sentFailed = append(o.sentFailed, int16(len(st.parts)-st.accepted-st.unknown))
		case st.status != 0:
			o.rejIDs = append(o.rejIDs, st.id)
			o.rejErrors = append(o.rejErrors, fmt.Sprintf("smsc:0x%02X", uint32(st.status)))
		case st.errText != "":
			o.rejIDs = append(o.rejIDs, st.id)
			o.rejErrors = append(o.rejErrors, st.errText)
		default:
			o.revertIDs = append(o.revertIDs, st.id)
		}
	}
	return o
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
