// Package apikey owns the account's API keys (spec §7 Developers): creation behind a
// one-time code to the creator's mobile, the secret shown once and stored as its
// HMAC-SHA256, an IP allow-list (addresses and CIDR ranges, IPv4 and IPv6), an
// optional expiry, scopes within the creator's permissions, per-key rate limits, and
// the lookup of a key on every request through an LRU that a revocation empties on
// every API instance at once.
//
// A key belongs to its account and is created by a user: it acts as the account,
// limited to its scopes and to what its creator may still do, and it stops when its
// creator is deactivated (the creator's revocation empties the caches).
package apikey

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/ratelimit"
)

// Persian messages of this domain.
const (
	MsgTitle        = "عنوان کلید را وارد کنید"
	MsgTitleLong    = "عنوان کلید حداکثر ۱۰۰ نویسه است"
	MsgBadIP        = "نشانی IP نامعتبر است: "
	MsgTooManyIPs   = "حداکثر ۵۰ نشانی IP مجاز است"
	MsgExpiry       = "تاریخ انقضا باید در آینده باشد"
	MsgScopes       = "دست‌کم یک دسترسی انتخاب کنید"
	MsgScopeUnknown = "دسترسی نامعتبر است: "
	MsgScopeDenied  = "نمی‌توانید دسترسی‌ای را که خودتان ندارید به کلید بدهید: "
	MsgIPRefused    = "استفاده از این کلید از این نشانی IP مجاز نیست"
	MsgKeyExpired   = "این کلید API منقضی شده است"
	MsgKeyOnly      = "مدیریت کلیدهای API فقط از پنل ممکن است"
	MsgOneSandbox   = "هر حساب فقط یک کلید آزمایشی (sandbox) فعال می‌تواند داشته باشد؛ برای کلید تازه، کلید آزمایشی پیشین را حذف کنید"
)

// Prefix starts every live key; the caller tells a key from a session token by it.
const Prefix = "chp_live_"

// Options are the service's settings.
type Options struct {
	Secret   string        // TOKEN_SECRET: the HMAC key of the stored secrets
	PerMin   int           // API_KEY_RATE_PER_MIN: requests per key per minute
	CacheTTL time.Duration // how long an instance caches a key lookup
}

// entry is a cached key lookup.
type entry struct {
	id      acl.Identity
	creator int64
	hash    []byte
	ips     []netip.Prefix
	expires *time.Time
}

// Service manages and checks API keys.
type Service struct {
	pool  *pgxpool.Pool
	auth  *auth.Service
	limit *ratelimit.Limiter
	opt   Options
	cache *expirable.LRU[string, entry]
	mu    sync.Mutex
	gen   uint64
	now   func() time.Time
}

// New returns the service and registers its cache with the revocation channel of
// sessions, so a revoked key or a deactivated creator stops on every instance.
func New(pool *pgxpool.Pool, sessions *auth.Service, limit *ratelimit.Limiter, opt Options) *Service {
	if opt.CacheTTL <= 0 {
		opt.CacheTTL = 10 * time.Second
	}
	s := &Service{pool: pool, auth: sessions, limit: limit, opt: opt, now: time.Now,
		cache: expirable.NewLRU[string, entry](50_000, nil, opt.CacheTTL)}
	sessions.OnForget(s.forget)
	return s
}

// Looks reports whether a bearer credential is an API key rather than a session.
func Looks(token string) bool { return strings.HasPrefix(token, Prefix) }

// hash is how a secret is stored: its HMAC-SHA256 under the server secret.
func (s *Service) hash(key string) []byte {
	m := hmac.New(sha256.New, []byte(s.opt.Secret))
	m.Write([]byte(key))
	return m.Sum(nil)
}

// cacheKey is the announced name of a key's cache entry.
func cacheKey(prefix string) string { return "apikey:" + prefix }

// forget drops announced keys; a creator's revocation ("user:N") empties the cache.
func (s *Service) forget(keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	for _, k := range keys {
		if strings.HasPrefix(k, "user:") {
			s.cache.Purge()
			return
		}
		if p, ok := strings.CutPrefix(k, "apikey:"); ok {
			s.cache.Remove(p)
		}
	}
}
