package links

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/chapar/chapar/pkg/ratelimit"
)

// ErrTooMany answers a client address past the redirect's limits: RetryAfter says
// how long until it may try again.
type ErrTooMany struct{ RetryAfter time.Duration }

func (e ErrTooMany) Error() string { return "too many short link requests" }

// Limits bound the redirect per client address (shared by every API instance):
// PerMin requests a minute, and MissesPerHour unknown or forged codes an hour —
// past either, every code of that address is refused until the window ends, so
// codes cannot be guessed and clicks cannot be inflated from one address. A zero
// limit is off.
type Limits struct {
	Limiter       *ratelimit.Limiter
	PerMin        int
	MissesPerHour int
}

// SetLimits sets the redirect's limits (none until set).
func (s *Service) SetLimits(l Limits) { s.limits = l }

// Open is the redirect of one request from a client address: the limits, then
// Resolve; an unknown code counts against the address's misses. When Redis
// cannot be reached the redirect still answers (the limits fail open, logged).
func (s *Service) Open(ctx context.Context, code, ip string) (string, Click, error) {
	if err := s.admit(ctx, ip); err != nil {
		return "", Click{}, err
	}
	addr, c, err := s.Resolve(ctx, code)
	if errors.Is(err, ErrUnknownCode) && s.limits.Limiter != nil && s.limits.MissesPerHour > 0 {
		if _, _, lerr := s.limits.Limiter.Allow(ctx, "l:miss:"+ip, s.limits.MissesPerHour, time.Hour); lerr != nil {
			slog.WarnContext(ctx, "short link miss not counted", "err", lerr)
		}
	}
	return addr, c, err
}

// admit checks the address's request and miss windows.
func (s *Service) admit(ctx context.Context, ip string) error {
	l := s.limits
	if l.Limiter == nil {
		return nil
	}
	ok, wait, err := l.Limiter.Allow(ctx, "l:ip:"+ip, l.PerMin, time.Minute)
	if err == nil && ok && l.MissesPerHour > 0 {
		ok, wait, err = l.Limiter.Peek(ctx, "l:miss:"+ip, l.MissesPerHour)
	}
	if err != nil {
		slog.WarnContext(ctx, "short link limits not checked", "err", err)
		return nil
	}
	if !ok {
		return ErrTooMany{RetryAfter: wait}
	}
	return nil
}
