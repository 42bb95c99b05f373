// Package history keeps the per-recipient history partitioned by month
// (migration 0095, docs/partitions.md). A recipient's id carries its month
// (history_base(month) plus the sequence), so the recipients table is
// range-partitioned on id: every lookup by id is pruned to one partition, and a
// month is one table that is cheap to detach.
//
// The Job makes the partitions of the coming months ahead of time and archives
// months older than the retention: each is detached (CONCURRENTLY, so sends keep
// running), moved to the history_archive schema, and joined to the
// recipients_history view that reports read, so old sends keep their details
// while the hot table stays small.
package history

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/periodic"
)

// Defaults of the Job.
const (
	// DefaultAhead is how many months past this one always have their partition.
	DefaultAhead = 3
	// DefaultKeep is how many months stay attached (this one included); older
	// months are archived.
	DefaultKeep = 13
	// ArchiveSchema holds the detached months.
	ArchiveSchema = "history_archive"
)

// Partition is one month of recipients.
type Partition struct {
	Name     string `json:"name"`
	Schema   string `json:"schema"`
	Month    int    `json:"month"` // months since January 2020 (UTC); recipients_legacy: the month before the first partition
	Attached bool   `json:"attached"`
	Rows     int64  `json:"rows"` // the planner's estimate
	Bytes    int64  `json:"bytes"`
	pending  bool   // a concurrent detach was interrupted
}

// Job maintains the partitions.
type Job struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	// Ahead and Keep: see DefaultAhead and DefaultKeep. Keep < 1 never archives.
	Ahead, Keep int
	// Now is the clock (tests move it).
	Now func() time.Time
	// Session holds the job's lock and runs the detach, which need one server
	// session for several statements: behind a transaction pooler, a pool to the
	// primary itself (db.Settings.OpenSession); nil: the job's pool.
	Session *pgxpool.Pool
}

// session is the pool of the work that needs a session of its own.
func (j *Job) session() *pgxpool.Pool {
	if j.Session != nil {
		return j.Session
	}
	return j.pool
}

// NewJob returns a Job with the default ahead and keep.
func NewJob(pool *pgxpool.Pool, log *slog.Logger) *Job {
	return &Job{pool: pool, log: log, Ahead: DefaultAhead, Keep: DefaultKeep, Now: time.Now}
}

// Month is the history month of t: months since January 2020, UTC.
func Month(t time.Time) int {
	t = t.UTC()
	return (t.Year()-2020)*12 + int(t.Month()) - 1
}

// Base is the first recipient id of month m.
func Base(m int) int64 { return int64(m) << 42 }

// MonthOf is the month a recipient id belongs to (0 for ids from before
// partitioning, which are below every month's base).
func MonthOf(id int64) int { return int(id >> 42) }

// Loop runs Once now and then every period until ctx ends.
func (j *Job) Loop(ctx context.Context, every time.Duration) {
	periodic.Every(ctx, 0, every, func(ctx context.Context) {
		if err := j.Once(ctx); err != nil && ctx.Err() == nil {
			j.log.WarnContext(ctx, "history partitions", "err", err)
		}
	})
}

// lockKey is the advisory lock that lets one worker at a time run the job.
const lockKey = 0x68697374 // "hist"

// Once makes the missing partitions and archives the expired months. Another
// worker already running it makes it a no-op.
func (j *Job) Once(ctx context.Context) error {
	conn, err := j.session().Acquire(ctx)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey).Scan(&got); err != nil || !got {
		return err
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	made, err := j.Ensure(ctx)
	if err != nil {
		return err
	}
	if made > 0 {
		j.log.InfoContext(ctx, "history partitions made", "n", made)
	}
	archived, err := j.Archive(ctx)
	if len(archived) > 0 {
		j.log.InfoContext(ctx, "history months archived", "partitions", archived)
	}
	return err
}

// Ensure makes the partitions of this month and the next Ahead months that are
// missing and returns how many it made. It waits at most a second for the lock
// (sends keep the parent busy); the next run tries again.
func (j *Job) Ensure(ctx context.Context) (made int, err error) {
	err = pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '1s'`); err != nil {
			return err
		}
		m := Month(j.Now())
		return tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE made) FROM (
			SELECT ensure_month_partition(i) AS made FROM generate_series($1::int, $1::int + $2::int) i) x`,
			m, j.Ahead).Scan(&made)
	})
	if err != nil {
		return 0, fmt.Errorf("make history partitions: %w", err)
	}
	return made, nil
}

// Partitions lists the months, attached and archived, oldest first.
func (j *Job) Partitions(ctx context.Context) ([]Partition, error) {
	rows, err := j.pool.Query(ctx, qPartitions, ArchiveSchema)
	if err != nil {
		return nil, fmt.Errorf("list history partitions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Partition, error) {
		var p Partition
		err := r.Scan(&p.Name, &p.Schema, &p.Month, &p.Attached, &p.pending, &p.Rows, &p.Bytes)
		return p, err
	})
}

// qPartitions: recipients_legacy is the month before the first partitioned one.
const qPartitions = `
SELECT c.relname, n.nspname,
       CASE WHEN c.relname = 'recipients_legacy' THEN history_first_month() - 1
            ELSE (substr(c.relname, 13, 4)::int - 2020) * 12 + substr(c.relname, 17, 2)::int - 1 END,
       i.inhrelid IS NOT NULL, coalesce(i.inhdetachpending, false),
       greatest(c.reltuples, 0)::bigint, pg_total_relation_size(c.oid)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'public.recipients'::regclass
WHERE c.relkind = 'r' AND n.nspname IN ('public', $1)
  AND (c.relname = 'recipients_legacy' OR c.relname ~ '^recipients_p[0-9]{6}$')
ORDER BY 3`

// Archive moves every month older than the Keep most recent ones out of the hot
// table and returns the partitions it archived. A month is detached
// concurrently (sends go on; a detach interrupted by a crash is finalised on
// the next run), moved to the archive schema and joined to recipients_history.
func (j *Job) Archive(ctx context.Context) ([]string, error) {
	if j.Keep < 1 {
		return nil, nil
	}
	parts, err := j.Partitions(ctx)
	if err != nil {
		return nil, err
	}
	cutoff := Month(j.Now()) - j.Keep + 1
	var done []string
	for _, p := range parts {
		if p.Month >= cutoff || p.Schema == ArchiveSchema {
			continue
		}
		if err := j.archive(ctx, p); err != nil {
			return done, err
		}
		done = append(done, p.Name)
	}
	return done, nil
}

// archive detaches one month (when still attached) and moves it to the archive.
func (j *Job) archive(ctx context.Context, p Partition) error {
	if p.Attached {
		if err := j.detach(ctx, p); err != nil {
			return err
		}
	}
	return pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '5s'`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, fmt.Sprintf(`ALTER TABLE %s SET SCHEMA %s`,
			pgx.Identifier{p.Name}.Sanitize(), pgx.Identifier{ArchiveSchema}.Sanitize())); err != nil {
			return fmt.Errorf("archive %s: %w", p.Name, err)
		}
		return refreshView(ctx, tx)
	})
}

// detach takes the month out of recipients. DETACH … CONCURRENTLY cannot run in
// a transaction, so it runs alone on one connection with a lock time-out.
func (j *Job) detach(ctx context.Context, p Partition) error {
	conn, err := j.session().Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET lock_timeout = '5s'`); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `RESET lock_timeout`) //nolint:errcheck // best effort on a pooled connection
	how := "CONCURRENTLY"
	if p.pending {
		how = "FINALIZE"
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf(`ALTER TABLE recipients DETACH PARTITION %s %s`,
		pgx.Identifier{p.Name}.Sanitize(), how)); err != nil {
		return fmt.Errorf("detach %s: %w", p.Name, err)
	}
	return nil
}

// refreshView redefines recipients_history as the attached months and every
// archived one.
func refreshView(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, ArchiveSchema)
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	q := []string{"SELECT * FROM recipients"}
	for _, n := range names {
		q = append(q, "SELECT * FROM "+pgx.Identifier{ArchiveSchema, n}.Sanitize())
	}
	if _, err := tx.Exec(ctx, `DROP VIEW IF EXISTS recipients_history`); err != nil {
		return fmt.Errorf("history view: %w", err)
	}
	if _, err := tx.Exec(ctx, "CREATE VIEW recipients_history AS "+strings.Join(q, " UNION ALL ")); err != nil {
		return fmt.Errorf("history view: %w", err)
	}
	return nil
}
