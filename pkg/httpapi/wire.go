package httpapi

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// Wire builds the API's services from its stores (used by cmd/api and the tests).
// onMoney is told every new balance (the credit.changed event); it may be nil.
func Wire(cfg config.Config, log *slog.Logger, pool *pgxpool.Pool, rdb redis.UniversalClient, queue send.Enqueuer,
	onMoney func(ctx context.Context, accountID, balance int64)) Deps {
	limiter := ratelimit.New(rdb, "rl:")
	accounts := account.New(pool)
	lines := line.New(pool)
	return Deps{
		Config: cfg, Log: log, Pool: pool, Redis: rdb,
		Auth:     auth.New(pool, cfg, accounts, queue, limiter),
		Accounts: accounts,
		Wallet:   wallet.New(pool),
		Lines:    lines,
		Sends:    send.New(pool, queue, lines, limiter, cfg.SendPerMin, onMoney),
		Reports:  report.New(pool),
		Live:     live.NewHub(rdb, live.HubConfig{Log: log}),
	}
}
