package auth

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// DefaultRevokedChannel is the Redis pub/sub channel on which a revoked session is
// announced to every API instance.
const DefaultRevokedChannel = "sessions:revoked"

// sessionState is what the session checks share besides the database: Redis (tickets
// and revocations) and the generation of the cache, bumped by every revocation so a
// lookup that raced one is not cached.
type sessionState struct {
	rdb     redis.UniversalClient
	channel string
	ready   chan struct{}
	once    sync.Once
	mu      sync.Mutex
	gen     uint64
	hooks   []func(keys []string) // OnForget
}

// revocation is the message of DefaultRevokedChannel: the revoked sessions and their
// token hashes (hex, the keys of the token cache).
type revocation struct {
	Sessions []int64  `json:"sessions"`
	Keys     []string `json:"keys"`
}

// UseRedis gives the service the Redis it keeps websocket tickets in and announces
// revocations on (channel "" is DefaultRevokedChannel). Call it before serving.
func (s *Service) UseRedis(rdb redis.UniversalClient, channel string) {
	if channel == "" {
		channel = DefaultRevokedChannel
	}
	s.sess.rdb, s.sess.channel = rdb, channel
}

// Authenticate resolves a session token to the caller's identity.
func (s *Service) Authenticate(ctx context.Context, token string) (acl.Identity, error) {
	if token == "" {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	return s.identify(ctx, hashToken(token))
}

// identify resolves a token hash through the cache, then the database.
func (s *Service) identify(ctx context.Context, h []byte) (acl.Identity, error) {
	key := hex.EncodeToString(h)
	if id, ok := s.cache.Get(key); ok {
		return id, nil
	}
	s.sess.mu.Lock()
	gen := s.sess.gen
	s.sess.mu.Unlock()
	var id acl.Identity
	var perms []string
	err := s.pool.QueryRow(ctx, `SELECT s.id, u.id, u.account_id, u.username, u.name, u.is_owner, coalesce(r.permissions, '{}'), u.is_staff,
		coalesce(s.impersonator_id, 0), s.impersonated_by
		FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN roles r ON r.id = u.role_id
		WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.status <> 'disabled'
		AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = u.account_id AND a.status = 'suspended')
		AND (s.impersonator_id IS NULL OR EXISTS (SELECT 1 FROM users st WHERE st.id = s.impersonator_id AND st.status <> 'disabled'))`, h).
		Scan(&id.SessionID, &id.UserID, &id.AccountID, &id.Username, &id.Name, &id.IsOwner, &perms, &id.Staff,
			&id.ImpersonatorID, &id.Impersonator)
	if errors.Is(err, pgx.ErrNoRows) {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	if err != nil {
		return acl.Identity{}, fmt.Errorf("authenticate: %w", err)
	}
	for _, p := range perms {
		id.Permissions = append(id.Permissions, acl.Permission(p))
	}
	if id.Staff { // staff hold Staff, and the back-office permissions their role grants
		granted := id.Permissions
		id.IsOwner, id.Permissions = false, []acl.Permission{acl.Staff}
		if slices.Contains(granted, acl.StaffOperations) {
			id.Permissions = append(id.Permissions, acl.StaffOperations)
		}
	}
	s.sess.mu.Lock()
	if s.sess.gen == gen { // no revocation since the lookup began
		s.cache.Add(key, id)
	}
	s.sess.mu.Unlock()
	return id, nil
}

// Logout revokes the session of token; every API instance stops accepting it and
// closes its websockets within moments.
func (s *Service) Logout(ctx context.Context, token string, id acl.Identity, c Client) error {
	var rev revocation
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE sessions SET revoked_at = now()
			WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id, token_hash`, hashToken(token))
		if rev, err = collectRevoked(rows, err); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "auth.logout", IP: c.IP})
	})
	if err != nil {
		return err
	}
	s.announce(ctx, rev)
	return nil
}

// RevokeUserSessions revokes every open session of a user (password change, user
// disabled) and announces it like Logout.
func (s *Service) RevokeUserSessions(ctx context.Context, userID int64) error {
	rev, err := revokeUser(ctx, s.pool, userID)
	if err != nil {
		return err
	}
	rev.Keys = append(rev.Keys, userKey(userID)) // the API keys the user created
	s.announce(ctx, rev)
	return nil
}

// ForgetUsers drops the cached identities of the users' open sessions on every API
// instance, so a changed role or permission applies from the next request (the
// sessions stay open; their live sockets reconnect under the new permissions).
func (s *Service) ForgetUsers(ctx context.Context, userIDs ...int64) error {
	rows, err := s.pool.Query(ctx, `SELECT 0::bigint, token_hash FROM sessions
		WHERE user_id = ANY($1) AND revoked_at IS NULL AND expires_at > now()`, userIDs)
	rev, err := collectRevoked(rows, err)
	if err != nil {
		return err
	}
	rev.Sessions = nil // nothing to close: the sockets stay
	for _, u := range userIDs {
		rev.Keys = append(rev.Keys, userKey(u), permsKey(u)) // the API keys the users created; their sockets
	}
	s.announce(ctx, rev)
	return nil
}

// revokeUser revokes the user's open sessions in q (a transaction or the pool), and
// those a staff user opened as customers (impersonation), and returns them; the
// caller announces them once committed.
func revokeUser(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, userID int64) (revocation, error) {
	rows, err := q.Query(ctx, `UPDATE sessions SET revoked_at = now()
		WHERE (user_id = $1 OR impersonator_id = $1) AND revoked_at IS NULL RETURNING id, token_hash`, userID)
	return collectRevoked(rows, err)
}

func collectRevoked(rows pgx.Rows, err error) (revocation, error) {
	var rev revocation
	if err != nil {
		if rows != nil {
			rows.Close()
		}
		return rev, fmt.Errorf("revoke sessions: %w", err)
	}
	var id int64
	var h []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &h}, func() error {
		rev.Sessions = append(rev.Sessions, id)
		rev.Keys = append(rev.Keys, hex.EncodeToString(h))
		return nil
	})
	if err != nil {
		return rev, fmt.Errorf("revoke sessions: %w", err)
	}
	return rev, nil
}

// announce drops revoked sessions from this instance's cache and publishes them to
// every instance (this one included: its hub closes their sockets). A failed publish
// is logged: the revocation is committed, and other instances still stop accepting
// the token after SESSION_CACHE_TTL.
func (s *Service) announce(ctx context.Context, rev revocation) {
	if len(rev.Keys) == 0 {
		return
	}
	s.forget(rev.Keys)
	if s.sess.rdb == nil {
		return
	}
	b, err := json.Marshal(rev)
	if err == nil {
		err = s.sess.rdb.Publish(context.WithoutCancel(ctx), s.sess.channel, b).Err()
	}
	if err != nil {
		slog.WarnContext(ctx, "auth: revocation not announced", "sessions", rev.Sessions, "err", err)
	}
}

// forget removes token hashes from the cache and bumps its generation.
func (s *Service) forget(keys []string) {
	s.sess.mu.Lock()
	defer s.sess.mu.Unlock()
	s.sess.gen++
	for _, k := range keys {
		s.cache.Remove(k)
	}
	for _, f := range s.sess.hooks {
		f(keys)
	}
}

// RevocationsReady is closed once WatchRevocations is subscribed.
func (s *Service) RevocationsReady() <-chan struct{} { return s.sess.ready }

// WatchRevocations applies the revocations announced by any instance until ctx ends:
// the sessions leave this instance's token cache and onRevoke (the live hub's
// CloseSessions) closes their sockets. The subscription reconnects by itself after a
// Redis outage.
func (s *Service) WatchRevocations(ctx context.Context, onRevoke func(sessionIDs ...int64)) error {
	if s.sess.rdb == nil {
		return errors.New("auth: WatchRevocations without UseRedis")
	}
	ps := s.sess.rdb.Subscribe(ctx, s.sess.channel)
	defer ps.Close()
	for _, err := ps.Receive(ctx); err != nil; _, err = ps.Receive(ctx) {
		slog.WarnContext(ctx, "auth: revocation subscription failed, retrying", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	s.sess.once.Do(func() { close(s.sess.ready) })
	stop := context.AfterFunc(ctx, func() { _ = ps.Close() }) // ends the range below
	defer stop()
	for m := range ps.Channel() {
		s.applyRevocation(ctx, m.Payload, onRevoke)
	}
	if ctx.Err() != nil {
		return nil
	}
	return errors.New("auth: revocation subscription closed")
}

// applyRevocation drops an announced revocation's sessions from the token cache and
// hands them to onRevoke.
func (s *Service) applyRevocation(ctx context.Context, payload string, onRevoke func(sessionIDs ...int64)) {
	var rev revocation
	if err := json.Unmarshal([]byte(payload), &rev); err != nil {
		slog.WarnContext(ctx, "auth: bad revocation message", "err", err)
		return
	}
	s.forget(rev.Keys)
	if onRevoke != nil {
		onRevoke(rev.Sessions...)
	}
}
