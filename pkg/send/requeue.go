package send

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequeueBatches enqueues again every batch of a send that still has recipients
// queued or at a gateway, under new task ids, and returns how many it enqueued.
// It is the operator's repair for a send whose tasks were lost and the chaos
// suite's "duplicated tasks": a batch handled twice at once submits each
// recipient once (recipient claims), so it is always safe.
func (s *Service) RequeueBatches(ctx context.Context, sendID int64) (int, error) {
	var typ string
	var batches []batchKey
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT type FROM sends WHERE id = $1`, sendID).Scan(&typ); err != nil {
			return fmt.Errorf("requeue send %d: %w", sendID, err)
		}
		rows, err := tx.Query(ctx, `SELECT DISTINCT operator, batch FROM recipients WHERE send_id = $1 AND status IN (5, 7)`, sendID)
		if err != nil {
			return fmt.Errorf("requeue send %d: %w", sendID, err)
		}
		batches, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (batchKey, error) {
			var b batchKey
			err := r.Scan(&b.operator, &b.batch)
			return b, err
		})
		return err
	})
	if err != nil {
		return 0, err
	}
	suffix := "requeue" + strconv.FormatInt(time.Now().UnixNano(), 36)
	return len(batches), s.enqueueBatches(ctx, sendID, batches, IsCritical(typ), suffix)
}
