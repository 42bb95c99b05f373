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
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/jobs"
)

// TaskLookup tells whether a task still exists and which tasks the live asynq
// servers are working on (asynq.Inspector satisfies it).
type TaskLookup interface {
	GetTaskInfo(queue, id string) (*asynq.TaskInfo, error)
	Servers() ([]*asynq.ServerInfo, error)
	Queues() ([]string, error)
	ListActiveTasks(queue string, opts ...asynq.ListOption) ([]*asynq.TaskInfo, error)
}

// SweepConfig sets the sweeper's grace periods.
type SweepConfig struct {
	// Abandoned: a gateway claim (recipient_claims) not renewed this long belongs to
	// a dead gateway. Its recipients within the claim's grant may have reached the
	// SMSC: they are taken as submitted with an unknown outcome and never resent.
	// The others were never handed to the SMSC: they are queued again.
	Abandoned time.Duration
	// Stalled: a sending send untouched this long has its queued batches
	// re-enqueued when no task for them exists any more.
	Stalled time.Duration
	// NoReceipt: an unknown-outcome recipient with no receipt after this long is
	// final as not reached; pending receipts older than this are dropped.
	NoReceipt time.Duration
	// Orphaned: a batch task active in asynq with no live server working on it
	// this long was taken by a gateway that died (orphans.go); its batch is
	// enqueued again. More than a heartbeat of asynq's (5 s): a live server
	// lists a task it started within one. 0 means DefaultOrphaned.
	Orphaned time.Duration
}

// DefaultOrphaned is SweepConfig.Orphaned's default.
const DefaultOrphaned = 10 * time.Second

// DefaultSweep is the production setting.
var DefaultSweep = SweepConfig{Abandoned: 2 * time.Minute, Stalled: time.Minute, NoReceipt: 48 * time.Hour, Orphaned: DefaultOrphaned}

// sweepLimit bounds the rows of each kind one pass takes.
const sweepLimit = 1000

// Sweep runs one pass of the stuck-work sweeper and returns what it did. Every
// query it runs every pass reads a small table or a partial index: recipients has
// no status index (their status changes are HOT updates), so a send's recipients
// are read only when its counters say it is complete, or once per Stalled when it
// has been idle that long.
func (s *Service) Sweep(ctx context.Context, tasks TaskLookup, c SweepConfig) (map[string]int, error) {
	did := map[string]int{}
	steps := []func() error{
		func() error { return s.sweepClaims(ctx, c, did) },      // claims of dead gateways
		func() error { return s.sweepNoReceipt(ctx, c, did) },   // unknown outcomes never reconciled
		func() error { return s.sweepQuiet(ctx, c, did) },       // receipts a quiet send still waits for
		func() error { s.dropPending(ctx, c, did); return nil }, // pending receipts past the wait
		func() error { return s.sweepIdle(ctx, tasks, c, did) }, // batches whose task is gone
		func() error { return s.sweepOrphans(ctx, tasks, c.Orphaned, did) },
		func() error { return s.sweepExpands(ctx, tasks, c, did) },
		func() error { return s.sweepFinished(ctx, did) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return did, err
		}
	}
	return did, nil
}

// sweepNoReceipt makes final (not reached handset) the unknown outcomes that never
// got a receipt within NoReceipt.
func (s *Service) sweepNoReceipt(ctx context.Context, c SweepConfig, did map[string]int) error {
	rows, err := s.pool.Query(ctx, `WITH x AS (
			UPDATE recipients SET status = 3, unknown = false, error = 'no-receipt', done_at = now(), updated_at = now()
			WHERE unknown AND status IN (0, 1) AND submitted_at < now() - $1::interval RETURNING send_id)
		SELECT send_id, count(*) FROM x GROUP BY send_id`, c.NoReceipt)
	if err != nil {
		return fmt.Errorf("sweep no-receipt: %w", err)
	}
	ids, counts, err := perSend(rows)
	if err != nil {
		return err
	}
	did["no_receipt"] = sum(counts)
	if err := addToSends(ctx, s.pool, "undelivered", ids, counts); err != nil {
		return fmt.Errorf("sweep no-receipt: %w", err)
	}
	return nil
}

// dropPending drops the pending receipts older than NoReceipt; a failure waits
// for the next pass.
func (s *Service) dropPending(ctx context.Context, c SweepConfig, did map[string]int) {
	if tag, err := s.pool.Exec(ctx, `DELETE FROM pending_receipts WHERE received_at < now() - $1::interval`, c.NoReceipt); err == nil {
		did["pending_dropped"] = int(tag.RowsAffected())
	}
}

// sweepExpands enqueues again the expansion of accepted sends whose expand task
// was lost (none live after Stalled).
func (s *Service) sweepExpands(ctx context.Context, tasks TaskLookup, c SweepConfig, did map[string]int) error {
	rows, err := s.pool.Query(ctx, `SELECT id, type FROM sends WHERE status = 'queued' AND expanded_at IS NULL
		AND created_at < now() - $1::interval LIMIT 1000`, c.Stalled)
	if err != nil {
		return fmt.Errorf("sweep queued: %w", err)
	}
	type q struct {
		id  int64
		typ string
	}
	qs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (q, error) {
		var x q
		return x, r.Scan(&x.id, &x.typ)
	})
	if err != nil {
		return fmt.Errorf("sweep queued: %w", err)
	}
	for _, x := range qs {
		queue := jobs.QueueDefault
		if IsCritical(x.typ) {
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
	return nil
}

// sweepFinished finalises the sends whose counters say nothing waits for a
// gateway any more (every recipient submitted or rejected): refund what was never
// sent, close. Finalize checks the recipients themselves.
func (s *Service) sweepFinished(ctx context.Context, did map[string]int) error {
	rows, err := s.pool.Query(ctx, `SELECT id FROM sends WHERE status IN ('sending', 'stopped') AND finished_at IS NULL
		AND expanded_at IS NOT NULL AND submitted + rejected >= recipients LIMIT 1000`)
	if err != nil {
		return fmt.Errorf("sweep finalize: %w", err)
	}
	fin, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return fmt.Errorf("sweep finalize: %w", err)
	}
	for _, id := range fin {
		s.finalize(ctx, id, did)
	}
	return nil
}

func (s *Service) finalize(ctx context.Context, id int64, did map[string]int) {
	if ok, err := s.Finalize(ctx, id); err != nil {
		slog.WarnContext(ctx, "finalize", "send", id, "err", err)
	} else if ok {
		did["finalized"]++
	}
}

// sweepQuiet makes final (not reached, error no-receipt) the recipients still
// sent or reached telecom (status 0 or 1) NoReceipt after their submit, in the
// sends whose counters say some recipient waits and that nothing changed for
// NoReceipt: no receipt will come any more, whatever became of it (a receipt
// an SMSC sent for a reused id before its submit response, one lost on the way).
// It looks at most once per Stalled: the sends table has no index for it.
func (s *Service) sweepQuiet(ctx context.Context, c SweepConfig, did map[string]int) error {
	now := time.Now()
	if last := s.quietSwept.Load(); last != 0 && now.Sub(time.Unix(0, last)) < c.Stalled {
		return nil
	}
	s.quietSwept.Store(now.UnixNano())
	rows, err := s.pool.Query(ctx, `WITH q AS (
			SELECT id FROM sends WHERE submitted > delivered + undelivered AND expanded_at IS NOT NULL
			AND updated_at < now() - $1::interval ORDER BY id LIMIT 100),
		x AS (
			UPDATE recipients r SET status = 3, unknown = false, error = 'no-receipt', done_at = now(), updated_at = now()
			FROM q WHERE r.send_id = q.id AND r.status IN (0, 1) AND r.submitted_at < now() - $1::interval
			RETURNING r.send_id)
		SELECT send_id, count(*) FROM x GROUP BY send_id`, c.NoReceipt)
	if err != nil {
		return fmt.Errorf("sweep quiet sends: %w", err)
	}
	ids, counts, err := perSend(rows)
	if err != nil {
		return fmt.Errorf("sweep quiet sends: %w", err)
	}
	did["no_receipt"] += sum(counts)
	return addToSends(ctx, s.pool, "undelivered", ids, counts)
}

// takenClaim is a dead gateway's claim the sweeper took over.
type takenClaim struct {
	sendID   int64
	batch    int
	operator string
	ids      []int64
	handed   int
	status   string // the send's
	typ      string
}

// sweepClaims settles the claims of gateways that stopped renewing them: the
// recipients within the grant become submitted with an unknown outcome; the rest
// go back to the queue (their batch is enqueued again), or are rejected as
// stopped when the send was stopped meanwhile.
func (s *Service) sweepClaims(ctx context.Context, c SweepConfig, did map[string]int) error {
	var taken []takenClaim
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM recipient_claims c USING sends s
			WHERE c.id IN (SELECT id FROM recipient_claims WHERE renewed_at < now() - $1::interval
				ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED) AND s.id = c.send_id
			RETURNING c.send_id, c.batch, c.operator, c.ids, c.handed, s.status, s.type`, c.Abandoned)
		if err != nil {
			return fmt.Errorf("take abandoned claims: %w", err)
		}
		taken, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (takenClaim, error) {
			var t takenClaim
			err := r.Scan(&t.sendID, &t.batch, &t.operator, &t.ids, &t.handed, &t.status, &t.typ)
			return t, err
		})
		if err != nil {
			return fmt.Errorf("take abandoned claims: %w", err)
		}
		var unknownIDs, queueIDs, stopIDs []int64
		for _, t := range taken {
			h := min(max(t.handed, 0), len(t.ids))
			unknownIDs = append(unknownIDs, t.ids[:h]...)
			if t.status == StatusStopped || t.status == StatusFailed {
				stopIDs = append(stopIDs, t.ids[h:]...)
			} else {
				queueIDs = append(queueIDs, t.ids[h:]...)
			}
		}
		subSends, sub, err := updateClaimed(ctx, tx, `status = 0, unknown = true, submitted_at = coalesce(submitted_at, now())`, unknownIDs)
		if err != nil {
			return fmt.Errorf("abandoned claims: unknown outcomes: %w", err)
		}
		rejSends, rej, err := updateClaimed(ctx, tx, `status = 6, error = 'stopped', done_at = now()`, stopIDs)
		if err != nil {
			return fmt.Errorf("abandoned claims: stopped: %w", err)
		}
		// A claim in rows mode moved its recipients to 7; in ranges mode they are 5.
		var requeued int
		if err := tx.QueryRow(ctx, `WITH x AS (UPDATE recipients SET status = 5, updated_at = now()
				WHERE id = ANY($1::bigint[]) AND status = 7 RETURNING 1)
			SELECT (SELECT count(*) FROM x) + (SELECT count(*) FROM recipients WHERE id = ANY($1::bigint[]) AND status = 5)`,
			queueIDs).Scan(&requeued); err != nil {
			return fmt.Errorf("abandoned claims: queue again: %w", err)
		}
		did["abandoned"] = sum(sub)
		did["requeued"] = requeued
		did["stopped"] = sum(rej)
		if err := addToSends(ctx, tx, "submitted", subSends, sub); err != nil {
			return fmt.Errorf("abandoned claims: %w", err)
		}
		if err := addToSends(ctx, tx, "rejected", rejSends, rej); err != nil {
			return fmt.Errorf("abandoned claims: %w", err)
		}
		if err := addToSends(ctx, tx, "stopped", rejSends, rej); err != nil {
			return fmt.Errorf("abandoned claims: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	suffix := "claim" + strconv.FormatInt(time.Now().UnixNano(), 36)
	for _, t := range taken {
		if t.status != StatusSending || t.handed >= len(t.ids) {
			continue // a paused send is enqueued again by its resume
		}
		if err := s.enqueueBatches(ctx, t.sendID, []batchKey{{operator: t.operator, batch: t.batch}},
			IsCritical(t.typ), suffix); err == nil {
			did["batches_requeued"]++
		}
	}
	return nil
}

// unclaimed is the SQL condition that a queued recipient of send $1 is in no live
// claim: a queued recipient a claim names is being submitted (migrations/0198).
const unclaimed = `id NOT IN (SELECT unnest(c.ids) FROM recipient_claims c WHERE c.send_id = $1)`

// updateClaimed sets the recipients of ids (of a claim just taken) still claimed
// — queued or submitting (5 or 7): not recorded, not stopped — and counts them
// per send.
func updateClaimed(ctx context.Context, tx pgx.Tx, set string, ids []int64) ([]int64, []int32, error) {
	rows, err := tx.Query(ctx, `WITH x AS (
			UPDATE recipients SET `+set+`, updated_at = now() WHERE id = ANY($1::bigint[]) AND status IN (5, 7) RETURNING send_id)
		SELECT send_id, count(*) FROM x GROUP BY send_id`, ids)
	if err != nil {
		return nil, nil, err
	}
	return perSend(rows)
}

// addToSends adds per-send counts to a counter column of sends.
func addToSends(ctx context.Context, tx interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, column string, ids []int64, counts []int32) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE sends s SET `+column+` = s.`+column+` + u.n, updated_at = now()
		FROM unnest($1::bigint[], $2::int[]) AS u(id, n) WHERE s.id = u.id`, ids, counts); err != nil {
		return fmt.Errorf("count %s: %w", column, err)
	}
	return nil
}

// sweepIdle looks at the sends nothing happened to for Stalled, each at most once
// per Stalled: recipients claimed before recipient_claims existed and left by a
// dead gateway become unknown, batches with queued recipients whose task is gone
// are enqueued again, and a send with nothing waiting is finalized.
func (s *Service) sweepIdle(ctx context.Context, tasks TaskLookup, c SweepConfig, did map[string]int) error {
	rows, err := s.pool.Query(ctx, `UPDATE sends SET swept_at = now()
		WHERE id IN (SELECT id FROM sends WHERE status IN ('sending', 'stopped') AND expanded_at IS NOT NULL
			AND finished_at IS NULL AND updated_at < now() - $1::interval
			AND (swept_at IS NULL OR swept_at < now() - $1::interval)
			ORDER BY id LIMIT 100 FOR NO KEY UPDATE SKIP LOCKED)
		RETURNING id, type, status`, c.Stalled)
	if err != nil {
		return fmt.Errorf("sweep idle: %w", err)
	}
	type idle struct {
		id          int64
		typ, status string
	}
	sends, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (idle, error) {
		var x idle
		err := r.Scan(&x.id, &x.typ, &x.status)
		return x, err
	})
	if err != nil {
		return fmt.Errorf("sweep idle: %w", err)
	}
	for _, x := range sends {
		var n int32
		if err := s.pool.QueryRow(ctx, `WITH x AS (
				UPDATE recipients r SET status = 0, unknown = true, submitted_at = coalesce(submitted_at, now()), updated_at = now()
				WHERE r.send_id = $1 AND r.status = 7 AND r.updated_at < now() - $2::interval
				AND NOT EXISTS (SELECT 1 FROM recipient_claims c WHERE c.send_id = r.send_id AND r.id = ANY(c.ids))
				RETURNING 1)
			SELECT count(*) FROM x`, x.id, c.Abandoned).Scan(&n); err != nil {
			return fmt.Errorf("sweep idle: unclaimed: %w", err)
		}
		if n > 0 {
			did["abandoned"] += int(n)
			if err := addToSends(ctx, s.pool, "submitted", []int64{x.id}, []int32{n}); err != nil {
				return fmt.Errorf("sweep idle: %w", err)
			}
		}
		rows, err := s.pool.Query(ctx, `SELECT operator, batch, bool_or(status = 5 AND `+unclaimed+`) FROM recipients
			WHERE send_id = $1 AND status IN (5, 7) GROUP BY operator, batch`, x.id)
		if err != nil {
			return fmt.Errorf("sweep idle: batches: %w", err)
		}
		type waiting struct {
			key    batchKey
			queued bool
		}
		ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (waiting, error) {
			var w waiting
			err := r.Scan(&w.key.operator, &w.key.batch, &w.queued)
			return w, err
		})
		if err != nil {
			return fmt.Errorf("sweep idle: batches: %w", err)
		}
		if len(ws) == 0 {
			s.finalize(ctx, x.id, did)
			continue
		}
		if x.status != StatusSending {
			continue
		}
		critical := IsCritical(x.typ)
		for _, w := range ws {
			if !w.queued {
				continue
			}
			q := jobs.CarrierQueue(w.key.operator)
			if critical {
				q = jobs.CarrierQueueCritical(w.key.operator)
			}
			if live(tasks, q, fmt.Sprintf("batch:%d:%d", x.id, w.key.batch)) {
				continue
			}
			suffix := "sweep" + strconv.FormatInt(time.Now().Unix()/60, 10)
			if live(tasks, q, fmt.Sprintf("batch:%d:%d:%s", x.id, w.key.batch, suffix)) {
				continue
			}
			if err := s.enqueueBatches(ctx, x.id, []batchKey{w.key}, critical, suffix); err == nil {
				did["batches_requeued"]++
			}
		}
	}
	return nil
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
