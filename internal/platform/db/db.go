// Package db owns the PostgreSQL connection pools and the schema migrations:
// the main pool (straight to the primary, or through a transaction pooler such
// as PgBouncer), the direct pool of the work that needs a session of its own,
// and the routing of reports' reads to a streaming replica (Settings, Reads).
//
// Migrations are the numbered NNNN_name.up.sql / .down.sql files of the top-level
// migrations folder, embedded into the binaries and recorded in schema_migrations.
package db

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Open connects a pool straight to PostgreSQL and checks the connection.
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) { return open(ctx, url, false) }

// open connects a pool; pooled says the URL is a transaction pooler (PgBouncer
// with pool_mode=transaction), whose server connections change between
// transactions: statements are then not prepared on the server and no startup
// parameter the pooler refuses is sent.
func open(ctx context.Context, url string, pooled bool) (*pgxpool.Pool, error) {
	pool, err := newPool(url, pooled)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return pool, nil
}

// newPool builds a pool without connecting it.
func newPool(url string, pooled bool) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	// pgx defaults to max(4, CPUs) connections, too few for a process whose
	// transactions, consumers and sweepers run side by side; a pool_max_conns in the
	// URL still wins.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = 20
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	setRuntimeParams(cfg.ConnConfig, url, pooled)
	if pooled && !strings.Contains(url, "default_query_exec_mode") {
		// A named prepared statement lives on one server connection, which the
		// pooler gives to another client after the transaction; the unnamed one
		// is parsed again with every execution, and pgx caches only the
		// statement's description (its parameter and column types).
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("connect database: %w", err)
	}
	return pool, nil
}

// setRuntimeParams sets the session settings every connection starts with.
func setRuntimeParams(cc *pgx.ConnConfig, url string, pooled bool) {
	cc.RuntimeParams["timezone"] = "UTC"
	// JIT compiles a query whose estimated cost passes jit_above_cost, on every
	// execution: tens of milliseconds for statements that then touch a few rows
	// (the partitioned recipients' estimates pass it easily). Measured on the
	// receipt path: 180 ms per call with it, a few with it off. A jit in the URL
	// (options=-c jit=on) still wins. PgBouncer refuses a jit startup parameter:
	// behind it the database or role sets it (ALTER DATABASE … SET jit = off).
	if _, ok := cc.RuntimeParams["jit"]; !ok && !pooled && !strings.Contains(url, "jit") {
		cc.RuntimeParams["jit"] = "off"
	}
	// Each process names itself (api, worker, smpp-gateway), so that
	// pg_stat_activity and the server's logs tell whose connection is whose; an
	// application_name in the URL still wins.
	if _, ok := cc.RuntimeParams["application_name"]; !ok {
		cc.RuntimeParams["application_name"] = filepath.Base(os.Args[0])
	}
}

// Tx runs fn in a transaction, committing when it returns nil.
func Tx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}
