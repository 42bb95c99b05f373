// Package db owns the PostgreSQL connection pool and the schema migrations.
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

// Open connects a pool and checks the connection.
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {
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
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	// JIT compiles a query whose estimated cost passes jit_above_cost, on every
	// execution: tens of milliseconds for statements that then touch a few rows
	// (the partitioned recipients' estimates pass it easily). Measured on the
	// receipt path: 180 ms per call with it, a few with it off. A jit in the URL
	// (options=-c jit=on) still wins.
	if _, ok := cfg.ConnConfig.RuntimeParams["jit"]; !ok && !strings.Contains(url, "jit") {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	// Each process names itself (api, worker, smpp-gateway), so that
	// pg_stat_activity and the server's logs tell whose connection is whose; an
	// application_name in the URL still wins.
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = filepath.Base(os.Args[0])
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect database: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return pool, nil
}

// Tx runs fn in a transaction, committing when it returns nil.
func Tx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}
