package db

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// PoolerPgBouncer is the DATABASE_POOLER value of a PgBouncer (or any pooler)
// in transaction mode in front of the primary.
const PoolerPgBouncer = "pgbouncer"

// Settings say where a process's database connections go (pkg/config reads
// them from the DATABASE_* and REPLICA_* settings; docs/scaling.md).
type Settings struct {
	// URL is the primary, or the transaction pooler in front of it (DATABASE_URL).
	URL string
	// Pooler is PoolerPgBouncer when URL is a transaction pooler, else empty
	// (DATABASE_POOLER).
	Pooler string
	// DirectURL is the primary itself, for the work that needs a session of its
	// own (DATABASE_DIRECT_URL; empty: URL).
	DirectURL string
	// ReplicaURL is a streaming replica that reports, exports, the archive and
	// the dashboard charts may read from (DATABASE_REPLICA_URL; empty: none).
	ReplicaURL string
	// ReplicaMaxLag is how far behind the replica may fall before reads leave it
	// for the primary (REPLICA_MAX_LAG), and ReplicaWait how long one read waits
	// for the replica to replay what the primary had committed when the read
	// began (REPLICA_WAIT).
	ReplicaMaxLag, ReplicaWait time.Duration
}

// Pooled reports whether URL is a transaction pooler.
func (s Settings) Pooled() bool { return s.Pooler != "" }

// Open connects the process's main pool: URL, made fit for a transaction
// pooler when there is one.
func (s Settings) Open(ctx context.Context) (*pgxpool.Pool, error) {
	return open(ctx, s.URL, s.Pooled())
}

// sessionConns bounds the direct pool: a migrator, the rollup and history
// jobs' locks and a detach at most.
const sessionConns = 4

// OpenSession returns the pool for the work that needs one server session for
// several statements: migrations and the jobs' session advisory locks, and
// statements that cannot run in a transaction (DETACH … CONCURRENTLY after a
// SET). Without a pooler it is main itself and close does nothing; behind one
// it is a small pool to DirectURL.
func (s Settings) OpenSession(ctx context.Context, main *pgxpool.Pool) (pool *pgxpool.Pool, closeFn func(), err error) {
	if !s.Pooled() && (s.DirectURL == "" || s.DirectURL == s.URL) {
		return main, func() {}, nil
	}
	url := s.DirectURL
	if url == "" {
		url = s.URL
	}
	if pool, err = open(ctx, WithPoolSize(url, sessionConns), false); err != nil {
		return nil, nil, fmt.Errorf("direct database connection: %w", err)
	}
	return pool, pool.Close, nil
}

// OpenDirect connects a pool of its own to the primary itself, for a command
// that runs migrations.
func (s Settings) OpenDirect(ctx context.Context) (*pgxpool.Pool, error) {
	if s.DirectURL != "" {
		return open(ctx, s.DirectURL, false)
	}
	return open(ctx, s.URL, s.Pooled())
}

// WithPoolSize sets pgxpool's pool_max_conns on a database URL or keyword/value
// string that does not set it.
func WithPoolSize(dsn string, n int) string {
	switch {
	case strings.Contains(dsn, "pool_max_conns"):
		return dsn
	case strings.Contains(dsn, "://") && strings.Contains(dsn, "?"):
		return fmt.Sprintf("%s&pool_max_conns=%d", dsn, n)
	case strings.Contains(dsn, "://"):
		return fmt.Sprintf("%s?pool_max_conns=%d", dsn, n)
	default:
		return fmt.Sprintf("%s pool_max_conns=%d", dsn, n)
	}
}
