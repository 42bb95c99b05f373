package send

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
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
	Mobile   string
}

// Applied counts what a receipt batch changed.
type Applied struct {
	Matched   int
	Pending   int
	Delivered int
	Failed    int
	Sends     []int64
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
		out, err = applyReceipts(ctx, tx, rs)
		return err
	})
	return out, err
}

// RetryPending matches receipts that overtook their submit response, and assigns
// receipts to recipients whose submit outcome was unknown (matched by handset).
// Every pending receipt is looked up by its key (message_ids is never scanned:
// with thousands of pending receipts the planner would rather hash the whole
// table).
func (s *Service) RetryPending(ctx context.Context) (Applied, error) {
	var out Applied
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A receipt for a handset whose submit is unknown gives that recipient its id.
		if _, err := tx.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part)
			SELECT DISTINCT ON (p.operator, p.msg_id) p.operator, p.msg_id, r.id, r.send_id,
				(SELECT count(*) FROM message_ids m WHERE m.recipient_id = r.id) + 1
			FROM pending_receipts p
			JOIN recipients r ON r.mobile = p.mobile AND r.unknown AND r.status IN (0, 1)
			WHERE (SELECT 1 FROM message_ids m WHERE m.operator = p.operator AND m.msg_id = p.msg_id LIMIT 1) IS NULL
			ORDER BY p.operator, p.msg_id, r.submitted_at DESC
			ON CONFLICT DO NOTHING`); err != nil {
			return fmt.Errorf("reconcile unknown: %w", err)
		}
		rows, err := tx.Query(ctx, `DELETE FROM pending_receipts d USING (
				SELECT p.operator, p.msg_id FROM pending_receipts p
				CROSS JOIN LATERAL (SELECT 1 FROM message_ids m WHERE m.operator = p.operator AND m.msg_id = p.msg_id LIMIT 1) hit
			) x
			WHERE d.operator = x.operator AND d.msg_id = x.msg_id
			RETURNING d.operator, d.msg_id, d.stat, d.mobile`)
		if err != nil {
			return fmt.Errorf("take pending: %w", err)
		}
		rs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Receipt, error) {
			var x Receipt
			err := r.Scan(&x.Operator, &x.MsgID, &x.Stat, &x.Mobile)
			return x, err
		})
		if err != nil {
			return fmt.Errorf("take pending: %w", err)
		}
		if len(rs) == 0 {
			return nil
		}
		out, err = applyReceipts(ctx, tx, rs)
		return err
	})
	return out, err
}

// applyReceipts applies receipts inside tx.
func applyReceipts(ctx context.Context, tx pgx.Tx, rs []Receipt) (Applied, error) {
	var out Applied
	// 0. Which receipts have a recorded id: their own id first, then (for those
	// without) the other normalisations of it. This is read first, in its own
	// statements: an id the gateway records after it only sends its receipt to
	// pending_receipts (retried), while one read here is seen by the update below.
	// Deciding it later would let a just-recorded id count as matched without
	// being applied.
	key := make([]string, len(rs))
	var ops, ids []string
	var grps []int32
	for g, r := range rs {
		if r.MsgID != "" {
			ops, ids, grps = append(ops, r.Operator), append(ids, r.MsgID), append(grps, int32(g))
		}
	}
	if err := matchKeys(ctx, tx, ops, ids, grps, key); err != nil {
		return out, err
	}
	ops, ids, grps = ops[:0], ids[:0], grps[:0]
	for g, r := range rs {
		if key[g] != "" {
			continue
		}
		for _, alt := range r.AltIDs {
			if alt != "" {
				ops, ids, grps = append(ops, r.Operator), append(ids, alt), append(grps, int32(g))
			}
		}
	}
	if err := matchKeys(ctx, tx, ops, ids, grps, key); err != nil {
		return out, err
	}
	var mOps, mIDs []string
	var mStats []int16
	enroute := false
	for g, r := range rs {
		if key[g] != "" {
			mOps, mIDs, mStats = append(mOps, r.Operator), append(mIDs, key[g]), append(mStats, r.Stat)
			enroute = enroute || r.Stat == StatEnroute
		}
	}
	sendIDs, err := applyMatched(ctx, tx, mOps, mIDs, mStats, enroute, &out)
	if err != nil {
		return out, err
	}
	// 3. Receipts with no recorded id wait (the submit response may not be stored yet).
	var pOps, pIDs, pMobiles []string
	var pStats []int16
	for g, r := range rs {
		if key[g] == "" && r.MsgID != "" && (r.Stat == StatDelivered || r.Stat == StatUndelivered) {
			pOps, pIDs, pStats, pMobiles = append(pOps, r.Operator), append(pIDs, r.MsgID), append(pStats, r.Stat), append(pMobiles, r.Mobile)
		}
	}
	total := len(rs)
	if len(pIDs) == 0 {
		out.Matched = total
		out.Sends = sendIDs
		return out, nil
	}
	tag, err := tx.Exec(ctx, `INSERT INTO pending_receipts (operator, msg_id, stat, mobile)
		SELECT DISTINCT ON (r.operator, r.msg_id) r.operator, r.msg_id, r.stat, r.mobile
		FROM unnest($1::text[], $2::text[], $3::smallint[], $4::text[]) AS r(operator, msg_id, stat, mobile)
		ORDER BY r.operator, r.msg_id
		ON CONFLICT DO NOTHING`, pOps, pIDs, pStats, pMobiles)
	if err != nil {
		return out, fmt.Errorf("pending receipts: %w", err)
	}
	out.Pending = int(tag.RowsAffected())
	out.Matched = total - out.Pending
	out.Sends = sendIDs
	return out, nil
}

// applyMatched applies receipts whose message id is recorded and returns the sends
// whose counters moved, adding the recipients delivered and failed to out.
func applyMatched(ctx context.Context, tx pgx.Tx, ops, ids []string, stats []int16, enroute bool, out *Applied) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// 1. Mark parts (final states once), and move en-route recipients to "reached telecom".
	rows, err := tx.Query(ctx, `WITH r AS (
			SELECT DISTINCT ON (operator, msg_id) operator, msg_id, stat
			FROM unnest($1::text[], $2::text[], $3::smallint[]) AS r(operator, msg_id, stat)
			ORDER BY operator, msg_id, stat DESC),
		parts AS (
			UPDATE message_ids m SET stat = r.stat FROM r
			WHERE m.operator = r.operator AND m.msg_id = r.msg_id AND m.stat IS NULL AND r.stat IN (2, 3)
			RETURNING m.recipient_id, r.stat),
		agg AS (
			SELECT recipient_id, count(*) FILTER (WHERE stat = 2) AS ok, count(*) FILTER (WHERE stat = 3) AS bad
			FROM parts GROUP BY recipient_id),
		upd AS (
			UPDATE recipients x SET
				parts_delivered = x.parts_delivered + agg.ok,
				parts_failed = x.parts_failed + agg.bad,
				status = CASE
					WHEN x.parts_delivered + agg.ok + x.parts_failed + agg.bad >= x.parts
						THEN CASE WHEN x.parts_failed + agg.bad > 0 THEN 3 ELSE 2 END
					ELSE 1 END,
				done_at = CASE WHEN x.parts_delivered + agg.ok + x.parts_failed + agg.bad >= x.parts THEN now() END,
				unknown = false,
				updated_at = now()
			FROM agg WHERE x.id = agg.recipient_id AND x.status IN (0, 1)
			RETURNING x.send_id, x.status)
		SELECT send_id, count(*) FILTER (WHERE status = 2), count(*) FILTER (WHERE status = 3) FROM upd
		GROUP BY send_id ORDER BY send_id`,
		ops, ids, stats)
	if err != nil {
		return nil, fmt.Errorf("apply receipts: %w", err)
	}
	var sendIDs []int64
	var dl, ud []int32
	for rows.Next() {
		var id int64
		var d, u int32
		if err := rows.Scan(&id, &d, &u); err != nil {
			rows.Close()
			return nil, err
		}
		sendIDs, dl, ud = append(sendIDs, id), append(dl, d), append(ud, u)
		out.Delivered += int(d)
		out.Failed += int(u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("apply receipts: %w", err)
	}
	if len(sendIDs) > 0 {
		// In send id order: concurrent consumers and gateways lock sends alike.
		if _, err := tx.Exec(ctx, `UPDATE sends s SET delivered = s.delivered + u.d, undelivered = s.undelivered + u.f,
			updated_at = now() FROM unnest($1::bigint[], $2::int[], $3::int[]) AS u(id, d, f) WHERE s.id = u.id`,
			sendIDs, dl, ud); err != nil {
			return nil, fmt.Errorf("send counters: %w", err)
		}
	}
	// 2. En-route receipts: the recipient reached the telecom.
	if enroute {
		if _, err := tx.Exec(ctx, `UPDATE recipients x SET status = 1, updated_at = now()
			FROM message_ids m, unnest($1::text[], $2::text[], $3::smallint[]) AS r(operator, msg_id, stat)
			WHERE r.stat = 1 AND m.operator = r.operator AND m.msg_id = r.msg_id AND x.id = m.recipient_id AND x.status = 0`,
			ops, ids, stats); err != nil {
			return nil, fmt.Errorf("enroute receipts: %w", err)
		}
	}
	return sendIDs, nil
}

// matchKeys sets key[g] to the id of each receipt group g whose id (among ops,
// ids) is recorded in message_ids, keeping the first one found in input order.
func matchKeys(ctx context.Context, tx pgx.Tx, ops, ids []string, grps []int32, key []string) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT r.g, r.msg_id FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS r(operator, msg_id, g, n)
		WHERE EXISTS (SELECT 1 FROM message_ids m WHERE m.operator = r.operator AND m.msg_id = r.msg_id)
		ORDER BY r.n`, ops, ids, grps)
	if err != nil {
		return fmt.Errorf("match receipts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g int32
		var id string
		if err := rows.Scan(&g, &id); err != nil {
			return fmt.Errorf("match receipts: %w", err)
		}
		if key[g] == "" {
			key[g] = id
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("match receipts: %w", err)
	}
	return nil
}
