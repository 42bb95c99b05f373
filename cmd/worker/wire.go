package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/voice"
)

type worker struct {
	cfg   config.Config
	rdb   *redis.Client
	sends *send.Service
	inbox *inbox.Service
	voice voice.Caller
	sweep send.SweepConfig
}

func wire(pool *pgxpool.Pool, rdb *redis.Client, queue *asynq.Client, cfg config.Config) *worker {
	w := &worker{cfg: cfg, rdb: rdb, inbox: inbox.New(pool), voice: voice.Sandbox{RDB: rdb}, sweep: send.DefaultSweep}
	w.sends = send.New(pool, queue, line.New(pool), ratelimit.New(rdb, "rl:"), cfg.SendPerMin, w.onMoney)
	if d, err := time.ParseDuration(envOr("SWEEP_ABANDONED", "")); err == nil {
		w.sweep.Abandoned = d
	}
	if d, err := time.ParseDuration(envOr("SWEEP_STALLED", "")); err == nil {
		w.sweep.Stalled = d
	}
	if d, err := time.ParseDuration(envOr("SWEEP_NO_RECEIPT", "")); err == nil {
		w.sweep.NoReceipt = d
	}
	return w
}

func (w *worker) register(mux *asynq.ServeMux) {
	mux.HandleFunc(jobs.TypeVerification, w.sends.HandleVerification(w.voice.Call))
	mux.HandleFunc(jobs.TypeSendExpand, w.sends.HandleExpand)
}

func (w *worker) onMoney(ctx context.Context, accountID, balance int64) {}

func (w *worker) onMO(ctx context.Context, m inbox.Stored) {}

// sweepLoop runs the sweeper every second on one worker at a time (a Redis lease).
func (w *worker) sweepLoop(ctx context.Context, insp *asynq.Inspector) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ok, err := w.rdb.SetNX(ctx, "sweeper:lease", "1", 5*time.Second).Result()
		if err != nil || !ok {
			continue
		}
		did, err := w.sends.Sweep(ctx, insp, w.sweep)
		w.rdb.Del(context.WithoutCancel(ctx), "sweeper:lease")
		if err != nil {
			slog.WarnContext(ctx, "sweep", "err", err)
			continue
		}
		for k, n := range did {
			if n > 0 {
				slog.InfoContext(ctx, "sweeper", "what", k, "n", n)
			}
		}
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
