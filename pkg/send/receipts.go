package send

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/webhook"
)

// Receipt states as the gateway reports them.
const (
	StatEnroute     = 1 // accepted or en route: reached the telecom, not final
	StatDelivered   = 2
	StatUndelivered = 3 // undeliverable, expired, rejected or deleted: final
)

// Receipt is one carrier delivery receipt for one submitted part.
type Receipt struct {
	Operator string
	MsgID    string   // normalised
	AltIDs   []string // other normalisations of the same id
	Stat     int16
	// State is the carrier's state text of a final receipt (EXPIRED, UNDELIV
	// err:001 …): a failed part records it as its recipient's error.
	State  string
	Mobile string // the handset (the receipt's source_addr)
	// Err is the carrier's error code (the receipt text's "err:"); one of the
	// blocked codes (BlockedCodes) means the subscriber blocks advertising SMS.
	Err string
	// ReceivedAt is when the gateway received it; zero means now.
	ReceivedAt time.Time
}

// DefaultIDRetention is how long a message id may match a receipt: SMSCs reuse
// ids (a restart, a wrapped counter), so an id older than this is expired.
// It outlives the wait for a receipt (SweepConfig.NoReceipt, 48 h).
const DefaultIDRetention = 72 * time.Hour

// receiptSlack is the clock slack of the submit-time check: a receipt received
// more than this before its part was accepted belongs to an older message
// with the same id.
const receiptSlack = 2 * time.Minute

// recordedOf is the recorded part that the key (r.operator, r.msg_id) of receipt r
// names, as a subquery for a LATERAL join (at most one row): the one the id store
// found (r.rid, r.part, accepted at r.acc), else the key's message_ids row (a
// gateway in table mode, or a part reconciled by its receipt), else the newest
// recipient on the receipt's handset whose msg_ids hold the id, dated by its
// submit (the key's entry in Redis was lost: recipients_mobile_idx). A branch runs
// only when the ones before it found nothing. Each branch is a probe by key, a plan
// PostgreSQL keeps whatever the tables' statistics say: a plain join leaves the
// choice to the planner, and a receipt path's connection that prepared it while
// message_ids was nearly empty (a new install) kept hashing the whole table at
// every batch once it held a million ids.
func recordedOf(r, ret string) string {
	return `SELECT ` + r + `.rid AS recipient_id, ` + r + `.part, ` + r + `.acc AS created_at, NULL::smallint AS stat
		WHERE ` + r + `.rid > 0
	UNION ALL (SELECT m.recipient_id, m.part, m.created_at, m.stat FROM message_ids m
		WHERE ` + r + `.rid = 0 AND m.operator = ` + r + `.operator AND m.msg_id = ` + r + `.msg_id LIMIT 1)
	UNION ALL (SELECT y.id, k.part::smallint, y.submitted_at, NULL FROM recipients y
		CROSS JOIN LATERAL unnest(y.msg_ids) WITH ORDINALITY AS k(id, part)
		WHERE ` + r + `.rid = 0 AND length(` + r + `.mobile) >= 10 AND y.mobile = '98' || right(` + r + `.mobile, 10)
			AND k.id = ` + r + `.msg_id AND y.submitted_at > now() - ` + ret + `::interval
		ORDER BY y.submitted_at DESC LIMIT 1)
	LIMIT 1`
}

// recordedPred is the condition for a recorded part m (of recipient x), found by
// the key of receipt r (recordedOf), to be the message of r (mobile, received_at): the
// id is within the retention window (the interval parameter ret), the receipt
// did not come before the part was accepted (its submit time, within
// receiptSlack), and it comes from the recipient's handset (compared on the
// national ten digits: carriers write source_addr in several forms).
func recordedPred(r, ret string) string {
	return `m.created_at > now() - ` + ret + `::interval
	AND m.created_at <= ` + r + `.received_at + interval '` + fmt.Sprint(int(receiptSlack.Seconds())) + ` seconds'
	AND (` + r + `.mobile = '' OR right(x.mobile, 10) = right(` + r + `.mobile, 10))`
}

// Applied counts what a receipt batch changed.
type Applied struct {
	Matched   int
	Pending   int
	Delivered int
	Failed    int
	// Waited is, for each final receipt applied to a part still open, the time
	// from the part's acceptance (its submit_sm_resp) to
	// the receipt's arrival at the gateway.
	Waited []time.Duration
	// moves are the balances refunds of blocked recipients moved (blocked.go).
	moves []moneyMove
}

// tell announces the balances the batch moved, after its commit.
func (s *Service) tell(ctx context.Context, a Applied) {
	for _, mv := range a.moves {
		s.moneyChanged(ctx, mv.accountID, mv.balance)
	}
}

// ApplyReceipts applies a batch of receipts in one transaction: each part's state is
// set once (a repeated receipt changes nothing), parts roll up to their recipient
// (reached handset when every part was delivered, not reached when any part
// failed), the send counters move, and receipts whose message id is not recorded yet
// wait in pending_receipts.
func (s *Service) ApplyReceipts(ctx context.Context, rs []Receipt) (Applied, error) {
	var out Applied
	if len(rs) == 0 {
		return out, nil
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		out, err = s.applyReceipts(ctx, tx, rs)
		return err
	})
	if err == nil {
		s.tell(ctx, out)
	}
	return out, err
}

// idRetention is the message id retention window.
func (s *Service) idRetention() time.Duration {
	if s.IDRetention > 0 {
		return s.IDRetention
	}
	return DefaultIDRetention
}

// ExpireMessageIDs deletes up to limit message ids older than the retention
// window and returns how many went. Expired ids no longer match (see
// recordedPred); this only keeps the table small.
func (s *Service) ExpireMessageIDs(ctx context.Context, limit int) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM message_ids WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM message_ids WHERE created_at < now() - $1::interval LIMIT $2))`, s.idRetention(), limit)
	if err != nil {
		return 0, fmt.Errorf("expire message ids: %w", err)
	}
	return tag.RowsAffected(), nil
}

// pendingBatch is how many pending receipts a pass of RetryPending looks at.
var pendingBatch = 20000

// RetryPending matches receipts that overtook their submit response (or
// whose recipient was still being recorded), and assigns receipts to the
// unknown parts of recipients (a lost submit_sm_resp: matched by handset).
// Each pending receipt is looked up by its keys, as on arrival; those applied
// leave pending_receipts.
func (s *Service) RetryPending(ctx context.Context) (Applied, error) {
	var out Applied
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// One worker at a time: with several, each pass would do the same work
		// and wait on the others' rows.
		var mine bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtext('pending_receipts'))`).Scan(&mine); err != nil || !mine {
			return err
		}
		rs, err := s.pending.load(ctx, tx)
		if err != nil || len(rs) == 0 {
			return err
		}
		m, err := s.match(ctx, tx, rs)
		if err != nil {
			return err
		}
		n, err := s.reconcile(ctx, tx, rs, m)
		if err != nil {
			return err
		}
		if n > 0 { // the parts given an id match now
			if m, err = s.match(ctx, tx, rs); err != nil {
				return err
			}
		}
		// Taken: matched to a part still open of a recipient recorded. One matched
		// only to final parts may be for a newer submit that reused the id, and waits
		// for it (or for its expiry, SweepConfig.NoReceipt).
		take, tm := m.subset(rs, func(g int) bool { return m.key[g] != "" && !m.wait[g] && !m.final[g] })
		if len(take) == 0 {
			return nil
		}
		if out, err = s.settle(ctx, tx, take, tm); err != nil {
			return err
		}
		out.Matched = len(take)
		return dropPending(ctx, tx, take)
	})
	if err == nil {
		s.tell(ctx, out)
	}
	return out, err
}

// pendingCursor walks pending_receipts in key order, pendingBatch at a time,
// from where the last pass stopped: receipts that never match (ids of another
// system, a foreign bind) wait until the sweeper drops them after
// SweepConfig.NoReceipt, and must not keep the ones after them from being looked at.
type pendingCursor struct {
	mu     sync.Mutex
	op, id string // the last key loaded; "" from the start
}

// load reads the next pending receipts, by the primary key: index entries of rows
// found dead are marked so and skipped by the next look, where a scan of the table
// reads them all.
func (c *pendingCursor) load(ctx context.Context, tx pgx.Tx) ([]Receipt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rows, err := tx.Query(ctx, `SELECT operator, msg_id, alt_ids, stat, state, mobile, received_at, err
		FROM pending_receipts WHERE (operator, msg_id) > ($1, $2) ORDER BY operator, msg_id LIMIT $3`, c.op, c.id, pendingBatch)
	if err != nil {
		return nil, fmt.Errorf("pending receipts: %w", err)
	}
	rs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Receipt, error) {
		var x Receipt
		err := r.Scan(&x.Operator, &x.MsgID, &x.AltIDs, &x.Stat, &x.State, &x.Mobile, &x.ReceivedAt, &x.Err)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("pending receipts: %w", err)
	}
	c.op, c.id = "", "" // the end: the next pass starts again
	if len(rs) == pendingBatch {
		c.op, c.id = rs[len(rs)-1].Operator, rs[len(rs)-1].MsgID
	}
	return rs, nil
}

// dropPending deletes the pending receipts rs (applied).
func dropPending(ctx context.Context, tx pgx.Tx, rs []Receipt) error {
	ops, ids := make([]string, len(rs)), make([]string, len(rs))
	for i, r := range rs {
		ops[i], ids[i] = r.Operator, r.MsgID
	}
	if _, err := tx.Exec(ctx, `DELETE FROM pending_receipts p USING unnest($1::text[], $2::text[]) AS d(operator, msg_id)
		WHERE p.operator = d.operator AND p.msg_id = d.msg_id`, ops, ids); err != nil {
		return fmt.Errorf("take pending receipts: %w", err)
	}
	return nil
}

// reconcile offers the pending receipts that matched no recorded id to the unknown
// parts of recipients on their handset (reconcileUnknown), when any recipient has
// unknown parts; it returns how many parts were given an id. Most passes find none:
// planning that match over every partition of recipients costs milliseconds.
func (s *Service) reconcile(ctx context.Context, tx pgx.Tx, rs []Receipt, m receiptMatch) (int, error) {
	var ops, ids []string
	for g, r := range rs {
		if m.key[g] == "" {
			ops, ids = append(ops, r.Operator), append(ids, r.MsgID)
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	var unknown bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM recipients WHERE unknown AND status IN (0, 1))`).
		Scan(&unknown); err != nil || !unknown {
		return 0, err
	}
	return reconcileUnknown(ctx, tx, ops, ids)
}

// applyReceipts applies receipts inside tx; those with no usable recorded id wait
// in pending_receipts (the submit response may not be recorded yet, or its
// recipient is still being recorded).
func (s *Service) applyReceipts(ctx context.Context, tx pgx.Tx, rs []Receipt) (Applied, error) {
	now := time.Now()
	for i := range rs {
		if rs[i].ReceivedAt.IsZero() {
			rs[i].ReceivedAt = now
		}
	}
	m, err := s.match(ctx, tx, rs)
	if err != nil {
		return Applied{}, err
	}
	out, err := s.settle(ctx, tx, rs, m)
	if err != nil {
		return out, err
	}
	var pOps, pIDs, pAlts, pMobiles, pStates, pErrs []string
	var pStats []int16
	var pAt []time.Time
	for g, r := range rs {
		if (m.key[g] == "" || m.wait[g]) && r.MsgID != "" && (r.Stat == StatDelivered || r.Stat == StatUndelivered) {
			pOps, pIDs, pStats, pMobiles = append(pOps, r.Operator), append(pIDs, r.MsgID), append(pStats, r.Stat), append(pMobiles, r.Mobile)
			pAt, pAlts = append(pAt, r.ReceivedAt), append(pAlts, strings.Join(r.AltIDs, ","))
			pStates, pErrs = append(pStates, r.State), append(pErrs, r.Err)
		}
	}
	if len(pIDs) == 0 {
		out.Matched = len(rs)
		return out, nil
	}
	tag, err := tx.Exec(ctx, `INSERT INTO pending_receipts (operator, msg_id, alt_ids, stat, state, mobile, received_at, err)
		SELECT DISTINCT ON (r.operator, r.msg_id) r.operator, r.msg_id, coalesce(string_to_array(nullif(r.alt, ''), ','), '{}'),
			r.stat, r.state, r.mobile, r.received_at, r.err
		FROM unnest($1::text[], $2::text[], $3::smallint[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
			AS r(operator, msg_id, stat, mobile, received_at, alt, state, err)
		ORDER BY r.operator, r.msg_id
		ON CONFLICT DO NOTHING`, pOps, pIDs, pStats, pMobiles, pAt, pAlts, pStates, pErrs)
	if err != nil {
		return out, fmt.Errorf("pending receipts: %w", err)
	}
	out.Pending = int(tag.RowsAffected())
	out.Matched = len(rs) - out.Pending
	return out, nil
}

// match matches a batch of receipts (receiptMatch.lookup): by their own id first,
// then (for those without) by the other normalisations of it. This is read first,
// in its own statements: an id the gateway records after it only sends its receipt
// to pending_receipts (retried), while one read here is seen by the update after
// it. Deciding it later would let a just-recorded id count as matched without being
// applied. A match whose recipient is still being recorded waits too, and so does
// a receipt whose id matches only parts that already have their final state while
// its handset has a message being submitted: the SMSC reused the id (a restart of
// its counter) for that newer submit, whose response is not recorded yet, and the
// receipt is that one's (waitForSubmitting).
func (s *Service) match(ctx context.Context, tx pgx.Tx, rs []Receipt) (receiptMatch, error) {
	m := newReceiptMatch(len(rs))
	ret := s.idRetention()
	if err := m.lookup(ctx, tx, s.ids, rs, ret, false); err != nil {
		return m, err
	}
	if err := m.lookup(ctx, tx, s.ids, rs, ret, true); err != nil {
		return m, err
	}
	return m, m.waitForSubmitting(ctx, tx, rs)
}

// settle applies the receipts that matched a recorded part (not waiting), and
// marks the numbers their carriers say block advertising (blocked.go).
func (s *Service) settle(ctx context.Context, tx pgx.Tx, rs []Receipt, m receiptMatch) (Applied, error) {
	var out Applied
	var mr matchedRows
	enroute := false
	for g, r := range rs {
		if m.key[g] == "" || m.wait[g] {
			continue
		}
		if !m.final[g] && r.Stat != StatEnroute {
			// A receipt that overtook its submit_sm_resp waited nothing.
			out.Waited = append(out.Waited, max(r.ReceivedAt.Sub(m.at[g]), 0))
		}
		if m.final[g] {
			continue // a repeat: its part has its final state
		}
		mr.rids, mr.parts = append(mr.rids, m.rid[g]), append(mr.parts, m.part[g])
		mr.stats, mr.states = append(mr.stats, r.Stat), append(mr.states, r.State)
		enroute = enroute || r.Stat == StatEnroute
	}
	if err := applyMatched(ctx, tx, mr, enroute, &out); err != nil {
		return out, err
	}
	return out, applyBlocked(ctx, tx, rs, m, s.blockedCodes, &out)
}

// matchedRows are the receipts to apply: the recipient and part each matched,
// its state and the carrier's state text.
type matchedRows struct {
	rids   []int64
	parts  []int16
	stats  []int16
	states []string
}

// partOpen is the SQL condition that part (an SQL smallint) of recipient x has no
// final receipt yet: its part_states byte is not 'd' or 'f' (migrations/0197).
func partOpen(x, part string) string {
	return `substr(` + x + `.part_states, ` + part + `, 1) NOT IN ('d', 'f')`
}

// okOpen and badOpen count the parts of a recipient x that a receipt batch (agg)
// delivers and fails and that are still open on the row the update locks, and
// newStates is x's part states with them final (migrations/0197). A one-part
// recipient (most) is answered inline: a call of an SQL function costs about 3 µs.
var (
	okOpen    = openCount("agg.dparts")
	badOpen   = openCount("agg.fparts")
	newStates = `(CASE WHEN x.parts = 1 THEN CASE WHEN x.part_states IN ('d', 'f') THEN x.part_states
		WHEN 1 = ANY(agg.dparts) THEN 'd' WHEN 1 = ANY(agg.fparts) THEN 'f' ELSE x.part_states END
		ELSE part_states_receipt(` + curStates + `, agg.dparts, agg.fparts) END)`
)

// curStates is x's part states; a recipient recorded without them (its gateway
// died before the outcome) counts each part accepted, or unknown when it is.
const curStates = `(CASE WHEN x.part_states <> '' THEN x.part_states
	WHEN x.unknown THEN repeat('?', x.parts) ELSE repeat('a', x.parts) END)`

// openCount is the SQL count of the parts of the smallint[] parts still open on x.
func openCount(parts string) string {
	return `(CASE WHEN x.parts = 1 THEN (x.part_states NOT IN ('d', 'f') AND 1 = ANY(` + parts + `))::int
		ELSE part_states_open(` + curStates + `, ` + parts + `) END)`
}

// applyMatched applies receipts whose message id is recorded, moving their sends'
// counters by deltas and adding the recipients delivered and failed to out. Each
// part's final state is set once, on its recipient's part_states ('d' or 'f'): the
// update counts only the parts still open on the row it locks, so two consumers
// applying one receipt at once count it once. A recipient is final once every
// part is: its unknown parts are reconciled by receipt first (RetryPending), so
// the flag is left as it is.
func applyMatched(ctx context.Context, tx pgx.Tx, mr matchedRows, enroute bool, out *Applied) error {
	if len(mr.rids) == 0 {
		return nil
	}
	// 1. Mark parts (final states once), and move en-route recipients to "reached telecom".
	rows, err := tx.Query(ctx, `WITH parts AS (
			SELECT DISTINCT ON (rid, part) rid AS recipient_id, part, stat, state
			FROM unnest($1::bigint[], $2::smallint[], $3::smallint[], $4::text[]) AS r(rid, part, stat, state)
			WHERE stat IN (2, 3)
			ORDER BY rid, part, stat DESC),
		agg AS (
			SELECT recipient_id, max(state) FILTER (WHERE stat = 3 AND state <> '') AS why,
				coalesce(array_agg(part) FILTER (WHERE stat = 2), '{}') AS dparts,
				coalesce(array_agg(part) FILTER (WHERE stat = 3), '{}') AS fparts
			FROM parts GROUP BY recipient_id),
		upd AS (
			UPDATE recipients x SET
				parts_delivered = x.parts_delivered + `+okOpen+`,
				parts_failed = x.parts_failed + `+badOpen+`,
				status = CASE
					WHEN x.parts_delivered + x.parts_failed + `+okOpen+` + `+badOpen+` >= x.parts
						THEN CASE WHEN x.parts_failed + `+badOpen+` > 0 THEN 3 ELSE 2 END
					ELSE 1 END,
				done_at = CASE WHEN x.parts_delivered + x.parts_failed + `+okOpen+` + `+badOpen+` >= x.parts THEN now() END,
				error = CASE WHEN x.error = '' AND agg.why IS NOT NULL AND `+badOpen+` > 0 THEN agg.why ELSE x.error END,
				part_states = `+newStates+`,
				updated_at = now()
			FROM agg WHERE x.id = agg.recipient_id AND x.status IN (0, 1) AND `+okOpen+` + `+badOpen+` > 0
			RETURNING x.id, x.send_id, x.mobile, x.status),
		hooks AS (`+webhook.ReceiptEventsCTE("upd")+`)
		SELECT send_id, count(*) FILTER (WHERE status = 2), count(*) FILTER (WHERE status = 3) FROM upd
		GROUP BY send_id ORDER BY send_id`,
		mr.rids, mr.parts, mr.stats, mr.states)
	if err != nil {
		return fmt.Errorf("apply receipts: %w", err)
	}
	var sendIDs []int64
	var dl, ud []int32
	for rows.Next() {
		var id int64
		var d, u int32
		if err := rows.Scan(&id, &d, &u); err != nil {
			rows.Close()
			return err
		}
		sendIDs, dl, ud = append(sendIDs, id), append(dl, d), append(ud, u)
		out.Delivered += int(d)
		out.Failed += int(u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("apply receipts: %w", err)
	}
	counts := make([]Counts, len(sendIDs))
	for i := range counts {
		counts[i] = Counts{Delivered: dl[i], Undelivered: ud[i]}
	}
	if err := AddCounts(ctx, tx, sendIDs, counts); err != nil {
		return err
	}
	// 2. En-route receipts: the recipient reached the telecom.
	if enroute {
		if _, err := tx.Exec(ctx, `UPDATE recipients x SET status = 1, updated_at = now()
			FROM unnest($1::bigint[], $2::smallint[]) AS r(rid, stat)
			WHERE r.stat = 1 AND x.id = r.rid AND x.status = 0`,
			mr.rids, mr.stats); err != nil {
			return fmt.Errorf("enroute receipts: %w", err)
		}
	}
	return nil
}

// partFinal is the SQL condition that the recorded part m of recipient x has its
// final receipt: on the recipient, or on the id (as an earlier release recorded it).
var partFinal = `(m.stat IS NOT NULL OR NOT ` + partOpen("x", "m.part") + `)`

// receiptMatch is, per receipt of a batch, the recorded id it matched, the
// recipient and part of that id, whether that recipient is still being recorded,
// whether the part already had its final state (no open part matched) and
// when the id was recorded.
type receiptMatch struct {
	key   []string
	rid   []int64
	part  []int16
	wait  []bool
	final []bool
	at    []time.Time
}

func newReceiptMatch(n int) receiptMatch {
	return receiptMatch{key: make([]string, n), rid: make([]int64, n), part: make([]int16, n),
		wait: make([]bool, n), final: make([]bool, n), at: make([]time.Time, n)}
}

// subset is the receipts of rs that keep says to keep, with their matches.
func (m receiptMatch) subset(rs []Receipt, keep func(g int) bool) ([]Receipt, receiptMatch) {
	var out []Receipt
	sub := newReceiptMatch(0)
	for g, r := range rs {
		if keep(g) {
			out = append(out, r)
			sub.key, sub.rid, sub.part = append(sub.key, m.key[g]), append(sub.rid, m.rid[g]), append(sub.part, m.part[g])
			sub.wait, sub.final, sub.at = append(sub.wait, m.wait[g]), append(sub.final, m.final[g]), append(sub.at, m.at[g])
		}
	}
	return out, sub
}

// waitForSubmitting makes the receipts matched only to final parts wait when a
// recipient on their handset is being submitted (named by a gateway's claim and
// not recorded yet: status 5 or 7): the receipt may be for that submit, whose id
// the SMSC reused and whose response is not recorded yet. Otherwise it repeats
// the final part's receipt (an SMSC redelivers) and changes nothing.
func (m *receiptMatch) waitForSubmitting(ctx context.Context, tx pgx.Tx, rs []Receipt) error {
	var handsets []string
	for g, r := range rs {
		if m.final[g] && len(r.Mobile) >= 10 {
			handsets = append(handsets, r.Mobile[len(r.Mobile)-10:])
		}
	}
	if len(handsets) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT DISTINCT right(x.mobile, 10) FROM recipient_claims c
		CROSS JOIN LATERAL unnest(c.ids) AS k(id) JOIN recipients x ON x.id = k.id
		WHERE x.status IN (5, 7) AND right(x.mobile, 10) = ANY($1::text[])`, handsets)
	if err != nil {
		return fmt.Errorf("match receipts: handsets being submitted: %w", err)
	}
	busy, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("match receipts: handsets being submitted: %w", err)
	}
	for g, r := range rs {
		if m.final[g] && len(r.Mobile) >= 10 && slices.Contains(busy, r.Mobile[len(r.Mobile)-10:]) {
			m.wait[g] = true
		}
	}
	return nil
}

// lookupSQL reads, for each key of a receipt r (its group g, at its position n),
// the part the key names (recordedOf: the id store's hit r.rid, r.part and r.acc,
// or PostgreSQL's record of it) if it is the message of r (recordedPred).
var lookupSQL = `SELECT r.g, r.msg_id, m.recipient_id, m.part, x.status IN (5, 7), ` + partFinal + `, m.created_at
	FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $7::bigint[], $8::smallint[], $9::timestamptz[])
		WITH ORDINALITY AS r(operator, msg_id, g, mobile, received_at, rid, part, acc, n)
	CROSS JOIN LATERAL (` + recordedOf("r", "$6") + `) m
	JOIN recipients x ON x.id = m.recipient_id
	WHERE ` + recordedPred("r", "$6") + `
	ORDER BY ` + partFinal + `, r.n`

// lookup matches the receipts still without a key, or matched only to final
// parts: by their own id, or (alt) by the other normalisations of it, keeping
// the first found in input order, a part still open before a final one. The id
// store (nil: none) is asked first, in one pipeline.
func (m *receiptMatch) lookup(ctx context.Context, tx pgx.Tx, store *IDStore, rs []Receipt, ret time.Duration, alt bool) error {
	qs, grps := m.queries(rs, alt)
	if len(qs) == 0 {
		return nil
	}
	hits, err := store.get(ctx, qs)
	if err != nil {
		return fmt.Errorf("match receipts: %w", err)
	}
	n := len(qs)
	ops, ids, mobiles, at := make([]string, n), make([]string, n), make([]string, n), make([]time.Time, n)
	rids, parts, acc := make([]int64, n), make([]int16, n), make([]time.Time, n)
	for i, q := range qs {
		ops[i], ids[i], mobiles[i], at[i] = q.route, q.id, q.mobile, q.received
		rids[i], parts[i], acc[i] = hits[i].rid, hits[i].part, hits[i].at
	}
	rows, err := tx.Query(ctx, lookupSQL, ops, ids, grps, mobiles, at, ret, rids, parts, acc)
	if err != nil {
		return fmt.Errorf("match receipts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g int32
		var id string
		var rid int64
		var part int16
		var wait, final bool
		var at time.Time
		if err := rows.Scan(&g, &id, &rid, &part, &wait, &final, &at); err != nil {
			return fmt.Errorf("match receipts: %w", err)
		}
		if m.key[g] == "" || (m.final[g] && !final) {
			m.key[g], m.rid[g], m.part[g], m.wait[g], m.final[g], m.at[g] = id, rid, part, wait, final, at
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("match receipts: %w", err)
	}
	return nil
}

// queries are the keys lookup looks for, each with the receipt it is of (grps):
// the receipt's own id, or (alt) its other normalisations, for the receipts still
// without a key or matched only to final parts.
func (m *receiptMatch) queries(rs []Receipt, alt bool) ([]idQuery, []int32) {
	var qs []idQuery
	var grps []int32
	for g, r := range rs {
		if m.key[g] != "" && !m.final[g] {
			continue
		}
		keys := []string{r.MsgID}
		if alt {
			keys = r.AltIDs
		}
		for _, id := range keys {
			if id != "" {
				qs = append(qs, idQuery{route: r.Operator, id: id, received: r.ReceivedAt, mobile: r.Mobile})
				grps = append(grps, int32(g))
			}
		}
	}
	return qs, grps
}
