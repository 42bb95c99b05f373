package upload

import (
	"context"
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
	return jobs.Requeue(ctx, s.queue, ids, func(id int64) *asynq.Task { return jobs.NewFileParse(id, jobs.QueueBulk) })
}
