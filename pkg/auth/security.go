package auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the security settings.
const (
	MsgCurrentPassword = "رمز عبور فعلی اشتباه است"
	MsgSamePassword    = "رمز عبور جدید باید با رمز فعلی متفاوت باشد"
	MsgSessionNotFound = "این نشست یافت نشد یا قبلا بسته شده است"
	MsgWrongPassword   = "رمز عبور اشتباه است"
)

// ChangePasswordInput is the security page's change-password form.
type ChangePasswordInput struct {
	CurrentPassword      string `json:"current_password"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// ChangePassword replaces the signed-in user's password after checking the current
// one, closes every other session of the user (this one stays open) and forgets all
// the user's device tokens, audited.
func (s *Service) ChangePassword(ctx context.Context, id acl.Identity, in ChangePasswordInput, c Client) error {
	u, err := s.checkPassword(ctx, id, "current_password", in.CurrentPassword)
	if err != nil {
		return err
	}
	f := validate.Collect(validate.Password(in.Password, u.Username), validate.PasswordConfirmation(in.Password, in.PasswordConfirmation))
	if len(f) == 0 && in.Password == in.CurrentPassword {
		f = map[string][]string{"password": {MsgSamePassword}}
	}
	if len(f) > 0 {
		return apperr.Fields(f).Err()
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return err
	}
	var rev revocation
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.accounts.SetPassword(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		if rev, err = revokeSessions(ctx, tx, u.ID, 0, id.SessionID); err != nil {
			return err
		}
		devices, err := forgetDevices(ctx, tx, u.ID)
		if err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "auth.password_change", IP: c.IP,
			Details: map[string]any{"sessions_closed": len(rev.Sessions), "devices_forgotten": devices}})
	})
	if err != nil {
		return err
	}
	s.announce(ctx, rev)
	return nil
}

// checkPassword checks the signed-in user's password for a sensitive action, within
// one per-user budget shared by every route that checks it (RATE_OTP_CONFIRM_PER_MIN
// a minute), so no route can be used to guess it. A wrong password is field's error.
func (s *Service) checkPassword(ctx context.Context, id acl.Identity, field, pw string) (account.User, error) {
	if err := s.allow(ctx, "password:check:"+strconv.FormatInt(id.UserID, 10), s.cfg.OTPConfirmPerMin); err != nil {
		return account.User{}, err
	}
	u, err := s.accounts.ByID(ctx, id.UserID)
	if err != nil {
		return u, err
	}
	if ok, err := password.Verify(u.PasswordHash, pw); err != nil || !ok {
		msg := MsgCurrentPassword
		if field == "password" {
			msg = MsgWrongPassword
		}
		return u, apperr.Field(field, msg)
	}
	return u, nil
}

// Session is one open session of the signed-in user.
type Session struct {
	ID        int64     `json:"id"`
	IP        string    `json:"ip"`
	UserAgent string    `json:"user_agent"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Current   bool      `json:"current"`
	// Staff names the support member who opened it as the user (impersonation).
	Staff string `json:"staff,omitempty"`
}

// Sessions lists the user's open sessions, newest first (at most 100).
func (s *Service) Sessions(ctx context.Context, id acl.Identity) ([]Session, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, ip, user_agent, created_at, expires_at, impersonated_by FROM sessions
		WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY id DESC LIMIT 100`, id.UserID)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Session, error) {
		var ss Session
		err := r.Scan(&ss.ID, &ss.IP, &ss.UserAgent, &ss.CreatedAt, &ss.ExpiresAt, &ss.Staff)
		ss.Current = ss.ID == id.SessionID
		return ss, err
	})
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	return out, nil
}

// RevokeSession closes one of the user's sessions (any but a foreign one).
func (s *Service) RevokeSession(ctx context.Context, id acl.Identity, sessionID int64, c Client) error {
	return s.revokeAudited(ctx, id, sessionID, 0, "auth.session_revoke", c)
}

// LogoutEverywhere closes every other session of the user, and this one too when
// includeCurrent, and forgets all the user's device tokens.
func (s *Service) LogoutEverywhere(ctx context.Context, id acl.Identity, includeCurrent bool, c Client) error {
	keep := id.SessionID
	if includeCurrent {
		keep = 0
	}
	return s.revokeAudited(ctx, id, 0, keep, "auth.logout_everywhere", c)
}

// revokeAudited revokes the user's sessions (only sessionID when set; all of them
// also forget the user's device tokens), audits and announces it; no session closed
// for a given sessionID is a not-found.
func (s *Service) revokeAudited(ctx context.Context, id acl.Identity, sessionID, keep int64, action string, c Client) error {
	var rev revocation
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if rev, err = revokeSessions(ctx, tx, id.UserID, sessionID, keep); err != nil {
			return err
		}
		if sessionID != 0 && len(rev.Sessions) == 0 {
			return apperr.New(apperr.NotFound, MsgSessionNotFound)
		}
		if sessionID == 0 {
			if _, err := forgetDevices(ctx, tx, id.UserID); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: action, IP: c.IP,
			TargetType: "session", Target: strconv.FormatInt(sessionID, 10), Details: map[string]any{"sessions": rev.Sessions}})
	})
	if err != nil {
		return err
	}
	s.announce(ctx, rev)
	return nil
}

// revokeSessions revokes the user's open sessions: only one when only is set, and
// never keep.
func revokeSessions(ctx context.Context, tx pgx.Tx, userID, only, keep int64) (revocation, error) {
	rows, err := tx.Query(ctx, `UPDATE sessions SET revoked_at = now()
		WHERE user_id = $1 AND revoked_at IS NULL AND ($2 = 0 OR id = $2) AND id <> $3 RETURNING id, token_hash`,
		userID, only, keep)
	return collectRevoked(rows, err)
}

// StartStepUpTo sends a step-up code for purpose to mobile (a number the user is
// proving, e.g. the new number of a mobile change); "" is the user's own mobile.
func (s *Service) StartStepUpTo(ctx context.Context, userID int64, purpose, mobile string, c Client) (StepUp, error) {
	u, err := s.accounts.ByID(ctx, userID)
	if err != nil {
		return StepUp{}, err
	}
	if err := s.allow(ctx, budgetKey("otp:send:subject:", strings.ToLower(u.Username), true), s.cfg.OTPSendPerMin); err != nil {
		return StepUp{}, err
	}
	if mobile != "" {
		u.Mobile = mobile
	}
	ch, err := s.startChallenge(ctx, u, purpose, "sms", true, c) // a session of the user asks
	if err != nil {
		return StepUp{}, err
	}
	return StepUp{OTPToken: ch.token, ResendAfter: int(s.cfg.OTPResendAfter.Seconds()), MobileHint: mobileHint(u.Mobile)}, nil
}
