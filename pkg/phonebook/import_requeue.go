package phonebook

import (
	"context"
	"fmt"

	"github.com/chapar/chapar/jobs"
)

// RequeueStuckImports enqueues again the imports still running that made no
// progress for a minute, as after a Redis that lost its queues (docs/backups.md):
// their task is gone and nothing else would run them. The task id is the
// import's, so an import whose task is queued or running is left alone, and an
// import run twice adds nothing twice (each chunk locks the import at its
// cursor). It returns how many it enqueued.
func (s *Service) RequeueStuckImports(ctx context.Context) (int, error) {
	var ids []int64
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM contact_imports
		WHERE status = 'running' AND updated_at < now() - interval '1 minute' ORDER BY id LIMIT 100) x`).Scan(&ids); err != nil {
		return 0, fmt.Errorf("stuck imports: %w", err)
	}
	n, err := jobs.Requeue(ctx, s.queue, ids, jobs.NewContactImport)
	if err != nil {
		return n, fmt.Errorf("stuck imports: %w", err)
	}
	return n, nil
}
