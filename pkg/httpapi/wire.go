package httpapi

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/chapar/chapar/internal/platform/db"

	"github.com/chapar/chapar/pkg/assistant"
	"github.com/chapar/chapar/pkg/auditlog"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/inbound"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/invoice"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/onboarding"
	"github.com/chapar/chapar/pkg/predefined"
	"github.com/chapar/chapar/pkg/replay"
	"github.com/chapar/chapar/pkg/rollup"
	"github.com/chapar/chapar/pkg/wallet/transactions"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/apikey"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/operations"
	"github.com/chapar/chapar/pkg/pattern"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/phonebook"
	"github.com/chapar/chapar/pkg/profile"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/secretary"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/support"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/wallet"
	"github.com/chapar/chapar/pkg/webhook"
)

// Wire builds the API's services from its stores (used by cmd/api and the tests).
// onMoney is told every new balance (the credit.changed event); it may be nil.
func Wire(cfg config.Config, log *slog.Logger, pool *pgxpool.Pool, rdb redis.UniversalClient, queue send.Enqueuer,
	onMoney func(ctx context.Context, accountID, balance int64)) Deps {
	// Every task enqueued wakes the idle servers of its queue (jobs.WakeChannel).
	queue = jobs.Waker{Enqueuer: queue, RDB: rdb}
	limiter := ratelimit.New(rdb, "rl:")
	accounts := account.New(pool)
	lines := line.New(pool)
	alerts := wallet.NewAlerts(pool, queue)
	sends := send.New(pool, queue, lines, limiter, cfg.SendPerMin, alerts.Watch(onMoney))
	sends.SetQuoteOptions(send.QuoteOptions{PerMin: cfg.QuotePerMin, Cache: rdb})
	shortLinks := shortlink.New(cfg.ShortLinkBase, cfg.TokenSecret)
	sends.SetShortLinks(shortLinks)
	sessions := auth.New(pool, cfg, accounts, queue, limiter)
	// Pub/sub channels are shared by every database of the Redis server: one per database.
	sessions.UseRedis(rdb, auth.DefaultRevokedChannel+":"+strconv.Itoa(cfg.RedisDB))
	payments := payment.Open(cfg, pool)
	payments.OnMoney = onMoney
	reviews := review.New(pool)
	reviews.Register(sends.ReviewQueue(func(ctx context.Context, sendID int64) {
		if err := live.MarkDirty(ctx, rdb, sendID); err != nil {
			log.WarnContext(ctx, "held send decision not announced live", "send", sendID, "err", err)
		}
	}))
	patterns := pattern.New(pool, sends)
	reviews.Register(patterns.ReviewQueue())
	offlinePay := offline.New(pool, upload.NewDisk(cfg.FilesDir))
	offlinePay.OnMoney, offlinePay.Dest = onMoney, offlineDest(cfg)
	reviews.Register(offlinePay.ReviewQueue())
	rd := readers(cfg, pool, rdb, sends, limiter)
	reviews.Register(rd.Secretaries.ReviewQueue())
	profiles := profile.New(pool, upload.NewDisk(cfg.FilesDir), sessions)
	reviews.Register(profiles.DocumentQueue())
	reviews.Register(profiles.MobileQueue())
	admin := staff.New(pool)
	admin.OnMoney, admin.Revoke, admin.MaxAdjust = onMoney, sessions.RevokeUserSessions, int64(cfg.StaffCreditMax)
	admin.Pause, admin.Resume = send.PauseAccount, sends.ResumeAccount
	var calls *apicall.Recorder
	if cfg.APICallLog {
		calls = apicall.NewRecorder(pool, 50_000, log)
	}
	tickets := support.New(pool, upload.NewDisk(cfg.FilesDir), queue, limiter)
	tracked := links.New(pool, shortLinks)
	tracked.SetLimits(links.Limits{Limiter: limiter, PerMin: cfg.LinkPerIPPerMin, MissesPerHour: cfg.LinkMissesPerIPPerHour})
	reviews.Register(tracked.ReviewQueue())
	return Deps{
		Readers:   rd,
		Assistant: newAssistant(cfg, pool, limiter, patterns, tickets, shortLinks),
		Webhooks:  webhook.New(pool, webhook.Guard{AllowPrivate: cfg.WebhookAllowPrivate}), CallLog: calls,
		Support:   tickets,
		Links:     tracked,
		Blocklist: blocklist.New(pool, func(path, name string) (blocklist.Rows, error) { return upload.OpenRows(path, name) }),
		Reviews:   reviews, Staff: admin, Profiles: profiles, Patterns: patterns, Content: content.New(pool),
		Config: cfg, Log: log, Operations: operations.New(rdb), Replays: replays(rdb),
		Ready:     readiness(pool, rdb),
		Auth:      sessions,
		Accounts:  accounts,
		Wallet:    wallet.New(pool),
		Alerts:    alerts,
		Lines:     lines,
		Sends:     sends,
		Campaigns: campaign.New(pool, sends, nil),
		Reports:   report.New(pool),
		// The worker publishes import progress; the API only starts imports.
		Phonebooks: phonebook.New(pool, queue, nil),
		Files:      upload.New(pool, upload.NewDisk(cfg.FilesDir), queue, limiter, log).Limits(cfg.FilesQuotaMB, cfg.FilesRetention),
		Colleagues: colleagues(cfg, pool, queue, sessions, limiter),
		Live:       live.NewHub(rdb, live.HubConfig{Log: log}),
		Payments:   payments,
		Offline:    offlinePay, PayDirectory: offline.NewDirectory(offlineDest(cfg)),
		APIKeys: apikey.New(pool, sessions, limiter,
			apikey.Options{Secret: cfg.TokenSecret, PerMin: cfg.APIKeyPerMin, CacheTTL: cfg.SessionCacheTTL}),
	}
}

// readiness are /readyz's checks of the stores (the API adds its SMPP bind's).
func readiness(pool *pgxpool.Pool, rdb redis.UniversalClient) map[string]func(context.Context) error {
	checks := map[string]func(context.Context) error{"postgres": pool.Ping}
	if rdb != nil {
		checks["redis"] = func(ctx context.Context) error { return rdb.Ping(ctx).Err() }
	}
	return checks
}

// replays is the Idempotency-Key store of the public create routes (off without Redis).
func replays(rdb redis.UniversalClient) *replay.Store {
	if rdb == nil {
		return nil
	}
	return replay.New(rdb)
}

// ReadFrom sends the reports' (their lists, details, exports and archived
// months) and the dashboard charts' reads through r: a streaming replica that
// has caught up with the primary, else the primary (docs/scaling.md).
func (d *Deps) ReadFrom(r *db.Reads) {
	d.Reports.ReadFrom(r)
	d.Readers.Charts.ReadFrom(r)
}

// readers builds the services that need only the stores (and the send service, for
// the secretaries' replies).
func readers(cfg config.Config, pool *pgxpool.Pool, rdb redis.UniversalClient, sends *send.Service, limiter *ratelimit.Limiter) Readers {
	numbers := bank.New(pool, rdb)
	if rdb != nil {
		numbers.SetLimit(limiter, cfg.BankCountsPerMin)
	}
	return Readers{
		AuditLog: auditlog.New(pool), Bank: numbers, Charts: rollup.NewReader(pool), FirstSteps: onboarding.New(pool),
		Inbox: inbox.New(pool), Invoices: invoice.New(pool, cfg.ChromiumPath), Predefined: predefined.New(pool),
		Secretaries: secretary.New(pool, sends), Transactions: transactions.New(pool), APICalls: apicall.New(pool),
		Quarantine: inbound.NewQuarantine(pool), Moderation: moderation.NewEditor(pool),
	}
}

// colleagues builds the colleague service: a deactivated colleague's campaigns stop
// and their scheduled sends wait, noted in the owner's audit log.
func colleagues(cfg config.Config, pool *pgxpool.Pool, queue auth.Enqueuer, sessions *auth.Service, limiter *ratelimit.Limiter) *colleague.Service {
	c := colleague.New(pool, queue, cfg.TokenSecret, sessions,
		colleague.Limits{Limiter: limiter, PerIPPerMin: cfg.LoginPerIPPerMin, PerNumberToday: cfg.OTPPerNumberPerDay,
			PerAccountToday: cfg.InvitesPerDay})
	c.PanelURL = cfg.PanelURL
	c.OnDeactivate = func(ctx context.Context, tx pgx.Tx, accountID, userID int64) (map[string]any, error) {
		stopped, err := campaign.StopMaker(ctx, tx, accountID, userID)
		if err != nil {
			return nil, err
		}
		waiting, err := send.ScheduledBy(ctx, tx, accountID, userID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"campaigns_stopped": stopped, "scheduled_waiting": waiting}, nil
	}
	return c
}

// offlineDest is the platform's card and account offline payments go to.
func offlineDest(cfg config.Config) offline.Destination {
	return offline.Destination{CardNumber: cfg.OfflineCardNumber, CardOwner: cfg.OfflineCardOwner,
		BankName: cfg.OfflineBankName, IBAN: cfg.OfflineSheba, AccountNumber: cfg.OfflineAccountNumber,
		AccountOwner: cfg.OfflineAccountOwner}
}

// newAssistant builds the assistant: the OpenAI-compatible client when
// ASSISTANT_URL is set, else the offline model; the brand is the account's
// name (as for patterns), a tracked link counts at its sent length and ticket
// drafts use the support categories.
func newAssistant(cfg config.Config, pool *pgxpool.Pool, limiter *ratelimit.Limiter, patterns *pattern.Service,
	tickets *support.Service, links *shortlink.Codec) *assistant.Service {
	var model assistant.Model
	if cfg.AssistantURL != "" {
		model = &assistant.OpenAI{BaseURL: cfg.AssistantURL, Model: cfg.AssistantModel, Key: cfg.AssistantKey,
			Stream: cfg.AssistantStream, Timeout: cfg.AssistantTimeout}
	}
	svc := assistant.New(pool, model, limiter, assistant.Options{DailyQuota: cfg.AssistantDailyQuota, PerMin: cfg.AssistantPerMin})
	svc.Brand = patterns.Brand
	svc.LinkLength = len(links.Sized(shortlink.Marker + "1}"))
	svc.Categories = func(ctx context.Context, parent int64) ([]assistant.Category, error) {
		cs, err := tickets.Categories(ctx, parent)
		out := make([]assistant.Category, len(cs))
		for i, c := range cs {
			out[i] = assistant.Category{ID: c.ID, Title: c.Title}
		}
		return out, err
	}
	return svc
}

// connectLive hands the live hub to the services that announce on it (support's
// answers, the low-balance alerts) and closes the sockets of the users whose cache
// keys are forgotten (a role or permissions changed, sessions ended). New calls it,
// so a hub the caller put in place of Wire's (the tests') is the one used.
func connectLive(d Deps) {
	if d.Alerts != nil && d.Live != nil && d.Alerts.Live == nil {
		d.Alerts.Live = d.Live.Publisher()
	}
	if d.Support != nil && d.Support.Live == nil && d.Live != nil {
		d.Support.Live = d.Live.Publisher()
	}
	d.Auth.OnForget(func(keys []string) { d.Live.CloseUsers(auth.UsersIn(keys)...) })
}
