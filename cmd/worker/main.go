// Command worker runs the asynq handlers of the send pipeline (one-time codes,
// expansion), drains the gateways' inbound stream (receipts and MO), runs the
// stuck-work sweeper and publishes live progress. Any number of workers can run.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/db"
	"github.com/chapar/chapar/pkg/inbound"
)

func main() {
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	log := cfg.Logger()
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("worker failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	pool, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	rdb := redis.NewClient(cfg.RedisOptions())
	defer rdb.Close()
	queue := asynq.NewClient(cfg.AsynqRedis())
	defer queue.Close()
	insp := asynq.NewInspector(cfg.AsynqRedis())
	defer insp.Close()

	w := wire(pool, rdb, queue, cfg)
	srv := asynq.NewServer(cfg.AsynqRedis(), asynq.Config{
		Concurrency:     8,
		Queues:          map[string]int{jobs.QueueCritical: 6, jobs.QueueDefault: 3, jobs.QueueBulk: 1},
		ShutdownTimeout: 25 * time.Second,
		Logger:          asynqLogger{log},
	})
	mux := asynq.NewServeMux()
	w.register(mux)
	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("start asynq: %w", err)
	}
	host, _ := os.Hostname()
	consumer := &inbound.Consumer{RDB: rdb, Sends: w.sends, Inbox: w.inbox, Name: fmt.Sprintf("%s-%d", host, os.Getpid()),
		OnMO: w.onMO}
	done := make(chan struct{}, 2)
	go func() { _ = consumer.Run(ctx); done <- struct{}{} }()
	go func() { w.sweepLoop(ctx, insp); done <- struct{}{} }()
	log.Info("worker running", "profile", cfg.Profile)
	<-ctx.Done()
	log.Info("worker shutting down")
	srv.Shutdown()
	<-done
	<-done
	return nil
}

// asynqLogger routes asynq's logs to slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }
