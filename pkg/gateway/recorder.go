package gateway

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/send"
)

// The recorder writes what every batch handler of the gateway produces, in
// group transactions on two lanes, each with its own connection:
//
//   - outcomes: the outcome of each recipient as soon as all its parts have
//     one, and the end of each claim, one transaction every recordEvery, or up
//     to recordMaxGap while the transactions carry fewer than recordTarget
//     recipients (a paced bind, one gateway of several: outcomeGap). It costs
//     the same whatever the number of handlers and keeps the recipients whose
//     outcome would be lost with the process (handed to the SMSC, not yet
//     recorded) to what is in flight plus recordTarget or a few tens of
//     milliseconds' worth, whichever is more;
//   - grants: the grants that let a handler hand further recipients of its
//     claim to the SMSC, as soon as one is asked for (requests that arrive
//     during a transaction go together in the next), and the renewal of the
//     claims in hand every renewEvery. A grant never waits behind a large
//     outcome transaction.
const (
	recordEvery    = 20 * time.Millisecond  // least gathering time of an outcome transaction
	recordMaxGap   = 100 * time.Millisecond // most gathering time of an outcome transaction
	recordTarget   = 128                    // recipients an outcome transaction gathers for, within those times
	grantGap       = 2 * time.Millisecond   // least time between grant transactions
	recordRetryMax = 5 * time.Second        // back-off cap of a failed transaction
	renewEvery     = 500 * time.Millisecond // claims in hand are renewed this often
	// recordDrain bounds the last transactions once the gateway stops.
	recordDrain = 15 * time.Second
)

var errRecorderClosed = errors.New("gateway: recorder stopped before the outcome was stored")

// claimAcc is one claimed chunk known to the recorder.
type claimAcc struct {
	id     int64
	sendID int64
	route  string // the operator whose SMSC issues the chunk's message ids
	// redisIDs is the id store (settings 'id_store', migrations/0199): true, the
	// chunk's message ids go to Redis (recorder.store); false, to message_ids as
	// the previous release reads them. Both modes write them on the recipient.
	redisIDs bool
	// closes, when set, is when the sending hours of the chunk's send close:
	// no grant is given from then on (sendrules).
	closes time.Time

	// Guarded by recorder.mu.
	sent, rejected int64
}

// outcome is one recipient's final submit outcome.
type outcome struct {
	claim    *claimAcc
	id       int64
	rejected bool   // every part refused: status 6 with errText
	errText  string // rejected only
	unknown  bool   // sent, at least one part without a known answer
	failed   int16  // sent, parts that failed or were never submitted
	// partStates is one byte per part (see partAccepted), sent recipients only.
	partStates string
	// msgIDs are the parts' message ids ("" for a part without one), sent
	// recipients only (recipients.msg_ids).
	msgIDs []string
}

// msgRow is one accepted part's message id, recorded as soon as it is known.
type msgRow struct {
	claim     *claimAcc
	recipient int64
	part      int16
	id        string
	at        time.Time // when the SMSC accepted it
}

type grantReq struct {
	claim  *claimAcc
	target int
	done   chan grantResult
}

type grantResult struct {
	handed int
	ok     bool // false: refused (send stopped or paused, or the claim was taken over)
	err    error
}

type finishReq struct {
	claim  *claimAcc
	revert []int64
	done   chan finishResult
}

type finishResult struct {
	sent, rejected int64
	err            error
}

// RecorderCounters are the recorder's cumulative figures in GET /status.
type RecorderCounters struct {
	Transactions      int64 `json:"transactions"`       // outcome transactions committed
	GrantTransactions int64 `json:"grant_transactions"` // grant and renewal transactions committed
	Failed            int64 `json:"failed"`             // transactions failed (retried)
	Recipients        int64 `json:"recipients"`         // outcomes recorded
	Grants            int64 `json:"grants"`             // grants asked for
	GrantWaits        int64 `json:"grant_waits"`        // times a handler had to wait for a grant
}

type recorder struct {
	pool  *pgxpool.Pool
	store *send.IDStore // the message ids of claims in redis mode (claimAcc.redisIDs)
	log   *slog.Logger
	now   func() time.Time // decides whether a claim's sending hours have closed

	nTxs, nGrantTxs, nFailed, nRecipients, nGrants, nGrantWaits atomic.Int64
	lastOuts                                                    atomic.Int64 // recipients of the last outcome transaction

	mu       sync.Mutex
	outs     []outcome
	ids      []msgRow
	finishes []*finishReq
	grants   []*grantReq
	active   map[int64]*claimAcc
	renewAt  time.Time
	closed   bool

	outWake   chan struct{}
	grantWake chan struct{}
	quit      chan struct{}
	wg        sync.WaitGroup
	once      sync.Once
}

func (r *recorder) snapshot() RecorderCounters {
	return RecorderCounters{Transactions: r.nTxs.Load(), GrantTransactions: r.nGrantTxs.Load(), Failed: r.nFailed.Load(),
		Recipients: r.nRecipients.Load(), Grants: r.nGrants.Load(), GrantWaits: r.nGrantWaits.Load()}
}

func newRecorder(pool *pgxpool.Pool, log *slog.Logger) *recorder {
	r := &recorder{
		pool:      pool,
		log:       log,
		now:       time.Now,
		active:    map[int64]*claimAcc{},
		outWake:   make(chan struct{}, 1),
		grantWake: make(chan struct{}, 1),
		quit:      make(chan struct{}),
	}
	r.wg.Add(2)
	go r.outcomeLoop()
	go r.grantLoop()
	return r
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// open registers a claimed chunk.
func (r *recorder) open(id, sendID int64, route string, closes time.Time, redisIDs bool) *claimAcc {
	c := &claimAcc{id: id, sendID: sendID, route: route, closes: closes, redisIDs: redisIDs && r.store != nil}
	r.mu.Lock()
	r.active[id] = c
	r.mu.Unlock()
	return c
}

// abandon stops renewing a claim its handler left without finishing it: once
// the sweeper's grace has passed, it settles the claim as a dead gateway's.
func (r *recorder) abandon(c *claimAcc) {
	r.mu.Lock()
	delete(r.active, c.id)
	r.mu.Unlock()
}

// add queues a recipient's outcome, and id (when not nil) the message id of
// the part that settled it.
func (r *recorder) add(o outcome, id *msgRow) {
	r.enqueue(r.outWake, func() {
		r.outs = append(r.outs, o)
		if id != nil {
			r.ids = append(r.ids, *id)
		}
	})
}

// accepted queues an accepted part's message id.
func (r *recorder) accepted(m msgRow) {
	r.enqueue(r.outWake, func() { r.ids = append(r.ids, m) })
}

// grant asks that the claim's first target recipients may be handed to the
// SMSC. The answer comes once that is durable.
func (r *recorder) grant(c *claimAcc, target int) <-chan grantResult {
	g := &grantReq{claim: c, target: target, done: make(chan grantResult, 1)}
	if !r.enqueue(r.grantWake, func() { r.grants = append(r.grants, g) }) {
		g.done <- grantResult{err: errRecorderClosed}
	}
	r.nGrants.Add(1)
	return g.done
}

// waited counts a handler that ran out of grant.
func (r *recorder) waited() { r.nGrantWaits.Add(1) }

// finish ends a claim once its outcomes queued so far are stored: revert are
// its recipients never handed to the SMSC (back to queued), and the claim row
// goes. The answer carries what the claim's recording counted.
func (r *recorder) finish(c *claimAcc, revert []int64) <-chan finishResult {
	f := &finishReq{claim: c, revert: revert, done: make(chan finishResult, 1)}
	if !r.enqueue(r.outWake, func() { r.finishes = append(r.finishes, f) }) {
		f.done <- finishResult{err: errRecorderClosed}
	}
	return f.done
}

// enqueue runs push under the lock and wakes the lane, unless the recorder is
// closed.
func (r *recorder) enqueue(wake chan struct{}, push func()) bool {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	push()
	r.mu.Unlock()
	signal(wake)
	return true
}

// close stores the pending outcomes (bounded by recordDrain) and stops both
// lanes; requests left unanswered get errRecorderClosed.
func (r *recorder) close() {
	r.once.Do(func() { close(r.quit) })
	r.wg.Wait()
	r.mu.Lock()
	r.closed = true
	grants, finishes := r.grants, r.finishes
	lost, lostIDs := len(r.outs), len(r.ids)
	r.grants, r.finishes, r.outs, r.ids = nil, nil, nil, nil
	r.mu.Unlock()
	for _, g := range grants {
		g.done <- grantResult{err: errRecorderClosed}
	}
	for _, f := range finishes {
		f.done <- finishResult{err: errRecorderClosed}
	}
	if lost+lostIDs > 0 {
		r.log.Error("gateway: outcomes not stored at shutdown; the sweeper settles their claims", "recipients", lost,
			"message_ids", lostIDs)
	}
}

func (r *recorder) outcomesPending() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.outs)+len(r.ids)+len(r.finishes) > 0
}

// outcomeLoop writes the outcomes and claim ends every recordEvery; once the
// recorder stops it stores what is left.
func (r *recorder) outcomeLoop() {
	defer r.wg.Done()
	gap := recordEvery
	r.lane("recording", r.outWake, nil, func() time.Duration {
		gap = outcomeGap(gap, int(r.lastOuts.Load()))
		return gap
	}, r.flushOutcomes)
	r.drain()
}

// grantLoop writes the grants as they are asked for and renews the claims in
// hand.
func (r *recorder) grantLoop() {
	defer r.wg.Done()
	renew := time.NewTicker(renewEvery)
	defer renew.Stop()
	r.lane("granting", r.grantWake, renew.C, func() time.Duration { return grantGap }, r.flushGrants)
}

// outcomeGap is the gathering time of the next outcome transaction, given the
// last one's and the recipients it carried: long enough for recordTarget at
// the rate they came (the commits of a slow bind, or of one gateway among
// several, cost as few as a fast one's), between recordEvery and recordMaxGap.
func outcomeGap(last time.Duration, n int) time.Duration {
	if n <= 0 {
		return last
	}
	return min(max(last*recordTarget/time.Duration(n), recordEvery), recordMaxGap)
}

// lane runs flush when woken (or ticked), at most once per gap, retrying a
// failed flush with a capped back-off, until the recorder stops.
func (r *recorder) lane(what string, wake chan struct{}, tick <-chan time.Time, gap func() time.Duration,
	flush func(context.Context) error) {
	var last time.Time
	delay := 200 * time.Millisecond
	sleep := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-r.quit:
			return false
		}
	}
	for {
		select {
		case <-wake:
		case <-tick:
		case <-r.quit:
			return
		}
		if d := time.Until(last.Add(gap())); d > 0 && !sleep(d) {
			return
		}
		last = time.Now()
		if err := flush(context.Background()); err != nil {
			r.log.Warn("gateway: "+what+" failed, retrying", "err", err, "retry_in", delay)
			if !sleep(delay) {
				return
			}
			delay = min(2*delay, recordRetryMax)
			signal(wake)
			continue
		}
		delay = 200 * time.Millisecond
	}
}

// drain stores the pending outcomes, retrying until recordDrain has passed.
func (r *recorder) drain() {
	deadline := time.Now().Add(recordDrain)
	for r.outcomesPending() && time.Now().Before(deadline) {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		err := r.flushOutcomes(ctx)
		cancel()
		if err != nil {
			r.log.Warn("gateway: recording failed while stopping", "err", err)
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// refuseClosed answers the grants of claims whose sending hours have closed
// (refused, without a transaction: the handler stops and its next round
// pauses the send) and returns the others.
func (r *recorder) refuseClosed(grants []*grantReq) []*grantReq {
	now := r.now()
	out := grants[:0]
	for _, g := range grants {
		if c := g.claim.closes; !c.IsZero() && !now.Before(c) {
			g.done <- grantResult{}
			continue
		}
		out = append(out, g)
	}
	return out
}
