package worker

import (
	"context"
	"time"

	"github.com/chapar/chapar/internal/platform/periodic"
	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/assistant"
)

// Retention of the developers' logs: API calls are kept apicall.Retention (30
// days); delivered webhook deliveries a week and dead-lettered ones 30 days.
const (
	purgeEvery         = 10 * time.Minute
	purgeBatch         = 50_000
	keepDeliveredHooks = 7 * 24 * time.Hour
	keepDeadHooks      = 30 * 24 * time.Hour
)

// purgeLoop deletes expired API calls and old webhook deliveries, in bounded
// steps, shortly after start and then every purgeEvery.
func (w *Worker) purgeLoop(ctx context.Context) {
	periodic.Every(ctx, 5*time.Second, purgeEvery, w.PurgeOnce)
}

// PurgeOnce runs one purge step of both logs and of the assistant's
// conversations (kept assistant.Retention, 30 days).
func (w *Worker) PurgeOnce(ctx context.Context) {
	if n, err := apicall.Purge(ctx, w.pool, purgeBatch); err != nil {
		w.log.WarnContext(ctx, "purge api calls", "err", err)
	} else if n > 0 {
		w.log.InfoContext(ctx, "api calls purged", "n", n)
	}
	if n, err := w.Webhooks.Purge(ctx, keepDeliveredHooks, keepDeadHooks, purgeBatch); err != nil {
		w.log.WarnContext(ctx, "purge webhook deliveries", "err", err)
	} else if n > 0 {
		w.log.InfoContext(ctx, "webhook deliveries purged", "n", n)
	}
	if n, err := assistant.Purge(ctx, w.pool, purgeBatch); err != nil {
		w.log.WarnContext(ctx, "purge assistant conversations", "err", err)
	} else if n > 0 {
		w.log.InfoContext(ctx, "assistant conversations purged", "n", n)
	}
}
