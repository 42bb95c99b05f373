// Command worker runs the asynq handlers of the send pipeline (one-time codes,
// expansion), drains the gateways' inbound stream (receipts and MO), runs the
// stuck-work sweeper, publishes live progress and deletes expired uploaded files. Any number of workers can run.
// METRICS_ADDR (e.g. 9464: 127.0.0.1:9464; unset: off) serves its Prometheus metrics at /metrics
// (docs/metrics.md).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/metrics"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/worker"
)

func main() { config.Main("worker", run) }

func run(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	pool, err := cfg.DB().Open(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	session, closeSession, err := cfg.DB().OpenSession(ctx, pool)
	if err != nil {
		return err
	}
	defer closeSession()
	rdb := cfg.RedisClient()
	defer rdb.Close()
	queue := asynq.NewClient(cfg.AsynqRedis())
	defer queue.Close()
	pub := live.NewPublisher(rdb, "")
	w := worker.New(cfg, log, pool, rdb, queue, pub)
	w.Rollups.Session, w.History.Session = session, session
	pump := live.NewProgressPump(rdb, report.New(pool), pub, live.PumpConfig{Log: log})
	w.AddLoop(func(ctx context.Context) { _ = pump.Run(ctx) })
	w.Files.Limits(cfg.FilesQuotaMB, cfg.FilesRetention)
	w.AddLoop(func(ctx context.Context) { w.Files.RunExpiry(ctx, time.Hour) })
	w.AddPayments(payment.Open(cfg, pool), time.Minute)
	if cfg.MetricsAddr != "" {
		reg := metrics.NewRegistry()
		w.Instrument(reg)
		if err := metrics.Start(ctx, cfg.MetricsAddr, reg, log); err != nil {
			return err
		}
	}
	host, _ := os.Hostname()
	log.Info("worker running", "profile", cfg.Profile)
	return w.Run(ctx, fmt.Sprintf("%s-%d", host, os.Getpid()), 8)
}
