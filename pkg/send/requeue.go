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
		var err error
		batches, err = batchesWith(ctx, tx, sendID, RcptQueued, RcptSubmitting)
		return err
	})
	if err != nil {
		return 0, err
	}
	suffix := "requeue" + strconv.FormatInt(time.Now().UnixNano(), 36)
	return len(batches), s.enqueueBatches(ctx, sendID, batches, IsCritical(typ), suffix)
}
