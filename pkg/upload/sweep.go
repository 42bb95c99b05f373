package upload

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
)

// RequeueStuck enqueues the parse of files still "parsing" a minute after upload
// with no progress: the API stored the file but died before it queued the parse.
// The task id is the file id, so a parse that is queued or running is left alone.
func (s *Service) RequeueStuck(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM files WHERE status = 'parsing' AND progress = 0
		AND created_at < now() - interval '1 minute' ORDER BY id LIMIT 100`)
	if err != nil {
		return 0, fmt.Errorf("stuck files: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return 0, fmt.Errorf("stuck files: %w", err)
	}
	n := 0
	for _, id := range ids {
		_, err := s.queue.EnqueueContext(ctx, jobs.NewFileParse(id, jobs.QueueBulk))
		if errors.Is(err, asynq.ErrTaskIDConflict) {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("requeue file %d: %w", id, err)
		}
		n++
	}
	return n, nil
}
