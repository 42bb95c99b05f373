// Command smpp-gateway holds the SMPP binds to the carriers, submits the
// per-operator batch tasks and writes receipts and MO messages to the inbound
// stream (see pkg/gateway). It is configured from the environment: pkg/config
// for the database and Redis, gateway.LoadConfig for the binds. SIGINT or
// SIGTERM stops it gracefully. METRICS_ADDR (e.g. 9465: 127.0.0.1:9465; unset:
// off) serves its Prometheus metrics at /metrics (docs/metrics.md).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/metrics"
	"github.com/chapar/chapar/pkg/shortlink"
)

func main() {
	config.Main("smpp-gateway", func(ctx context.Context, cfg config.Config, log *slog.Logger) error {
		gcfg, err := gateway.LoadConfig(cfg.Profile, os.Getenv)
		if err != nil {
			return fmt.Errorf("configuration: %w", err)
		}
		gcfg.Quiet = cfg.TaskQuiet
		if os.Getenv("GOMAXPROCS") == "" && gcfg.Procs > 0 {
			runtime.GOMAXPROCS(gcfg.Procs)
		}
		return run(ctx, cfg, gcfg, log)
	})
}

func run(ctx context.Context, cfg config.Config, gcfg gateway.Config, log *slog.Logger) error {
	// Every concurrent batch (bulk and critical) holds a connection while it
	// claims or records; the recorder holds two.
	dbs := cfg.DB()
	dbs.URL = db.WithPoolSize(dbs.URL, gcfg.Concurrency+gcfg.CriticalConcurrency+2)
	pool, err := dbs.Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	rdb := cfg.RedisClient()
	defer rdb.Close()
	if err := rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis %s: %w", cfg.RedisAddr, err)
	}
	deps := gateway.Deps{Pool: pool, Redis: rdb, WaitReplicas: cfg.Redis.WaitReplicas, Asynq: cfg.AsynqRedis(), Log: log,
		Links: shortlink.New(cfg.ShortLinkBase, cfg.TokenSecret)}
	if cfg.MetricsAddr != "" {
		reg := metrics.NewRegistry()
		// Served until the process ends, so a scrape sees the drain too.
		if err := metrics.Start(context.WithoutCancel(ctx), cfg.MetricsAddr, reg, log); err != nil {
			return err
		}
		deps.Metrics = reg
	}
	gw, err := gateway.New(gcfg, deps)
	if err != nil {
		return err
	}
	return gw.Run(ctx)
}
