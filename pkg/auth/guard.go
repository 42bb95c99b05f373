package auth

import (
	"context"
	"time"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/audit"
)

// Password and login-code guessing is limited four ways, none of which lets a stranger
// lock the owner's trusted devices (device.go) out: every attempt per address
// (RATE_LOGIN_IP_PER_MIN); failures per (name, address) per minute
// (RATE_LOGIN_USER_PER_MIN); failures per name per hour, which past
// RATE_LOGIN_USER_LOCK_AFTER shut the name for a growing delay (1, 2, 4 … 60 minutes);
// and a trusted device's own failures. The second and third bind only clients that
// carry no live device token of the user. Every key uses the name as typed (the
// username lower-cased, or the mobile of a code login), so an unknown name answers
// like a real one.

// loginGate runs before a password is checked or a login code is sent.
func (s *Service) loginGate(ctx context.Context, name string, trusted bool, c Client) error {
	if err := s.allow(ctx, "login:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return err
	}
	return s.nameLocked(ctx, name, trusted, c)
}

// nameLocked refuses an untrusted client while the name is shut, or while its address
// had its minute's failures for the name.
func (s *Service) nameLocked(ctx context.Context, name string, trusted bool, c Client) error {
	if trusted {
		return nil
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
	return loginLocked(wait)
}

// loginFailed counts a wrong password or login code and escalates the name's lock; a
// trusted device's failure also counts against the device.
func (s *Service) loginFailed(ctx context.Context, name string, u account.User, trusted bool, c Client) error {
	if trusted {
		if _, _, err := s.limit.Hit(ctx, deviceFailKey(c.Device, u.ID), time.Hour); err != nil {
			return err
		}
	}
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
	action := audit.AuthLoginFailed
	if over == 0 {
		action = audit.AuthLoginLocked
	}
	return audit.Record(ctx, s.pool, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: action, IP: c.IP})
}

// loginSucceeded forgets the address's failures once the password or code is right.
func (s *Service) loginSucceeded(ctx context.Context, name string, c Client) error {
	return s.limit.Reset(ctx, "login:fail:"+name+":"+c.IP)
}

func loginLocked(retry time.Duration) error {
	return limited(retry, CodeLoginLocked, MsgLoginLocked)
}
