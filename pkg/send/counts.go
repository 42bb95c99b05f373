package send

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Counts are changes to a send's progress counters.
type Counts struct {
	Submitted, Rejected, Partial, Delivered, Undelivered int32
}

// AddCounts records counter changes of the sends ids (one Counts each) inside
// tx, without touching the sends rows: a gateway's recorder and a worker's
// receipt consumers call it in every transaction, and updating the rows in
// place made every such transaction wait for the others' commits on the same
// sends (migration 0097). FoldCounts applies them.
func AddCounts(ctx context.Context, tx pgx.Tx, ids []int64, c []Counts) error {
	if len(ids) == 0 {
		return nil
	}
	var sub, rej, part, dl, ud []int32
	for _, x := range c {
		sub, rej, part = append(sub, x.Submitted), append(rej, x.Rejected), append(part, x.Partial)
		dl, ud = append(dl, x.Delivered), append(ud, x.Undelivered)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO send_count_deltas (send_id, submitted, rejected, partial, delivered, undelivered)
		SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[])`,
		ids, sub, rej, part, dl, ud); err != nil {
		return fmt.Errorf("count sends: %w", err)
	}
	return nil
}

// foldBatch bounds the deltas one fold takes.
const foldBatch = 50000

// FoldCounts moves the recorded counter changes into their sends and returns
// the sends that changed. One process folds at a time (an advisory lock);
// another that finds it taken returns at once. Sends are locked in id order, as
// everything else that updates several sends does.
func (s *Service) FoldCounts(ctx context.Context) ([]int64, error) {
	var ids []int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var mine bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtext('send_count_deltas'))`).Scan(&mine); err != nil || !mine {
			return err
		}
		rows, err := tx.Query(ctx, `WITH d AS (
				DELETE FROM send_count_deltas WHERE id IN (SELECT id FROM send_count_deltas ORDER BY id LIMIT $1)
				RETURNING send_id, submitted, rejected, partial, delivered, undelivered)
			SELECT send_id, sum(submitted)::int, sum(rejected)::int, sum(partial)::int, sum(delivered)::int, sum(undelivered)::int
			FROM d GROUP BY send_id ORDER BY send_id`, foldBatch)
		if err != nil {
			return fmt.Errorf("fold send counts: %w", err)
		}
		var c [5][]int32
		for rows.Next() {
			var id int64
			var x [5]int32
			if err := rows.Scan(&id, &x[0], &x[1], &x[2], &x[3], &x[4]); err != nil {
				rows.Close()
				return fmt.Errorf("fold send counts: %w", err)
			}
			ids = append(ids, id)
			for i := range x {
				c[i] = append(c[i], x[i])
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE sends s SET submitted = s.submitted + u.sub, rejected = s.rejected + u.rej,
				partial = s.partial + u.part, delivered = s.delivered + u.dl, undelivered = s.undelivered + u.ud, updated_at = now()
			FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[]) AS u(id, sub, rej, part, dl, ud)
			WHERE s.id = u.id`, ids, c[0], c[1], c[2], c[3], c[4]); err != nil {
			return fmt.Errorf("fold send counts: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
