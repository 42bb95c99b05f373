package gateway

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/send"
)

// batchRows are one group transaction's column arrays.
type batchRows struct {
	// The accepted parts: of claims in redis mode (claimAcc.redisIDs) for the id
	// store, of the others for message_ids.
	redis, table []msgRow
	// recipients: k indexes the claims slice.
	ids       []int64
	rejected  []bool
	unknown   []bool
	failed    []int16
	states    []string
	errs      []string
	mids      []string // the parts' message ids joined by idSep ("": none)
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
	// The ids are in Redis before the outcomes commit: a receipt that finds its
	// recipient still being recorded waits, as it does for a message_ids row. When
	// Redis does not answer, they go to message_ids instead: recording never waits
	// for Redis.
	if err := r.store.Put(ctx, acceptedIDs(b.redis)); err != nil {
		r.log.Warn("message ids recorded in PostgreSQL: the id store failed", "ids", len(b.redis), "err", err)
		b.table, b.redis = append(b.table, b.redis...), nil
	}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		clear(counts)
		return recordOutcomes(ctx, tx, &b, counts)
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

// idSep joins a recipient's message ids for the outcome statement: a control
// character, which no usable id holds (smpp.UsableMessageID).
const idSep = "\x1f"

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
		b.mids = append(b.mids, strings.Join(o.msgIDs, idSep))
		b.errs = append(b.errs, o.errText)
		b.k = append(b.k, k)
	}
	for _, m := range ids {
		if m.claim.redisIDs {
			b.redis = append(b.redis, m)
		} else {
			b.table = append(b.table, m)
		}
	}
	for _, f := range finishes {
		b.revert = append(b.revert, f.revert...)
		b.finishIDs = append(b.finishIDs, f.claim.id)
	}
	return b
}

// recordOutcomes writes one outcome transaction: the message ids kept in
// PostgreSQL, the recipients' outcomes, the unsent returned to the queue, the
// sends' counters and the end of the finished claims.
func recordOutcomes(ctx context.Context, tx pgx.Tx, b *batchRows, counts [][3]int64) error {
	if err := copyMessageIDs(ctx, tx, b.table); err != nil {
		return err
	}
	if err := markRecipients(ctx, tx, b, counts); err != nil {
		return err
	}
	if len(b.revert) > 0 {
		if _, err := tx.Exec(ctx, `UPDATE recipients SET status = $2, updated_at = now()
			WHERE id = ANY($1::bigint[]) AND status = $3`, b.revert, recipientQueued, recipientSubmitting); err != nil {
			return fmt.Errorf("return unsent recipients to the queue: %w", err)
		}
	}
	if err := countSends(ctx, tx, b, counts); err != nil {
		return err
	}
	if len(b.finishIDs) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM recipient_claims WHERE id = ANY($1::bigint[])`, b.finishIDs); err != nil {
			return fmt.Errorf("end claims: %w", err)
		}
	}
	return nil
}

// acceptedIDs are the rows as the id store takes them.
func acceptedIDs(rows []msgRow) []send.AcceptedID {
	out := make([]send.AcceptedID, len(rows))
	for i, m := range rows {
		out[i] = send.AcceptedID{Route: m.claim.route, ID: m.id, Recipient: m.recipient, Part: m.part, At: m.at}
	}
	return out
}

// markRecipients records the outcomes: sent (0) with submitted_at, unknown,
// parts_failed, parts_rejected and part_states, or rejected (6) with the
// error. Only rows still claimed change — still queued or submitting (5 or 7)
// and their claim still live — so a repeated transaction, or a claim the sweeper
// took over, counts nothing twice. counts gets each claim's
// sent, rejected and partial (sent with a part not accepted).
func markRecipients(ctx context.Context, tx pgx.Tx, b *batchRows, counts [][3]int64) error {
	if len(b.ids) == 0 {
		return nil
	}
	cids := make([]int64, len(b.claims))
	for i, c := range b.claims {
		cids[i] = c.id
	}
	rows, err := tx.Query(ctx, `
		WITH live AS (
			SELECT (c.n - 1)::int AS k FROM unnest($11::bigint[]) WITH ORDINALITY AS c(id, n)
			WHERE EXISTS (SELECT 1 FROM recipient_claims rc WHERE rc.id = c.id))
		UPDATE recipients r SET
			status = CASE WHEN u.rejected THEN $7::smallint ELSE $8::smallint END,
			submitted_at = CASE WHEN u.rejected THEN r.submitted_at ELSE now() END,
			unknown = u.unknown,
			parts_failed = u.failed,
			parts_rejected = CASE WHEN u.rejected THEN 0 ELSE u.failed END,
			part_states = u.states,
			msg_ids = CASE WHEN u.rejected OR u.mids = '' THEN r.msg_ids ELSE string_to_array(u.mids, chr(31)) END,
			error = CASE WHEN u.rejected THEN u.error ELSE r.error END,
			updated_at = now()
		FROM unnest($1::bigint[], $2::bool[], $3::bool[], $4::smallint[], $5::text[], $6::int[], $10::text[], $13::text[])
			AS u(id, rejected, unknown, failed, error, k, states, mids) JOIN live USING (k)
		WHERE r.id = u.id AND r.status IN ($9, $12)
		RETURNING u.k, u.rejected, NOT u.rejected AND (u.unknown OR u.failed > 0)`,
		b.ids, b.rejected, b.unknown, b.failed, b.errs, b.k, recipientRejected, recipientSent, recipientSubmitting, b.states,
		cids, recipientQueued, b.mids)
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

// copyMessageIDs loads the message ids with COPY. An SMSC may reuse an id (a
// wrapped counter, a restarted simulator): COPY then fails on the primary
// key, and the rows are upserted instead, the new message taking the id over,
// inside a savepoint so the transaction goes on.
func copyMessageIDs(ctx context.Context, tx pgx.Tx, rows []msgRow) error {
	if len(rows) == 0 {
		return nil
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	_, err = sp.CopyFrom(ctx, pgx.Identifier{"message_ids"},
		[]string{"operator", "msg_id", "recipient_id", "send_id", "part", "created_at"},
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			m := rows[i]
			return []any{m.claim.route, m.id, m.recipient, m.claim.sendID, m.part, m.at}, nil
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
	ops, ids, recips, sends, parts, at := dedupeMessageIDs(rows)
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

// dedupeMessageIDs keeps the last row of every (operator, id), as columns: ON
// CONFLICT may touch a row only once per statement.
func dedupeMessageIDs(rows []msgRow) (ops, ids []string, recips, sends []int64, parts []int16, at []time.Time) {
	type key struct{ op, id string }
	last := make(map[key]int, len(rows))
	for i, m := range rows {
		last[key{m.claim.route, m.id}] = i
	}
	for i, m := range rows {
		if last[key{m.claim.route, m.id}] == i {
			ops, ids = append(ops, m.claim.route), append(ids, m.id)
			recips, sends = append(recips, m.recipient), append(sends, m.claim.sendID)
			parts, at = append(parts, m.part), append(at, m.at)
		}
	}
	return ops, ids, recips, sends, parts, at
}
