package send

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
)

// TaskLookup tells whether a task still exists (asynq.Inspector satisfies it).
type TaskLookup interface {
	GetTaskInfo(queue, id string) (*asynq.TaskInfo, error)
}

// SweepConfig sets the sweeper's grace periods.
type SweepConfig struct {
	// Abandoned: a recipient claimed by a gateway (status 7) this long ago is taken
	// as submitted with an unknown outcome (the gateway died mid-chunk); never resent.
	Abandoned time.Duration
	// Stalled: queued recipients untouched this long get their batch re-enqueued when
	// no task for it exists any more.
	Stalled time.Duration
	// NoReceipt: an unknown-outcome recipient with no receipt after this long is
	// final as not reached; pending receipts older than this are dropped.
	NoReceipt time.Duration
}

// DefaultSweep is the production setting.
var DefaultSweep = SweepConfig{Abandoned: 2 * time.Minute, Stalled: time.Minute, NoReceipt: 48 * time.Hour}

// Sweep runs one pass of the stuck-work sweeper and returns what it did.
func (s *Service) Sweep(ctx context.Context, tasks TaskLookup, c SweepConfig) (map[string]int, error) {
	did := map[string]int{}
	// 1. Recipients a dead gateway held: outcome unknown, reconciled by receipt.
	rows, err := s.pool.Query(ctx, `WITH x AS (
			UPDATE recipients SET status = 0, unknown = true, submitted_at = coalesce(submitted_at, now()), updated_at = now()
			WHERE status = 7 AND updated_at < now() - $1::interval RETURNING send_id)
		SELECT send_id, count(*) FROM x GROUP BY send_id`, c.Abandoned)
	if err != nil {
		return did, fmt.Errorf("sweep abandoned: %w", err)
	}
	ids, counts, err := perSend(rows)
	if err != nil {
		return did, err
	}
	did["abandoned"] = sum(counts)
	if len(ids) > 0 {
		if _, err := s.pool.Exec(ctx, `UPDATE sends s SET submitted = s.submitted + u.n FROM unnest($1::bigint[], $2::int[]) AS u(id, n)
			WHERE s.id = u.id`, ids, counts); err != nil {
			return did, fmt.Errorf("sweep abandoned counters: %w", err)
		}
	}
	// 2. Unknown outcomes that never got a receipt become final (not reached handset).
	rows, err = s.pool.Query(ctx, `WITH x AS (
			UPDATE recipients SET status = 3, unknown = false, error = 'no-receipt', done_at = now(), updated_at = now()
			WHERE unknown AND status IN (0, 1) AND submitted_at < now() - $1::interval RETURNING send_id)
		SELECT send_id, count(*) FROM x GROUP BY send_id`, c.NoReceipt)
	if err != nil {
		return did, fmt.Errorf("sweep no-receipt: %w", err)
	}
	if ids, counts, err = perSend(rows); err != nil {
		return did, err
	}
	did["no_receipt"] = sum(counts)
	if len(ids) > 0 {
		if _, err := s.pool.Exec(ctx, `UPDATE sends s SET undelivered = s.undelivered + u.n FROM unnest($1::bigint[], $2::int[]) AS u(id, n)
			WHERE s.id = u.id`, ids, counts); err != nil {
			return did, fmt.Errorf("sweep no-receipt counters: %w", err)
		}
	}
	if tag, err := s.pool.Exec(ctx, `DELETE FROM pending_receipts WHERE received_at < now() - $1::interval`, c.NoReceipt); err == nil {
		did["pending_dropped"] = int(tag.RowsAffected())
	}
	// 3. Batches whose task is gone while recipients still wait.
	rows, err = s.pool.Query(ctx, `SELECT DISTINCT r.send_id, r.operator, r.batch, s.type FROM recipients r JOIN sends s ON s.id = r.send_id
		WHERE r.status = 5 AND r.updated_at < now() - $1::interval AND s.status = 'sending' LIMIT 1000`, c.Stalled)
	if err != nil {
		return did, fmt.Errorf("sweep stalled: %w", err)
	}
	type stalled struct {
		send int64
		key  batchKey
		typ  string
	}
	var st []stalled
	for rows.Next() {
		var x stalled
		if err := rows.Scan(&x.send, &x.key.operator, &x.key.batch, &x.typ); err != nil {
			rows.Close()
			return did, err
		}
		st = append(st, x)
	}
	rows.Close()
	for _, x := range st {
		critical := x.typ == TypeVerification
		q := jobs.CarrierQueue(x.key.operator)
		if critical {
			q = jobs.CarrierQueueCritical(x.key.operator)
		}
		if live(tasks, q, fmt.Sprintf("batch:%d:%d", x.send, x.key.batch)) {
			continue
		}
		suffix := "sweep" + strconv.FormatInt(time.Now().Unix()/60, 10)
		if live(tasks, q, fmt.Sprintf("batch:%d:%d:%s", x.send, x.key.batch, suffix)) {
			continue
		}
		if err := s.enqueueBatches(ctx, x.send, []batchKey{x.key}, critical, suffix); err == nil {
			did["batches_requeued"]++
		}
	}
	// 4. Accepted sends whose expand task was lost.
	rows, err = s.pool.Query(ctx, `SELECT id, type FROM sends WHERE status = 'queued' AND expanded_at IS NULL
		AND created_at < now() - $1::interval LIMIT 1000`, c.Stalled)
	if err != nil {
		return did, fmt.Errorf("sweep queued: %w", err)
	}
	type q struct {
		id  int64
		typ string
	}
	var qs []q
	for rows.Next() {
		var x q
		if err := rows.Scan(&x.id, &x.typ); err != nil {
			rows.Close()
			return did, err
		}
		qs = append(qs, x)
	}
	rows.Close()
	for _, x := range qs {
		queue := jobs.QueueDefault
		if x.typ == TypeVerification {
			queue = jobs.QueueCritical
		}
		if live(tasks, queue, fmt.Sprintf("expand:%d", x.id)) {
			continue
		}
		if tasks != nil {
			// An archived or completed task holds the id: clear it first.
			if ins, ok := tasks.(interface{ DeleteTask(string, string) error }); ok {
				_ = ins.DeleteTask(queue, fmt.Sprintf("expand:%d", x.id))
			}
		}
		if err := s.enqueueExpand(ctx, x.id, x.typ, time.Time{}); err == nil {
			did["expands_requeued"]++
		}
	}
	// 5. Sends with nothing left for a gateway: refund what was never sent, close.
	rows, err = s.pool.Query(ctx, `SELECT id FROM sends s WHERE status IN ('sending', 'stopped') AND finished_at IS NULL
		AND expanded_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM recipients r WHERE r.send_id = s.id AND r.status IN (5, 7))
		LIMIT 1000`)
	if err != nil {
		return did, fmt.Errorf("sweep finalize: %w", err)
	}
	var fin []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return did, err
		}
		fin = append(fin, id)
	}
	rows.Close()
	for _, id := range fin {
		if ok, err := s.Finalize(ctx, id); err != nil {
			slog.WarnContext(ctx, "finalize", "send", id, "err", err)
		} else if ok {
			did["finalized"]++
		}
	}
	return did, nil
}

// live reports whether a task with the id is still pending, scheduled, running or retrying.
func live(tasks TaskLookup, queue, id string) bool {
	if tasks == nil {
		return false
	}
	info, err := tasks.GetTaskInfo(queue, id)
	if err != nil {
		return !errors.Is(err, asynq.ErrTaskNotFound) && !errors.Is(err, asynq.ErrQueueNotFound)
	}
	switch info.State {
	case asynq.TaskStatePending, asynq.TaskStateActive, asynq.TaskStateScheduled, asynq.TaskStateRetry, asynq.TaskStateAggregating:
		return true
	}
	return false
}

// perSend reads (send id, count) rows.
func perSend(rows pgx.Rows) (ids []int64, counts []int32, err error) {
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int32
		if err := rows.Scan(&id, &n); err != nil {
			return nil, nil, err
		}
		ids, counts = append(ids, id), append(counts, n)
	}
	return ids, counts, rows.Err()
}

func sum(ns []int32) int {
	t := 0
	for _, n := range ns {
		t += int(n)
	}
	return t
}
