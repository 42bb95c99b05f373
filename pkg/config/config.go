// Package config loads the process configuration from environment variables.
//
// Every setting has a default so that `make run` works on a fresh machine. Secrets
// also accept a `<NAME>_FILE` variant that names a file holding the value. The
// configuration is loaded once in main and passed down explicitly.
package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os/signal"
	"slices"
	"syscall"

	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/platform/gcfloor"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/version"
)

// Config is the whole configuration shared by the binaries.
type Config struct {
	Profile     string // "default" or "bench" (CHAPAR_PROFILE)
	HTTPAddr    string
	DatabaseURL string
	// Database is where the connections go beyond DATABASE_URL: a transaction
	// pooler in front of the primary, the primary itself for session work, a
	// streaming replica for reports (database.go; docs/scaling.md).
	Database  DatabaseRoutes
	RedisAddr string
	RedisDB   int
	RedisPass string
	// Redis is the deployment beyond one server: Sentinel or Cluster (redis.go).
	Redis     RedisHA
	LogLevel  string
	LogFormat string // "text" or "json"

	// TokenSecret keys the HMAC that hashes OTP codes (a pepper).
	TokenSecret string

	SessionTTL      time.Duration
	SessionCacheTTL time.Duration
	// LiveTicketTTL is how long a websocket ticket (POST /v1/api/live/ticket) stays valid.
	LiveTicketTTL time.Duration

	OTPTTL         time.Duration // how long one code is valid
	OTPLoginTTL    time.Duration // how long a login challenge lives; after it a new login is needed
	OTPResendAfter time.Duration
	OTPMaxTries    int

	// Rate limits (requests per minute).
	LoginPerIPPerMin   int
	LoginPerUserPerMin int
	OTPSendPerMin      int
	OTPConfirmPerMin   int
	SendPerMin         int
	QuotePerMin        int // calculate-price walks per account
	BankCountsPerMin   int // number-bank counts per account (the map asks as a shape changes)
	APIKeyPerMin       int // requests per API key per minute (X-RateLimit-*)
	// Abuse limits of the auth flows (spec §7 Auth).
	RegisterPerIPPerHour  int // sign-ups per address per hour
	OTPPerNumberPerDay    int // one-time codes to one mobile per day, all purposes
	ResetFailsPerDay      int // wrong reset codes per user and per mobile before a day's lock-out
	CheckExistPerIPPerMin int // username checks per address per minute
	LoginUserLockAfter    int // failed passwords and login codes per name per hour before untrusted clients wait
	ExternalLoginTTL      time.Duration

	// LinkPerIPPerMin and LinkMissesPerIPPerHour bound the short-link redirect per
	// client address: requests a minute, unknown or forged codes an hour.
	LinkPerIPPerMin, LinkMissesPerIPPerHour int

	// SimHTTPAddr is the carrier simulator's inspection API (used by the demo and tests).
	SimHTTPAddr string
	// WebDir, when set, serves the panel from disk instead of the embedded build.
	WebDir string
	// AuditIPHeader, when set, names a trusted proxy header carrying the client IP.
	TrustedProxies []string
	// FilesDir is where the local-disk store keeps uploaded files (outside the web root).
	FilesDir string

	// Env is the deployment (CHAPAR_ENV): "development" or "production". Production
	// refuses to start with development secrets.
	Env string
	// HTTP server limits: time-outs for reading a request's headers and whole
	// request, writing an answer and keeping an idle connection; the longer time-out
	// of uploads and downloads; and the open connections one client address may hold
	// (0: no cap).
	HTTPReadHeaderTimeout time.Duration
	HTTPReadTimeout       time.Duration
	HTTPWriteTimeout      time.Duration
	HTTPIdleTimeout       time.Duration
	HTTPStreamTimeout     time.Duration
	HTTPMaxConnsPerIP     int
	// InvitesPerDay caps the colleague invitations an account texts per day
	// (INVITES_PER_ACCOUNT_PER_DAY; 0: colleague.DefaultInvitesPerDay).
	InvitesPerDay int
	// StaffCreditMax caps, in rials, one staff credit adjustment either way
	// (STAFF_CREDIT_ADJUST_MAX; docs/backoffice.md).
	StaffCreditMax int
	// FilesQuotaMB is the megabytes of uploaded files an account may keep (0: no quota).
	FilesQuotaMB int
	// GCHeapFloorMB is the heap, in MiB, each process may grow to before its
	// garbage collector runs (internal/platform/gcfloor; 0: Go's default; GOGC set wins).
	GCHeapFloorMB int
	// FilesRetention is how long an uploaded file is kept (0: for ever).
	FilesRetention time.Duration
	// Online payments: the gateway active until staff choose one in the back office
	// (PAYMENT_GATEWAY: sandbox, zarinpal or sep; default sandbox), the public origin
	// the bank sends payers back to (empty: the API's own origin) and how long a
	// payment may stay pending before the settle task asks the bank.
	PaymentGateway, PaymentPublicURL string
	PaymentPendingTimeout            time.Duration
	// PaymentZarinpalURL and PaymentSEPURL are the banks' origins
	// (PAYMENT_ZARINPAL_URL, PAYMENT_SEP_URL; tests and demos point them at fakes).
	PaymentZarinpalURL, PaymentSEPURL string
	// PanelURL is the panel's public origin (PANEL_URL, e.g. https://panel.example.ir;
	// default PAYMENT_PUBLIC_URL, else the API's own address): links texted to people,
	// such as a colleague's invitation, start with it.
	PanelURL string
	// Invoices: the Chromium that prints them to PDF (the seller's details are
	// staff settings, pkg/invoice).
	ChromiumPath string
	// Webhooks (docs/webhooks.md): WEBHOOK_ALLOW_PRIVATE=1 lets endpoints reach
	// private and loopback addresses (development and tests only); events per
	// POST, the retry window and first back-off, one POST's time-out and the
	// POSTs in flight per worker.
	WebhookAllowPrivate                             bool
	WebhookBatch, WebhookConcurrency                int
	WebhookWindow, WebhookRetryBase, WebhookTimeout time.Duration
	// APICallLog records the calls made with API keys (API_CALL_LOG=0 turns it off).
	APICallLog bool
	// TaskQuiet is the longest an idle asynq server of the worker or gateway
	// waits for a wake before it looks at its queues again (TASK_QUIET; 0 polls
	// every few milliseconds as asynq does; jobs.WakeChannel).
	TaskQuiet time.Duration
	// RollupEvery is how often the worker rolls up the dashboard charts'
	// daily figures (ROLLUP_EVERY, docs/dashboard.md#charts).
	RollupEvery time.Duration
	// HistoryKeepMonths is how many months of recipients stay in the hot table
	// (this one included; HISTORY_KEEP_MONTHS, 0 never archives) and HistoryEvery
	// how often the worker makes the coming months' partitions and archives the
	// older ones (HISTORY_EVERY; docs/partitions.md).
	HistoryKeepMonths int
	HistoryEvery      time.Duration
	// Targeted sends (docs/targeted-sends.md): MapTileURL adds a raster tile layer
	// under the panel's offline map (MAP_TILE_URL, e.g. https://tile.example/{z}/{x}/{y}.png;
	// empty: outlines only) and BankSize is how many numbers seed-demo puts in the bank.
	MapTileURL string
	BankSize   int
	// Offline payments: the platform's card and bank account customers transfer to
	// (OFFLINE_CARD_NUMBER, _CARD_OWNER, _BANK_NAME, _SHEBA, _ACCOUNT_NUMBER,
	// _ACCOUNT_OWNER; an empty card or Sheba number turns that method off).
	OfflineCardNumber, OfflineCardOwner, OfflineBankName    string
	OfflineSheba, OfflineAccountNumber, OfflineAccountOwner string
	// ShortLinkBase starts every tracked short link (SHORTLINK_BASE; default the
	// API's own address + "/l/"). Every binary must read the same value: the length
	// of a short link is part of a message's price.
	ShortLinkBase string
	// InboxPartWait is how long the parts of a concatenated MO wait for a missing
	// one before what arrived is stored, flagged incomplete (INBOX_PART_WAIT).
	InboxPartWait time.Duration
	// The AI writing assistant (docs/assistant.md). AssistantURL is the root of an
	// OpenAI-compatible chat-completions API (ASSISTANT_URL, e.g.
	// http://127.0.0.1:8000/v1 for vLLM or llama.cpp's server; empty: the built-in
	// offline model), AssistantModel the model name sent (ASSISTANT_MODEL),
	// AssistantKey its bearer token (ASSISTANT_KEY or ASSISTANT_KEY_FILE),
	// AssistantStream reads replies as server-sent events (ASSISTANT_STREAM, default
	// 1), AssistantTimeout bounds one reply (ASSISTANT_TIMEOUT, default 20s);
	// AssistantDailyQuota is the requests an account may make per day
	// (ASSISTANT_DAILY_QUOTA, default 200) and AssistantPerMin per minute
	// (RATE_ASSISTANT_PER_MIN, default 20).
	AssistantURL, AssistantModel, AssistantKey string
	AssistantStream                            bool
	AssistantTimeout                           time.Duration
	AssistantDailyQuota, AssistantPerMin       int
	// MetricsAddr is where the process serves its Prometheus metrics at /metrics
	// (METRICS_ADDR; a bare port binds 127.0.0.1; empty: off; docs/metrics.md).
	MetricsAddr string
}

// DevTokenSecret is the development default of TOKEN_SECRET; production refuses it.
const DevTokenSecret = "chapar-dev-secret-change-me"

// EnvProduction is the CHAPAR_ENV value of a production deployment.
const EnvProduction = "production"

// Load reads the configuration from the environment.
func Load() (Config, error) {
	if err := secretFilesReadable(); err != nil {
		return Config{}, err
	}
	c := defaults()
	if err := c.loadInts(); err != nil {
		return c, err
	}
	if err := c.loadDurations(); err != nil {
		return c, err
	}
	var err error
	if c.Redis, err = loadRedisHA(c.RedisDB); err != nil {
		return c, err
	}
	if c.Database, err = loadDatabaseRoutes(); err != nil {
		return c, err
	}
	return c, c.check()
}

// defaults is the configuration from the environment's plain settings, with the
// numbers at their defaults (loadInts and loadDurations read those).
func defaults() Config {
	c := Config{
		Profile:            env("CHAPAR_PROFILE", "default"),
		HTTPAddr:           env("HTTP_ADDR", "127.0.0.1:8080"),
		DatabaseURL:        secret("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chapar?sslmode=disable"),
		RedisAddr:          env("REDIS_ADDR", "127.0.0.1:6379"),
		RedisPass:          secret("REDIS_PASSWORD", ""),
		LogLevel:           env("LOG_LEVEL", "info"),
		LogFormat:          env("LOG_FORMAT", "text"),
		TokenSecret:        secret("TOKEN_SECRET", DevTokenSecret),
		SimHTTPAddr:        env("SIM_HTTP_ADDR", "127.0.0.1:2780"),
		WebDir:             env("WEB_DIR", ""),
		TrustedProxies:     list(env("TRUSTED_PROXIES", "")),
		FilesDir:           env("FILES_DIR", ".data/files"),
		Env:                env("CHAPAR_ENV", "development"),
		PaymentGateway:     env("PAYMENT_GATEWAY", "sandbox"),
		PaymentPublicURL:   strings.TrimRight(env("PAYMENT_PUBLIC_URL", ""), "/"),
		PaymentZarinpalURL: strings.TrimRight(env("PAYMENT_ZARINPAL_URL", "https://payment.zarinpal.com"), "/"),
		PaymentSEPURL:      strings.TrimRight(env("PAYMENT_SEP_URL", "https://sep.shaparak.ir"), "/"),
		HTTPMaxConnsPerIP:  64,
		OTPMaxTries:        5,
		LoginPerIPPerMin:   30,
		LoginPerUserPerMin: 10,
		OTPSendPerMin:      5,
		OTPConfirmPerMin:   10,
		SendPerMin:         600,
		QuotePerMin:        30,
		BankCountsPerMin:   240,
		APIKeyPerMin:       600,
		FilesQuotaMB:       2048,
		GCHeapFloorMB:      gcfloor.DefaultFloorMB,
	}
	c.RegisterPerIPPerHour, c.OTPPerNumberPerDay, c.ResetFailsPerDay = 5, 10, 10
	c.CheckExistPerIPPerMin, c.LoginUserLockAfter = 10, 20
	c.LinkPerIPPerMin, c.LinkMissesPerIPPerHour = 300, 60
	c.ChromiumPath = env("CHROMIUM_PATH", "/usr/bin/chromium")
	c.WebhookAllowPrivate, c.APICallLog = env("WEBHOOK_ALLOW_PRIVATE", "0") == "1", env("API_CALL_LOG", "1") != "0"
	c.WebhookBatch, c.WebhookConcurrency = 100, 16
	c.MapTileURL, c.BankSize = env("MAP_TILE_URL", ""), 300_000
	c.HistoryKeepMonths = 13
	c.OfflineCardNumber, c.OfflineCardOwner = env("OFFLINE_CARD_NUMBER", "6037991234567893"), env("OFFLINE_CARD_OWNER", "شرکت پیام‌رسان چاپار")
	c.OfflineBankName, c.OfflineSheba = env("OFFLINE_BANK_NAME", "بانک ملی ایران"), env("OFFLINE_SHEBA", "IR050170000000123456789012")
	c.OfflineAccountNumber, c.OfflineAccountOwner = env("OFFLINE_ACCOUNT_NUMBER", "0170000000123"), env("OFFLINE_ACCOUNT_OWNER", "شرکت پیام‌رسان چاپار")
	c.AssistantURL, c.AssistantModel = strings.TrimRight(env("ASSISTANT_URL", ""), "/"), env("ASSISTANT_MODEL", "gpt-4o-mini")
	c.AssistantKey, c.AssistantStream = secret("ASSISTANT_KEY", ""), env("ASSISTANT_STREAM", "1") != "0"
	c.AssistantDailyQuota, c.AssistantPerMin = 200, 20
	c.ShortLinkBase = env("SHORTLINK_BASE", "http://"+c.HTTPAddr+"/l/")
	c.PanelURL = panelURL(c)
	c.MetricsAddr = metricsAddr(env("METRICS_ADDR", ""))
	return c
}

// loadInts reads the integer settings over their defaults.
func (c *Config) loadInts() error {
	var err error
	ints := []struct {
		key string
		dst *int
	}{
		{"REDIS_DB", &c.RedisDB},
		{"OTP_MAX_TRIES", &c.OTPMaxTries},
		{"RATE_LOGIN_IP_PER_MIN", &c.LoginPerIPPerMin},
		{"RATE_LOGIN_USER_PER_MIN", &c.LoginPerUserPerMin},
		{"RATE_OTP_SEND_PER_MIN", &c.OTPSendPerMin},
		{"RATE_OTP_CONFIRM_PER_MIN", &c.OTPConfirmPerMin},
		{"RATE_SEND_PER_MIN", &c.SendPerMin},
		{"RATE_QUOTE_PER_MIN", &c.QuotePerMin},
		{"RATE_BANK_COUNTS_PER_MIN", &c.BankCountsPerMin},
		{"BANK_SIZE", &c.BankSize},
		{"HISTORY_KEEP_MONTHS", &c.HistoryKeepMonths},
		{"RATE_API_KEY_PER_MIN", &c.APIKeyPerMin},
		{"RATE_REGISTER_IP_PER_HOUR", &c.RegisterPerIPPerHour},
		{"RATE_OTP_NUMBER_PER_DAY", &c.OTPPerNumberPerDay},
		{"RATE_RESET_FAILS_PER_DAY", &c.ResetFailsPerDay},
		{"RATE_CHECK_EXIST_IP_PER_MIN", &c.CheckExistPerIPPerMin},
		{"RATE_LINK_IP_PER_MIN", &c.LinkPerIPPerMin},
		{"RATE_LINK_MISSES_IP_PER_HOUR", &c.LinkMissesPerIPPerHour},
		{"RATE_LOGIN_USER_LOCK_AFTER", &c.LoginUserLockAfter},
		{"HTTP_MAX_CONNS_PER_IP", &c.HTTPMaxConnsPerIP},
		{"FILES_QUOTA_MB", &c.FilesQuotaMB},
		{"STAFF_CREDIT_ADJUST_MAX", &c.StaffCreditMax},
		{"INVITES_PER_ACCOUNT_PER_DAY", &c.InvitesPerDay},
		{"GC_HEAP_FLOOR_MB", &c.GCHeapFloorMB},
		{"WEBHOOK_BATCH", &c.WebhookBatch},
		{"WEBHOOK_CONCURRENCY", &c.WebhookConcurrency},
		{"ASSISTANT_DAILY_QUOTA", &c.AssistantDailyQuota},
		{"RATE_ASSISTANT_PER_MIN", &c.AssistantPerMin},
	}
	for _, i := range ints {
		if *i.dst, err = envInt(i.key, *i.dst); err != nil {
			return err
		}
	}
	return nil
}

// loadDurations reads the duration settings.
func (c *Config) loadDurations() error {
	var err error
	durs := []struct {
		key string
		dst *time.Duration
		def time.Duration
	}{
		{"SESSION_TTL", &c.SessionTTL, 30 * 24 * time.Hour},
		{"SESSION_CACHE_TTL", &c.SessionCacheTTL, 10 * time.Second},
		{"LIVE_TICKET_TTL", &c.LiveTicketTTL, 30 * time.Second},
		{"OTP_TTL", &c.OTPTTL, 2 * time.Minute},
		{"OTP_LOGIN_TTL", &c.OTPLoginTTL, 5 * time.Minute},
		{"OTP_RESEND_AFTER", &c.OTPResendAfter, 2 * time.Minute},
		{"EXTERNAL_LOGIN_TTL", &c.ExternalLoginTTL, 2 * time.Minute},
		{"HTTP_READ_HEADER_TIMEOUT", &c.HTTPReadHeaderTimeout, 10 * time.Second},
		{"HTTP_READ_TIMEOUT", &c.HTTPReadTimeout, 30 * time.Second},
		{"HTTP_WRITE_TIMEOUT", &c.HTTPWriteTimeout, 2 * time.Minute},
		{"HTTP_IDLE_TIMEOUT", &c.HTTPIdleTimeout, 2 * time.Minute},
		{"HTTP_STREAM_TIMEOUT", &c.HTTPStreamTimeout, 30 * time.Minute},
		{"FILES_RETENTION", &c.FilesRetention, 90 * 24 * time.Hour},
		{"PAYMENT_PENDING_TIMEOUT", &c.PaymentPendingTimeout, 15 * time.Minute},
		{"WEBHOOK_RETRY_WINDOW", &c.WebhookWindow, 24 * time.Hour},
		{"WEBHOOK_RETRY_BASE", &c.WebhookRetryBase, 10 * time.Second},
		{"WEBHOOK_TIMEOUT", &c.WebhookTimeout, 10 * time.Second},
		{"INBOX_PART_WAIT", &c.InboxPartWait, 2 * time.Minute},
		{"ROLLUP_EVERY", &c.RollupEvery, 30 * time.Second},
		{"TASK_QUIET", &c.TaskQuiet, jobs.DefaultQuiet},
		{"HISTORY_EVERY", &c.HistoryEvery, time.Hour},
		{"ASSISTANT_TIMEOUT", &c.AssistantTimeout, 20 * time.Second},
	}
	for _, d := range durs {
		if *d.dst, err = envDuration(d.key, d.def); err != nil {
			return err
		}
	}
	return nil
}

// check refuses settings that are unsafe where they are: production with the
// development token secret.
func (c Config) check() error {
	if err := c.Database.check(); err != nil {
		return err
	}
	if !slices.Contains([]string{"sandbox", "zarinpal", "sep"}, c.PaymentGateway) {
		return fmt.Errorf("config PAYMENT_GATEWAY %q: unknown gateway (known: sandbox, zarinpal, sep)", c.PaymentGateway)
	}
	switch c.Env {
	case "development":
	case EnvProduction:
		if c.TokenSecret == DevTokenSecret || c.TokenSecret == "" {
			return fmt.Errorf("config TOKEN_SECRET: production (CHAPAR_ENV=%s) needs a secret of its own, not the development default", c.Env)
		}
		if c.WebhookAllowPrivate {
			return fmt.Errorf("config WEBHOOK_ALLOW_PRIVATE: webhooks to private addresses are for development only")
		}
	default:
		return fmt.Errorf("config CHAPAR_ENV %q: use development or production", c.Env)
	}
	return nil
}

// Production reports whether CHAPAR_ENV is production.
func (c Config) Production() bool { return c.Env == EnvProduction }

// Bench reports whether the bench profile is active.
func (c Config) Bench() bool { return c.Profile == "bench" }

func env(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

// secretKeys are the settings read by secret: each takes a KEY_FILE variant.
var secretKeys = []string{"DATABASE_URL", "DATABASE_DIRECT_URL", "DATABASE_REPLICA_URL", "REDIS_PASSWORD",
	"REDIS_SENTINEL_PASSWORD", "TOKEN_SECRET", "ASSISTANT_KEY"}

// secretFilesReadable fails when a KEY_FILE names a file that is there but cannot
// be read (its permissions, a directory): the setting would otherwise fall back to
// KEY or its default (for TOKEN_SECRET, the development secret) without a word. A
// file that is not there leaves the setting to KEY: the systemd units name every
// credential and an operator provides the ones they use (deploy/systemd).
func secretFilesReadable() error {
	for _, key := range secretKeys {
		if path := os.Getenv(key + "_FILE"); path != "" {
			if _, err := os.ReadFile(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("config %s_FILE: %w", key, err)
			}
		}
	}
	return nil
}

// secret reads KEY, or the contents of the file named by KEY_FILE (one of
// secretKeys, which Load checks are readable first).
func secret(key, def string) string {
	if path := os.Getenv(key + "_FILE"); path != "" {
		b, err := os.ReadFile(path)
		if err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	return env(key, def)
}

func envInt(key string, def int) (int, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("config %s: %w", key, err)
	}
	return n, nil
}

func envDuration(key string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("config %s: %w", key, err)
	}
	return d, nil
}

func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Logger builds the process logger (log/slog) from LOG_LEVEL and LOG_FORMAT.
func (c Config) Logger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// AsynqLogger routes asynq's own log lines to slog.
func AsynqLogger(l *slog.Logger) asynq.Logger { return asynqLogger{l} }

type asynqLogger struct{ l *slog.Logger }

// Debug logs asynq's message at slog debug level.
func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }

// Info logs asynq's message at slog info level.
func (a asynqLogger) Info(args ...any) { a.l.Info(fmt.Sprint(args...)) }

// Warn logs asynq's message at slog warn level.
func (a asynqLogger) Warn(args ...any) { a.l.Warn(fmt.Sprint(args...)) }

// Error logs asynq's message at slog error level.
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }

// Fatal logs asynq's message at slog error level and exits, as asynq's Logger
// contract says (asynq calls it for nothing it could recover from).
func (a asynqLogger) Fatal(args ...any) {
	a.l.Error(fmt.Sprint(args...))
	os.Exit(1)
}

// Main is the start of every binary: it loads the configuration, installs the
// logger, runs fn with a context that ends on SIGINT or SIGTERM (so fn can drain
// gracefully) and exits 1 when fn fails, 2 when the configuration is wrong.
// `NAME version` (or -version, --version) prints the build's version and exits.
func Main(name string, fn func(ctx context.Context, cfg Config, log *slog.Logger) error) {
	if version.Requested(os.Args[1:]) {
		fmt.Println(version.String(name))
		return
	}
	cfg, err := Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(2)
	}
	log := cfg.Logger()
	slog.SetDefault(log)
	if addr := os.Getenv("PPROF_ADDR"); addr != "" {
		servePprof(addr, log)
	}
	gcfloor.Start(cfg.GCHeapFloorMB)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = fn(ctx, cfg, log)
	stop()
	if err != nil {
		log.Error(name+" failed", "err", err)
		os.Exit(1)
	}
}

// metricsAddr is the listen address of a METRICS_ADDR value: a bare port binds
// the loopback interface; host:port is used as it is.
func metricsAddr(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || strings.Contains(v, ":") {
		return v
	}
	return "127.0.0.1:" + v
}

// panelURL is PANEL_URL without a trailing slash; unset, the payment callback's
// public origin, else the API's own address (which serves the panel).
func panelURL(c Config) string {
	if u := strings.TrimRight(env("PANEL_URL", ""), "/"); u != "" {
		return u
	}
	if c.PaymentPublicURL != "" {
		return c.PaymentPublicURL
	}
	return "http://" + c.HTTPAddr
}
