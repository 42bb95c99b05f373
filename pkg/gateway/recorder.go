package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
	pool *pgxpool.Pool
	log  *slog.Logger
	now  func() time.Time // decides whether a claim's sending hours have closed

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
func (r *recorder) open(id, sendID int64, route string, closes time.Time) *claimAcc {
	c := &claimAcc{id: id, sendID: sendID, route: route, closes: closes}
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

// flushGrants raises the grants asked for and, when due, renews the claims in
// hand, in one transaction. On failure the requests stay pending.
func (r *recorder) flushGrants(ctx context.Context) error {
	r.mu.Lock()
	grants := r.grants
	r.grants = nil
	var renewIDs []int64
	if len(r.active) > 0 && !time.Now().Before(r.renewAt) {
		renewIDs = make([]int64, 0, len(r.active))
		for id := range r.active {
			renewIDs = append(renewIDs, id)
		}
		slices.Sort(renewIDs)
	}
	r.mu.Unlock()
	grants = r.refuseClosed(grants)
	if len(grants)+len(renewIDs) == 0 {
		return nil
	}
	ids := make([]int64, len(grants))
	targets := make([]int32, len(grants))
	for i, g := range grants {
		ids[i], targets[i] = g.claim.id, int32(g.target)
	}
	var granted map[int64]int
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		var err error
		if granted, err = grantClaims(ctx, tx, ids, targets); err != nil {
			return err
		}
		if len(renewIDs) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE recipient_claims SET renewed_at = now() WHERE id = ANY($1::bigint[])`,
				renewIDs); err != nil {
				return fmt.Errorf("renew claims: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		r.mu.Lock()
		r.grants = append(grants, r.grants...)
		r.mu.Unlock()
		r.nFailed.Add(1)
		return fmt.Errorf("grant: %w", err)
	}
	r.nGrantTxs.Add(1)
	if len(renewIDs) > 0 {
		r.mu.Lock()
		r.renewAt = time.Now().Add(renewEvery)
		r.mu.Unlock()
	}
	for _, g := range grants {
		h, ok := granted[g.claim.id]
		g.done <- grantResult{handed: h, ok: ok}
	}
	return nil
}

// batchRows are one group transaction's column arrays.
type batchRows struct {
	// message_ids rows.
	msgOps, msgIDs []string
	msgRecips      []int64
	msgSends       []int64
	msgParts       []int16
	msgAt          []time.Time
	// recipients: k indexes the claims slice.
	ids       []int64
	rejected  []bool
	unknown   []bool
	failed    []int16
	states    []string
	errs      []string
	k         []int32
	claims    []*claimAcc
	revert    []int64
	finishIDs []int64
}

// flushOutcomes runs one outcome transaction over everything pending. On
// failure the requests stay pending (a retry is harmless: only rows still
// claimed change).
func (r *recorder) flushOutcomes(ctx context.Context) error {
	r.mu.Lock()
	outs, ids, finishes := r.outs, r.ids, r.finishes
	r.outs, r.ids, r.finishes = nil, nil, nil
	r.mu.Unlock()
	if len(outs)+len(ids)+len(finishes) == 0 {
		return nil
	}
	b := buildRows(outs, ids, finishes)
	counts := make([][3]int64, len(b.claims)) // per claim: sent, rejected, partial
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		clear(counts)
		if err := copyMessageIDs(ctx, tx, &b); err != nil {
			return err
		}
		if err := markRecipients(ctx, tx, &b, counts); err != nil {
			return err
		}
		if len(b.revert) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE recipients SET status = $2, updated_at = now()
				WHERE id = ANY($1::bigint[]) AND status = $3`, b.revert, recipientQueued, recipientSubmitting); err != nil {
				return fmt.Errorf("return unsent recipients to the queue: %w", err)
			}
		}
		if err := countSends(ctx, tx, &b, counts); err != nil {
			return err
		}
		if len(b.finishIDs) > 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM recipient_claims WHERE id = ANY($1::bigint[])`, b.finishIDs); err != nil {
				return fmt.Errorf("end claims: %w", err)
			}
		}
		return nil
	})
	r.mu.Lock()
	if err != nil {
		// Back in front of what arrived meanwhile, in the same order.
		r.outs = append(outs, r.outs...)
		r.ids = append(ids, r.ids...)
		r.finishes = append(finishes, r.finishes...)
		r.mu.Unlock()
		r.nFailed.Add(1)
		return fmt.Errorf("record: %w", err)
	}
	for i, c := range b.claims {
		c.sent += counts[i][0]
		c.rejected += counts[i][1]
	}
	for _, f := range finishes {
		delete(r.active, f.claim.id)
	}
	r.mu.Unlock()
	r.nTxs.Add(1)
	r.nRecipients.Add(int64(len(outs)))
	r.lastOuts.Store(int64(len(outs)))
	for _, f := range finishes {
		f.done <- finishResult{sent: f.claim.sent, rejected: f.claim.rejected}
	}
	return nil
}

func buildRows(outs []outcome, ids []msgRow, finishes []*finishReq) batchRows {
	var b batchRows
	idx := map[*claimAcc]int32{}
	for _, o := range outs {
		k, ok := idx[o.claim]
		if !ok {
			k = int32(len(b.claims))
			idx[o.claim] = k
			b.claims = append(b.claims, o.claim)
		}
		b.ids = append(b.ids, o.id)
		b.rejected = append(b.rejected, o.rejected)
		b.unknown = append(b.unknown, o.unknown)
		b.failed = append(b.failed, o.failed)
		b.states = append(b.states, o.partStates)
		b.errs = append(b.errs, o.errText)
		b.k = append(b.k, k)
	}
	for _, m := range ids {
		b.msgOps = append(b.msgOps, m.claim.route)
		b.msgIDs = append(b.msgIDs, m.id)
		b.msgRecips = append(b.msgRecips, m.recipient)
		b.msgSends = append(b.msgSends, m.claim.sendID)
		b.msgParts = append(b.msgParts, m.part)
		b.msgAt = append(b.msgAt, m.at)
	}
	for _, f := range finishes {
		b.revert = append(b.revert, f.revert...)
		b.finishIDs = append(b.finishIDs, f.claim.id)
	}
	return b
}

// markRecipients records the outcomes: sent (0) with submitted_at, unknown,
// parts_failed, parts_rejected and part_states, or rejected (6) with the
// error. Only rows still claimed (7) change, so a repeated transaction, or a
// claim the sweeper took over, counts nothing twice. counts gets each claim's
// sent, rejected and partial (sent with a part not accepted).
func markRecipients(ctx context.Context, tx pgx.Tx, b *batchRows, counts [][3]int64) error {
	if len(b.ids) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `
		UPDATE recipients r SET
			status = CASE WHEN u.rejected THEN $7::smallint ELSE $8::smallint END,
			submitted_at = CASE WHEN u.rejected THEN r.submitted_at ELSE now() END,
			unknown = u.unknown,
			parts_failed = u.failed,
			parts_rejected = CASE WHEN u.rejected THEN 0 ELSE u.failed END,
			part_states = u.states,
			error = CASE WHEN u.rejected THEN u.error ELSE r.error END,
			updated_at = now()
		FROM unnest($1::bigint[], $2::bool[], $3::bool[], $4::smallint[], $5::text[], $6::int[], $10::text[])
			AS u(id, rejected, unknown, failed, error, k, states)
		WHERE r.id = u.id AND r.status = $9
		RETURNING u.k, u.rejected, NOT u.rejected AND (u.unknown OR u.failed > 0)`,
		b.ids, b.rejected, b.unknown, b.failed, b.errs, b.k, recipientRejected, recipientSent, recipientSubmitting, b.states)
	if err != nil {
		return fmt.Errorf("mark recipients: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k int32
		var rej, partial bool
		if err := rows.Scan(&k, &rej, &partial); err != nil {
			return fmt.Errorf("mark recipients: %w", err)
		}
		if rej {
			counts[k][1]++
		} else {
			counts[k][0]++
		}
		if partial {
			counts[k][2]++
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("mark recipients: %w", err)
	}
	return nil
}

// countSends adds the recorded recipients to their sends' counters (as deltas
// that a worker folds in: send.AddCounts) and moves queued sends to sending; a
// send's row is locked only by that first move.
func countSends(ctx context.Context, tx pgx.Tx, b *batchRows, counts [][3]int64) error {
	per := map[int64][3]int64{}
	for i, c := range b.claims {
		if counts[i] == ([3]int64{}) {
			continue
		}
		v := per[c.sendID]
		per[c.sendID] = [3]int64{v[0] + counts[i][0], v[1] + counts[i][1], v[2] + counts[i][2]}
	}
	if len(per) == 0 {
		return nil
	}
	ids := slices.Sorted(maps.Keys(per))
	deltas := make([]send.Counts, len(ids))
	for i, id := range ids {
		deltas[i] = send.Counts{Submitted: int32(per[id][0]), Rejected: int32(per[id][1]), Partial: int32(per[id][2])}
	}
	if _, err := tx.Exec(ctx, `UPDATE sends SET status = 'sending', updated_at = now()
		WHERE id = ANY($1::bigint[]) AND status = 'queued'`, ids); err != nil {
		return fmt.Errorf("count recorded recipients: %w", err)
	}
	return send.AddCounts(ctx, tx, ids, deltas)
}

// grantable is the condition on a send s (and its account) for a claim of it to be
// granted recipients: neither the send stopped, failed or paused nor its account
// suspended.
const grantable = `s.status NOT IN ('stopped', 'failed', 'paused')
	AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = s.account_id AND a.status = 'suspended')`

// grantClaims raises the hand-over limit of the claims asked for, unless
// their send is stopped, failed or paused, its account suspended, or the claim is gone (the sweeper
// took it over from a gateway it thought dead). It returns the new limit of
// every claim granted.
func grantClaims(ctx context.Context, tx pgx.Tx, ids []int64, targets []int32) (map[int64]int, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `
		UPDATE recipient_claims c SET handed = greatest(c.handed, u.target), renewed_at = now()
		FROM unnest($1::bigint[], $2::int[]) AS u(id, target), sends s
		WHERE c.id = u.id AND s.id = c.send_id AND `+grantable+`
		RETURNING c.id, c.handed`, ids, targets)
	if err != nil {
		return nil, fmt.Errorf("grant claims: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]int, len(ids))
	for rows.Next() {
		var id int64
		var h int
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("grant claims: %w", err)
		}
		out[id] = h
	}
	return out, rows.Err()
}

// copyMessageIDs loads the message ids with COPY. An SMSC may reuse an id (a
// wrapped counter, a restarted simulator): COPY then fails on the primary
// key, and the rows are upserted instead, the new message taking the id over,
// inside a savepoint so the transaction goes on.
func copyMessageIDs(ctx context.Context, tx pgx.Tx, b *batchRows) error {
	if len(b.msgIDs) == 0 {
		return nil
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	_, err = sp.CopyFrom(ctx, pgx.Identifier{"message_ids"},
		[]string{"operator", "msg_id", "recipient_id", "send_id", "part", "created_at"},
		pgx.CopyFromSlice(len(b.msgIDs), func(i int) ([]any, error) {
			return []any{b.msgOps[i], b.msgIDs[i], b.msgRecips[i], b.msgSends[i], b.msgParts[i], b.msgAt[i]}, nil
		}))
	if err == nil {
		if err := sp.Commit(ctx); err != nil {
			return fmt.Errorf("release savepoint: %w", err)
		}
		return nil
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		_ = sp.Rollback(ctx)
		return fmt.Errorf("copy message ids: %w", err)
	}
	if err := sp.Rollback(ctx); err != nil {
		return fmt.Errorf("roll back to savepoint: %w", err)
	}
	ops, ids, recips, sends, parts, at := dedupeMessageIDs(b)
	if _, err := tx.Exec(ctx, `
		INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::smallint[], $6::timestamptz[])
		ON CONFLICT (operator, msg_id) DO UPDATE
		SET recipient_id = EXCLUDED.recipient_id, send_id = EXCLUDED.send_id, part = EXCLUDED.part,
		    stat = NULL, created_at = EXCLUDED.created_at`,
		ops, ids, recips, sends, parts, at); err != nil {
		return fmt.Errorf("upsert message ids: %w", err)
	}
	return nil
}

// dedupeMessageIDs keeps the last row of every (operator, id): ON CONFLICT
// may touch a row only once per statement.
func dedupeMessageIDs(b *batchRows) (ops, ids []string, recips, sends []int64, parts []int16, at []time.Time) {
	type key struct{ op, id string }
	last := make(map[key]int, len(b.msgIDs))
	for i := range b.msgIDs {
		last[key{b.msgOps[i], b.msgIDs[i]}] = i
	}
	for i := range b.msgIDs {
		if last[key{b.msgOps[i], b.msgIDs[i]}] == i {
			ops, ids = append(ops, b.msgOps[i]), append(ids, b.msgIDs[i])
			recips, sends = append(recips, b.msgRecips[i]), append(sends, b.msgSends[i])
			parts, at = append(parts, b.msgParts[i]), append(at, b.msgAt[i])
		}
	}
	return ops, ids, recips, sends, parts, at
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
