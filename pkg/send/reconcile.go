package send

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// unknownSlack is how long before its recipient's recording a receipt may be
// received and still be reconciled to one of its unknown parts: the recording
// waits for every part's answer (a lost submit_sm_resp takes the response
// time-out, throttled parts their retries), while the receipt may come at once.
const unknownSlack = 10 * time.Minute

// unknownAfter is how long a pending receipt waits before it is offered to
// unknown parts: one that merely overtook its message id (most of them, under
// load) matches by id within a second, and is never looked at here.
const unknownAfter = 5 * time.Second

// Part states (recipients.part_states, one byte per part; see the gateway).
const (
	partAccepted  = 'a'
	partUnknown   = '?'
	partDelivered = 'd' // its receipt said delivered (migrations/0197)
	partFailed    = 'f' // its receipt said not delivered
)

// unknownCandidate is a pending receipt and a recipient with unknown parts on
// the same handset.
type unknownCandidate struct {
	op, msgID  string
	receivedAt time.Time
	rid, send  int64
	parts      int
	states     string
	recorded   []int16 // parts that have a message id
}

// reconcileUnknown gives the pending receipts (ops, ids) that match no recorded id
// to the unknown parts of recipients on their handset (the submit_sm_resp of those
// parts was lost, so their ids were never known): each receipt takes the first
// unknown part of the most recently submitted such recipient, and a recipient
// takes at most as many receipts as it has unknown parts. The parts become
// accepted (part_states 'a') with the receipt's id; the recipient stays unknown
// while any part is. It returns how many parts it gave an id; the receipts
// themselves are applied by the caller, as matched ones.
func reconcileUnknown(ctx context.Context, tx pgx.Tx, ops, ids []string) (int, error) {
	rows, err := tx.Query(ctx, `SELECT p.operator, p.msg_id, p.received_at, r.id, r.send_id, r.parts, r.part_states,
			ARRAY(SELECT m.part FROM message_ids m WHERE m.recipient_id = r.id
				UNION SELECT k.n::smallint FROM unnest(r.msg_ids) WITH ORDINALITY AS k(id, n) WHERE k.id <> '')
		FROM unnest($1::text[], $2::text[]) AS u(operator, msg_id)
		JOIN pending_receipts p ON p.operator = u.operator AND p.msg_id = u.msg_id
		JOIN recipients r ON r.mobile = p.mobile AND r.unknown AND r.status IN (0, 1)
		WHERE p.received_at >= r.submitted_at - $3::interval AND p.received_at < now() - $4::interval
		ORDER BY p.received_at, p.operator, p.msg_id, r.submitted_at DESC, r.id`, ops, ids, unknownSlack, unknownAfter)
	if err != nil {
		return 0, fmt.Errorf("reconcile unknown: %w", err)
	}
	cands, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (unknownCandidate, error) {
		var c unknownCandidate
		err := row.Scan(&c.op, &c.msgID, &c.receivedAt, &c.rid, &c.send, &c.parts, &c.states, &c.recorded)
		return c, err
	})
	if err != nil {
		return 0, fmt.Errorf("reconcile unknown: %w", err)
	}
	if len(cands) == 0 {
		return 0, nil
	}
	rc := assignUnknown(cands)
	return len(rc.ids), storeReconciled(ctx, tx, rc)
}

// reconciled is the outcome of assignUnknown: new message_ids rows and the
// recipients' new part states.
type reconciled struct {
	ops, ids   []string
	rids, sids []int64
	parts      []int16
	at         []time.Time
	states     map[int64][]byte
}

// assignUnknown gives each receipt (in order) the first free unknown part of
// its first candidate recipient that has one.
func assignUnknown(cands []unknownCandidate) reconciled {
	out := reconciled{states: map[int64][]byte{}}
	taken := map[[2]string]bool{}
	for _, c := range cands {
		key := [2]string{c.op, c.msgID}
		if taken[key] {
			continue
		}
		st, ok := out.states[c.rid]
		if !ok {
			st = unknownStates(c)
		}
		p := strings.IndexByte(string(st), partUnknown)
		if p < 0 {
			out.states[c.rid] = st
			continue
		}
		st[p] = partAccepted
		out.states[c.rid] = st
		taken[key] = true
		out.ops, out.ids, out.rids, out.sids = append(out.ops, c.op), append(out.ids, c.msgID), append(out.rids, c.rid), append(out.sids, c.send)
		out.parts, out.at = append(out.parts, int16(p+1)), append(out.at, c.receivedAt)
	}
	return out
}

// unknownStates is a candidate's part states with every part that has no id
// and is not known otherwise marked unknown (a recipient whose gateway died
// has no part states: all its parts without an id are unknown).
func unknownStates(c unknownCandidate) []byte {
	st := []byte(c.states)
	if len(st) != c.parts {
		st = []byte(strings.Repeat(string(rune(partUnknown)), c.parts))
	}
	for _, p := range c.recorded {
		if p >= 1 && int(p) <= len(st) && st[p-1] != partDelivered && st[p-1] != partFailed {
			st[p-1] = partAccepted
		}
	}
	return st
}

// storeReconciled records the assigned ids (a message_ids row each, dated by its
// receipt, which is what the submit-time check compares; and on the recipient's
// msg_ids) and the recipients' part states.
func storeReconciled(ctx context.Context, tx pgx.Tx, rc reconciled) error {
	if len(rc.ids) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
			SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::smallint[], $6::timestamptz[])
			ON CONFLICT (operator, msg_id) DO UPDATE SET recipient_id = EXCLUDED.recipient_id, send_id = EXCLUDED.send_id,
				part = EXCLUDED.part, stat = NULL, created_at = EXCLUDED.created_at`,
			rc.ops, rc.ids, rc.rids, rc.sids, rc.parts, rc.at); err != nil {
			return fmt.Errorf("reconcile unknown: %w", err)
		}
	}
	// In id order: receipt consumers lock recipients too.
	rids := slices.Sorted(maps.Keys(rc.states))
	states := make([]string, len(rids))
	for i, id := range rids {
		states[i] = string(rc.states[id])
	}
	// Merged on the locked row: a receipt a consumer applied meanwhile stays.
	if _, err := tx.Exec(ctx, `UPDATE recipients r SET part_states = part_states_merge(r.part_states, u.states),
			unknown = strpos(u.states, '?') > 0, updated_at = now(),
			msg_ids = (SELECT array_agg(coalesce(a.id, r.msg_ids[n], '') ORDER BY n) FROM generate_series(1, r.parts) AS n
				LEFT JOIN unnest($3::bigint[], $4::smallint[], $5::text[]) AS a(rid, part, id) ON a.rid = r.id AND a.part = n)
		FROM unnest($1::bigint[], $2::text[]) AS u(id, states) WHERE r.id = u.id`, rids, states,
		rc.rids, rc.parts, rc.ids); err != nil {
		return fmt.Errorf("reconcile unknown: %w", err)
	}
	return nil
}
