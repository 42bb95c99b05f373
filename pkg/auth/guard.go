package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/audit"
)

// Password guessing is limited three ways, none of which lets a stranger lock the owner
// out: every attempt per address; failures per (username, address) per minute; and
// failures per username per hour, which past LoginUserLockAfter shut the username for a
// growing delay (1, 2, 4 … 60 minutes) — but only for addresses that never opened a
// session of the user. All keys use the username as typed, so an unknown username
// answers like a real one.

// loginGate runs before the password is checked.
func (s *Service) loginGate(ctx context.Context, name string, u account.User, c Client) error {
	if err := s.allow(ctx, "login:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return err
	}
	ok, retry, err := s.limit.Peek(ctx, "login:fail:"+name+":"+c.IP, s.cfg.LoginPerUserPerMin)
	if err != nil {
		return err
	}
	if !ok {
		return loginLocked(retry)
	}
	wait, err := s.limit.Blocked(ctx, "login:lock:"+name)
	if err != nil || wait == 0 {
		return err
	}
	if known, err := s.knownAddress(ctx, u.ID, c.IP); err != nil || known {
		return err
	}
	return loginLocked(wait)
}

// loginFailed counts a wrong password and escalates the username's lock.
func (s *Service) loginFailed(ctx context.Context, name string, u account.User, c Client) error {
	if _, _, err := s.limit.Hit(ctx, "login:fail:"+name+":"+c.IP, time.Minute); err != nil {
		return err
	}
	n, _, err := s.limit.Hit(ctx, "login:fails:"+name, time.Hour)
	if err != nil {
		return err
	}
	over := n - int64(s.cfg.LoginUserLockAfter)
	if s.cfg.LoginUserLockAfter > 0 && over >= 0 {
		if err := s.limit.Block(ctx, "login:lock:"+name, min(time.Minute<<min(over, 6), time.Hour)); err != nil {
			return err
		}
	}
	if u.ID == 0 {
		return nil
	}
	action := "auth.login_failed"
	if over == 0 {
		action = "auth.login_locked"
	}
	return audit.Record(ctx, s.pool, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: action, IP: c.IP})
}

// loginSucceeded forgets the address's failures once the password is right.
func (s *Service) loginSucceeded(ctx context.Context, name string, c Client) error {
	return s.limit.Reset(ctx, "login:fail:"+name+":"+c.IP)
}

// knownAddress reports whether the user has opened a session from ip before.
func (s *Service) knownAddress(ctx context.Context, userID int64, ip string) (bool, error) {
	if userID == 0 {
		return false, nil
	}
	var known bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions WHERE user_id = $1 AND ip = $2)`, userID, ip).Scan(&known)
	if err != nil {
		return false, fmt.Errorf("known address: %w", err)
	}
	return known, nil
}

func loginLocked(retry time.Duration) error {
	return limited(retry, CodeLoginLocked, MsgLoginLocked)
}
