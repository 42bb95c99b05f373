package auth

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// ticketPrefix starts the Redis keys of websocket tickets: ticketPrefix + the
// ticket's SHA-256 (hex) holds the session's token hash (hex).
const ticketPrefix = "live:ticket:"

// Ticket opens one websocket: GET /v1/ws?ticket=.
type Ticket struct {
	Ticket    string `json:"ticket"`
	ExpiresIn int    `json:"expires_in"` // seconds
}

// IssueTicket returns a single-use ticket bound to the session of token (already
// authenticated), valid for LIVE_TICKET_TTL. Only its hash is stored, so the session
// token itself never travels in a URL.
func (s *Service) IssueTicket(ctx context.Context, token string) (Ticket, error) {
	if s.sess.rdb == nil {
		return Ticket{}, errors.New("auth: IssueTicket without UseRedis")
	}
	t, err := newToken()
	if err != nil {
		return Ticket{}, err
	}
	session := hex.EncodeToString(hashToken(token))
	if err := s.sess.rdb.Set(ctx, ticketKey(t), session, s.cfg.LiveTicketTTL).Err(); err != nil {
		return Ticket{}, fmt.Errorf("store ticket: %w", err)
	}
	return Ticket{Ticket: t, ExpiresIn: int(s.cfg.LiveTicketTTL.Seconds())}, nil
}

// RedeemTicket consumes a ticket (it works once) and returns the identity of its
// session, which must still be open. A missing, used or expired ticket, or a session
// token in its place, is ErrUnauthorized.
func (s *Service) RedeemTicket(ctx context.Context, ticket string) (acl.Identity, error) {
	if ticket == "" || s.sess.rdb == nil {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	session, err := s.sess.rdb.GetDel(ctx, ticketKey(ticket)).Result()
	if errors.Is(err, redis.Nil) {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	if err != nil {
		return acl.Identity{}, fmt.Errorf("redeem ticket: %w", err)
	}
	h, err := hex.DecodeString(session)
	if err != nil {
		return acl.Identity{}, apperr.ErrUnauthorized
	}
	return s.identify(ctx, h)
}

func ticketKey(ticket string) string {
	return ticketPrefix + hex.EncodeToString(hashToken(ticket))
}
