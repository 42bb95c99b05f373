// Package rollup keeps the daily rollups behind the dashboard charts and reads
// them: sends, parts, spend and inbound per Tehran day, and recipients per
// operator per day (migration 0065, docs/dashboard.md#charts).
//
// The engine marks what changed (row triggers on sends and inbox); Run
// recomputes just the marked sends and days, so the dashboard never scans
// recipients and the job's cost follows what moved, not what exists.
package rollup

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/periodic"
)

// Batch bounds the sends (and days) one step of Run takes.
const Batch = 200

// lockKey is the advisory lock that keeps two workers from rolling up at once.
const lockKey = 0x726f6c6c7570 // "rollup"

// Job rolls up the marked sends and days.
type Job struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	// Session holds the job's lock across its steps: behind a transaction
	// pooler, a pool to the primary itself (db.Settings.OpenSession); nil: the
	// job's pool.
	Session *pgxpool.Pool
}

// NewJob builds the job.
func NewJob(pool *pgxpool.Pool, log *slog.Logger) *Job { return &Job{pool: pool, log: log} }

// Loop runs the job every period until ctx ends.
func (j *Job) Loop(ctx context.Context, every time.Duration) {
	periodic.Every(ctx, time.Second, every, func(ctx context.Context) {
		if n, err := j.Run(ctx); err != nil {
			j.log.WarnContext(ctx, "rollup", "err", err)
		} else if n > 0 {
			j.log.DebugContext(ctx, "rollup", "sends", n)
		}
	})
}

// Run rolls up everything marked so far and returns how many sends it
// recomputed. Another worker already running the job makes it a no-op.
func (j *Job) Run(ctx context.Context) (int, error) {
	session := j.Session
	if session == nil {
		session = j.pool
	}
	conn, err := session.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("rollup: %w", err)
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey).Scan(&got); err != nil || !got {
		return 0, err
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	total := 0
	for {
		n, err := j.sendsStep(ctx)
		total += n
		if err != nil || n < Batch {
			if err != nil {
				return total, err
			}
			break
		}
	}
	for {
		n, err := j.daysStep(ctx)
		if err != nil || n < Batch {
			return total, err
		}
	}
}

// sendsStep recomputes up to Batch marked sends, in one transaction: the marks
// are taken, each send's rows replaced, and the days they were and are on marked.
func (j *Job) sendsStep(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM rollup_dirty_sends WHERE send_id IN (
			SELECT send_id FROM rollup_dirty_sends ORDER BY send_id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING send_id`, Batch)
		if err != nil {
			return fmt.Errorf("take marked sends: %w", err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return fmt.Errorf("take marked sends: %w", err)
		}
		n = len(ids)
		if n == 0 {
			return nil
		}
		return recomputeSends(ctx, tx, ids)
	})
	return n, err
}

// sendDay is the Tehran day a send counts on.
const sendDay = `(coalesce(s.send_at, s.created_at) AT TIME ZONE 'Asia/Tehran')::date`

// recomputeSends replaces the rollup rows of the sends: the old days are
// marked first (a rescheduled send moves), then the new rows are written and
// their days marked.
func recomputeSends(ctx context.Context, tx pgx.Tx, ids []int64) error {
	steps := []struct{ name, sql string }{
		{"mark old days", `INSERT INTO rollup_dirty_days (account_id, day)
			SELECT account_id, day FROM rollup_sends WHERE send_id = ANY($1) ON CONFLICT DO NOTHING`},
		{"clear sends", `DELETE FROM rollup_sends WHERE send_id = ANY($1)`},
		{"clear operators", `DELETE FROM rollup_send_ops WHERE send_id = ANY($1)`},
		{"send rows", `INSERT INTO rollup_sends (send_id, account_id, day, parts, spend)
			SELECT s.id, s.account_id, ` + sendDay + `, s.total_parts, s.cost - s.refunded
			FROM sends s WHERE s.id = ANY($1) AND s.expanded_at IS NOT NULL AND NOT s.sandbox AND s.type <> 'verification'`},
		{"operator rows", `INSERT INTO rollup_send_ops (send_id, operator, recipients, sent, delivered, undelivered, rejected, parts)
			SELECT r.send_id, r.operator, count(*), count(*) FILTER (WHERE r.status IN (0, 1, 2, 3)),
				count(*) FILTER (WHERE r.status = 2), count(*) FILTER (WHERE r.status = 3),
				count(*) FILTER (WHERE r.status = 6), sum(r.parts)
			FROM recipients r JOIN rollup_sends rs ON rs.send_id = r.send_id
			WHERE r.send_id = ANY($1) GROUP BY r.send_id, r.operator`},
		{"mark new days", `INSERT INTO rollup_dirty_days (account_id, day)
			SELECT account_id, day FROM rollup_sends WHERE send_id = ANY($1) ON CONFLICT DO NOTHING`},
	}
	for _, st := range steps {
		if _, err := tx.Exec(ctx, st.sql, ids); err != nil {
			return fmt.Errorf("rollup %s: %w", st.name, err)
		}
	}
	return nil
}

// daysStep recomputes up to Batch marked days from the per-send rows and the inbox.
func (j *Job) daysStep(ctx context.Context) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM rollup_dirty_days WHERE (account_id, day) IN (
				SELECT account_id, day FROM rollup_dirty_days ORDER BY account_id, day LIMIT $1 FOR UPDATE SKIP LOCKED)
			RETURNING account_id, day`, Batch)
		if err != nil {
			return fmt.Errorf("take marked days: %w", err)
		}
		var accts []int64
		var days []time.Time
		var a int64
		var d time.Time
		if _, err := pgx.ForEachRow(rows, []any{&a, &d}, func() error {
			accts, days = append(accts, a), append(days, d)
			return nil
		}); err != nil {
			return fmt.Errorf("take marked days: %w", err)
		}
		n = len(accts)
		if n == 0 {
			return nil
		}
		return recomputeDays(ctx, tx, accts, days)
	})
	return n, err
}

// recomputeDays replaces the rollup_days and rollup_day_ops rows of the
// marked (account, day) pairs. A day with nothing left loses its rows.
func recomputeDays(ctx context.Context, tx pgx.Tx, accts []int64, days []time.Time) error {
	steps := []struct{ name, sql string }{
		{"clear days", `DELETE FROM rollup_days d USING x WHERE d.account_id = x.account_id AND d.day = x.day`},
		{"clear day operators", `DELETE FROM rollup_day_ops d USING x WHERE d.account_id = x.account_id AND d.day = x.day`},
		{"days", `INSERT INTO rollup_days (account_id, day, sends, recipients, parts, delivered, undelivered, spend, inbound)
			SELECT x.account_id, x.day, coalesce(s.sends, 0), coalesce(o.recipients, 0), coalesce(s.parts, 0),
				coalesce(o.delivered, 0), coalesce(o.undelivered, 0), coalesce(s.spend, 0), coalesce(i.inbound, 0)
			FROM x
			LEFT JOIN LATERAL (SELECT count(*) AS sends, sum(parts) AS parts, sum(spend) AS spend
				FROM rollup_sends rs WHERE rs.account_id = x.account_id AND rs.day = x.day) s ON true
			LEFT JOIN LATERAL (SELECT sum(so.recipients) AS recipients, sum(so.delivered) AS delivered, sum(so.undelivered) AS undelivered
				FROM rollup_sends rs JOIN rollup_send_ops so ON so.send_id = rs.send_id
				WHERE rs.account_id = x.account_id AND rs.day = x.day) o ON true
			LEFT JOIN LATERAL (SELECT count(*) AS inbound FROM inbox ib WHERE ib.account_id = x.account_id
				AND ib.received_at >= (x.day::timestamp AT TIME ZONE 'Asia/Tehran')
				AND ib.received_at < ((x.day + 1)::timestamp AT TIME ZONE 'Asia/Tehran')) i ON true
			WHERE s.sends > 0 OR i.inbound > 0`},
		{"day operators", `INSERT INTO rollup_day_ops (account_id, day, operator, recipients, sent, delivered, undelivered)
			SELECT rs.account_id, rs.day, so.operator, sum(so.recipients), sum(so.sent), sum(so.delivered), sum(so.undelivered)
			FROM x JOIN rollup_sends rs ON rs.account_id = x.account_id AND rs.day = x.day
			JOIN rollup_send_ops so ON so.send_id = rs.send_id
			GROUP BY rs.account_id, rs.day, so.operator`},
	}
	for _, st := range steps {
		if _, err := tx.Exec(ctx, `WITH x AS (SELECT * FROM unnest($1::bigint[], $2::date[]) AS x(account_id, day)) `+st.sql, accts, days); err != nil {
			return fmt.Errorf("rollup %s: %w", st.name, err)
		}
	}
	return nil
}
