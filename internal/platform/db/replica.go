package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Reads routes the reads that may come from a streaming replica (reports,
// exports, the archive, the dashboard charts) and falls back to the primary.
// A read goes to the replica only when the replica answers, is within the lag
// bound, and has replayed everything the primary had committed when the read
// began (its replay LSN has reached the primary's WAL position), waiting up to
// the wait bound for that; otherwise it reads the primary. So a report read
// right after a send completes shows the send complete.
type Reads struct {
	primary, replica *pgxpool.Pool
	maxLag, wait     time.Duration

	checking atomic.Bool
	mu       sync.Mutex
	checked  time.Time // when the replica's state was last measured
	healthy  bool      // the replica answered, in recovery, within maxLag
	replayed int64     // the replica's replay LSN last seen (bytes)

	// onReplica and onPrimary count the reads each served (Counts).
	onReplica, onPrimary atomic.Int64
}

// Querier runs reads: a pool, or Reads.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// healthEvery is how often a read measures the replica's state again.
const healthEvery = time.Second

// replicaPoll is how often a read waiting for the replica looks at its replay LSN.
const replicaPoll = 5 * time.Millisecond

// OpenReads connects the replica of s (without waiting for it: an unreachable
// replica only sends reads to the primary) and returns the router over it and
// primary; with no replica configured it is nil, and the readers use the primary.
func (s Settings) OpenReads(primary *pgxpool.Pool) (*Reads, error) {
	if s.ReplicaURL == "" {
		return nil, nil
	}
	replica, err := newPool(s.ReplicaURL, false)
	if err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	return NewReads(primary, replica, s.ReplicaMaxLag, s.ReplicaWait), nil
}

// NewReads routes reads between primary and replica with the lag and wait bounds.
func NewReads(primary, replica *pgxpool.Pool, maxLag, wait time.Duration) *Reads {
	return &Reads{primary: primary, replica: replica, maxLag: maxLag, wait: wait}
}

// Close closes the replica's pool (the primary is its owner's to close).
func (r *Reads) Close() { r.replica.Close() }

// Pool is the pool one read should use now: the replica when it is healthy and
// has caught up with the primary's position, else the primary.
func (r *Reads) Pool(ctx context.Context) *pgxpool.Pool {
	if r.replicaReady(ctx) {
		r.onReplica.Add(1)
		return r.replica
	}
	r.onPrimary.Add(1)
	return r.primary
}

// Counts is how many reads Pool sent to the replica and to the primary so far
// (a read retried on the primary counts on both).
func (r *Reads) Counts() (replica, primary int64) { return r.onReplica.Load(), r.onPrimary.Load() }

// replicaReady: the replica is healthy and has replayed the primary's position.
func (r *Reads) replicaReady(ctx context.Context) bool {
	if !r.health(ctx) {
		return false
	}
	var target int64
	if err := r.primary.QueryRow(ctx, qPrimaryLSN).Scan(&target); err != nil {
		return false
	}
	return r.caughtUp(ctx, target)
}

// Query runs a read on Pool's choice; a replica that cannot be reached is
// marked down and the read runs on the primary.
func (r *Reads) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	p := r.Pool(ctx)
	rows, err := p.Query(ctx, sql, args...)
	if p != r.primary && r.failed(ctx, err) {
		r.onPrimary.Add(1)
		return r.primary.Query(ctx, sql, args...)
	}
	return rows, err
}

// QueryRow runs a one-row read on Pool's choice, as Query does.
func (r *Reads) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return routedRow{r: r, ctx: ctx, sql: sql, args: args}
}

type routedRow struct {
	r    *Reads
	ctx  context.Context
	sql  string
	args []any
}

// Scan reads the row, from the primary when the replica cannot be reached.
func (w routedRow) Scan(dst ...any) error {
	p := w.r.Pool(w.ctx)
	err := p.QueryRow(w.ctx, w.sql, w.args...).Scan(dst...)
	if p != w.r.primary && w.r.failed(w.ctx, err) {
		w.r.onPrimary.Add(1)
		return w.r.primary.QueryRow(w.ctx, w.sql, w.args...).Scan(dst...)
	}
	return err
}

// failed reports whether a read on the replica failed so that it should run on
// the primary: anything but an empty result or the caller's own cancellation
// (a read cancelled by a conflict with recovery, too). A replica that cannot
// be reached, or is shutting down or out of connections, is marked down until
// the next measurement.
func (r *Reads) failed(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, pgx.ErrNoRows) {
		return false
	}
	if unreachable(err) {
		r.down()
	}
	return true
}

// unreachable tells a server that cannot serve (no connection; classes 08
// connection, 53 resources, 57 operator intervention such as a shutdown, 58
// system) from one that answered with an error.
func unreachable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true
	}
	class := pgErr.Code
	if len(class) > 2 {
		class = class[:2]
	}
	switch class {
	case "08", "53", "57", "58":
		return true
	}
	return false
}

// down marks the replica unhealthy until the next measurement.
func (r *Reads) down() {
	r.mu.Lock()
	r.healthy, r.checked = false, time.Now()
	r.mu.Unlock()
}

// The primary's WAL position and the replica's replay position and lag, in bytes
// and seconds; a server not in recovery has no replay position (-1). The
// primary's position is where its next WAL record goes: past every commit,
// asynchronous ones (synchronous_commit = off) included.
const (
	qPrimaryLSN = `SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint`
	qReplica    = `SELECT coalesce((pg_last_wal_replay_lsn() - '0/0')::bigint, -1),
		coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)::float8`
	qReplayed = `SELECT coalesce((pg_last_wal_replay_lsn() - '0/0')::bigint, -1)`
)

// health reports the replica's last measured state, measuring it again when it
// is older than healthEvery (one read measures; the others use the last state).
func (r *Reads) health(ctx context.Context) bool {
	r.mu.Lock()
	healthy, fresh := r.healthy, time.Since(r.checked) < healthEvery
	r.mu.Unlock()
	if fresh || !r.checking.CompareAndSwap(false, true) {
		return healthy
	}
	defer r.checking.Store(false)
	cctx, cancel := context.WithTimeout(ctx, healthEvery)
	defer cancel()
	healthy, replayed := r.measure(cctx)
	r.mu.Lock()
	r.healthy, r.checked = healthy, time.Now()
	if replayed > r.replayed {
		r.replayed = replayed
	}
	r.mu.Unlock()
	return healthy
}

// measure asks the primary its position and the replica how far it has
// replayed: a replica that has replayed the primary's position has no lag;
// one behind it lags by the age of the last transaction it replayed.
func (r *Reads) measure(ctx context.Context) (healthy bool, replayed int64) {
	var primaryLSN int64
	if err := r.primary.QueryRow(ctx, qPrimaryLSN).Scan(&primaryLSN); err != nil {
		return false, 0
	}
	var lag float64
	if err := r.replica.QueryRow(ctx, qReplica).Scan(&replayed, &lag); err != nil || replayed < 0 {
		return false, 0
	}
	if replayed >= primaryLSN {
		return true, replayed
	}
	return lag <= r.maxLag.Seconds(), replayed
}

// caughtUp waits up to the wait bound for the replica's replay LSN to reach target.
func (r *Reads) caughtUp(ctx context.Context, target int64) bool {
	r.mu.Lock()
	seen := r.replayed
	r.mu.Unlock()
	if seen >= target {
		return true
	}
	deadline := time.Now().Add(r.wait)
	for {
		var replayed int64
		if err := r.replica.QueryRow(ctx, qReplayed).Scan(&replayed); err != nil {
			r.failed(ctx, err)
			return false
		}
		r.mu.Lock()
		if replayed > r.replayed {
			r.replayed = replayed
		}
		r.mu.Unlock()
		if replayed >= target {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(replicaPoll):
		}
	}
}
