package apikey

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// Authenticate resolves an API key to the identity it acts as, for a request from
// ip: its account, limited to its scopes and to what its creator may still do. An
// address outside the key's allow-list is refused before anything else runs.
func (s *Service) Authenticate(ctx context.Context, key, ip string) (acl.Identity, error) {
	prefix, _, ok := strings.Cut(strings.TrimPrefix(key, Prefix), "_")
	if !ok || prefix == "" {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	prefix = Prefix + prefix
	e, err := s.lookup(ctx, prefix)
	if err != nil {
		return acl.Identity{}, err
	}
	if !hmac.Equal(e.hash, s.hash(key)) {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	if !Allowed(e.ips, ip) {
		return acl.Identity{}, apperr.New(apperr.Forbidden, MsgIPRefused).WithCode("apikey-ip")
	}
	if e.expires != nil && !s.now().Before(*e.expires) {
		return acl.Identity{}, apperr.New(apperr.Unauthorized, MsgKeyExpired).WithCode("apikey-expired")
	}
	s.touch(ctx, e.id.APIKeyID)
	return e.id, nil
}

// lookup reads a live key by its prefix through the cache.
func (s *Service) lookup(ctx context.Context, prefix string) (entry, error) {
	if e, ok := s.cache.Get(prefix); ok {
		return e, nil
	}
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	e, err := s.load(ctx, prefix)
	if err != nil {
		return entry{}, err
	}
	s.mu.Lock()
	if s.gen == gen { // no revocation since the lookup began
		s.cache.Add(prefix, e)
	}
	s.mu.Unlock()
	return e, nil
}

// load reads a key, its creator and the creator's current permissions. A key of a
// suspended account or of a deactivated creator is unknown (401).
func (s *Service) load(ctx context.Context, prefix string) (entry, error) {
	var e entry
	var ips, scopes, perms []string
	var owner bool
	err := s.pool.QueryRow(ctx, `SELECT k.id, k.account_id, k.created_by, u.username, u.name, u.is_owner, coalesce(r.permissions, '{}'),
		k.secret_hash, k.allowed_ips, k.scopes, k.expires_at, k.sandbox
		FROM api_keys k JOIN users u ON u.id = k.created_by LEFT JOIN roles r ON r.id = u.role_id
		WHERE k.prefix = $1 AND k.revoked_at IS NULL AND u.status <> 'disabled' AND u.account_id = k.account_id
		AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = k.account_id AND a.status = 'suspended')`, prefix).
		Scan(&e.id.APIKeyID, &e.id.AccountID, &e.creator, &e.id.Username, &e.id.Name, &owner, &perms,
			&e.hash, &ips, &scopes, &e.expires, &e.id.Sandbox)
	if errors.Is(err, pgx.ErrNoRows) {
		return entry{}, apperr.ErrUnauthorized
	}
	if err != nil {
		return entry{}, fmt.Errorf("api key lookup: %w", err)
	}
	e.id.UserID = e.creator
	creator := acl.Identity{IsOwner: owner}
	for _, p := range perms {
		creator.Permissions = append(creator.Permissions, acl.Permission(p))
	}
	for _, sc := range scopes {
		if p := acl.Permission(sc); creator.Can(p) {
			e.id.Permissions = append(e.id.Permissions, p)
		}
	}
	list, _, _ := ParseAllowList(ips)
	e.ips = list
	return e, nil
}

// touch records the key's last use, at most once a minute per key.
func (s *Service) touch(ctx context.Context, keyID int64) {
	_, err := s.pool.Exec(context.WithoutCancel(ctx), `UPDATE api_keys SET last_used_at = now()
		WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, keyID)
	if err != nil {
		slog.WarnContext(ctx, "apikey: last use not recorded", "api_key", keyID, "err", err)
	}
}

// Quota is a key's rate-limit window after one request, for the X-RateLimit headers.
type Quota struct {
	Limit     int
	Remaining int
	Reset     time.Duration // until the window resets
}

// Allow counts one request of the key against API_KEY_RATE_PER_MIN; past it the
// error is 429 with Retry-After.
func (s *Service) Allow(ctx context.Context, keyID int64) (Quota, error) {
	q := Quota{Limit: s.opt.PerMin}
	if q.Limit <= 0 {
		return q, nil
	}
	n, left, err := s.limit.Hit(ctx, fmt.Sprintf("apikey:%d", keyID), time.Minute)
	if err != nil {
		return q, err
	}
	q.Remaining, q.Reset = max(q.Limit-int(n), 0), left
	if n > int64(q.Limit) {
		return q, apperr.RateLimit(int(left.Seconds()) + 1)
	}
	return q, nil
}
