// Command api serves the REST API, the websocket and the embedded panel, and runs the
// operator commands: `api migrate up|down [n]|version`, `api seed-demo`, `api seed-bank [size]` and
// `api admin credit <username> <rials>` | `api admin staff add <username> [password] [mobile]`.
// METRICS_ADDR (e.g. 9466: 127.0.0.1:9466; unset: off) serves the API's Prometheus metrics
// at /metrics on a port of its own (docs/metrics.md).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/metrics"
)

func main() {
	config.Main("api", func(ctx context.Context, cfg config.Config, log *slog.Logger) error {
		args := os.Args[1:]
		cmd := "serve"
		if len(args) > 0 {
			cmd, args = args[0], args[1:]
		}
		switch cmd {
		case "serve":
			return serve(ctx, cfg, log)
		case "migrate":
			return migrate(ctx, cfg, args)
		case "seed-demo":
			return seedDemo(ctx, cfg)
		case "seed-bank":
			return seedBankCommand(ctx, cfg, args)
		case "admin":
			return admin(ctx, cfg, args)
		}
		return fmt.Errorf("unknown command %q (serve, migrate, seed-demo, seed-bank, admin)", cmd)
	})
}

func serve(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	rdb := cfg.RedisClient()
	defer rdb.Close()
	queue := asynq.NewClient(cfg.AsynqRedis())
	defer queue.Close()

	pub := live.NewPublisher(rdb, "")
	deps := httpapi.Wire(cfg, log, pool, rdb, queue, func(ctx context.Context, accountID, balance int64) {
		_ = pub.Publish(ctx, accountID, live.EventCreditChanged, map[string]int64{"credit": balance})
	})
	closeReads, err := readFromReplica(cfg, pool, &deps, log)
	if err != nil {
		return err
	}
	defer closeReads()
	if cfg.MetricsAddr != "" {
		reg := metrics.NewRegistry()
		deps.Metrics = reg
		deps.Live.Instrument(reg)
		if err := metrics.Start(ctx, cfg.MetricsAddr, reg, log); err != nil {
			return err
		}
	}
	go func() { _ = deps.Live.Run(ctx) }() // closes the sockets when ctx ends
	go func() { _ = deps.Auth.WatchRevocations(ctx, deps.Live.CloseSessions) }()
	go deps.Links.Run(ctx) // the short links' click recorder
	if deps.CallLog != nil {
		go deps.CallLog.Run(ctx) // the API-call log's batch writer
	}
	deps.Ready["smpp"] = func(ctx context.Context) error { return gateway.AnyBound(ctx, rdb) }
	handler := httpapi.New(deps)
	srv := httpapi.NewHTTPServer(cfg, handler)
	ln, err := httpapi.Listen(cfg)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("api listening", "addr", "http://"+cfg.HTTPAddr, "profile", cfg.Profile)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("api shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// readFromReplica sends the reports' reads to DATABASE_REPLICA_URL when it is set
// (docs/scaling.md, "Reads from a streaming replica"); close closes its pool.
func readFromReplica(cfg config.Config, pool *pgxpool.Pool, deps *httpapi.Deps, log *slog.Logger) (closeFn func(), err error) {
	reads, err := cfg.DB().OpenReads(pool)
	if err != nil || reads == nil {
		return func() {}, err
	}
	deps.ReadFrom(reads)
	log.Info("reports read from the replica when it has caught up", "max_lag", cfg.Database.ReplicaMaxLag,
		"wait", cfg.Database.ReplicaWait)
	return reads.Close, nil
}
