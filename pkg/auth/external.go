package auth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// ExternalCode is a one-time, short-lived external-login code and the panel path that
// takes it. The code, never a session token, travels in the link.
type ExternalCode struct {
	Code      string `json:"code"`
	ExpiresIn int    `json:"expires_in"`
	Path      string `json:"path"`
}

// ExternalAccount names the account an external-login code opens, for the
// confirmation screen.
type ExternalAccount struct {
	Username    string `json:"username"`
	Name        string `json:"name"`
	AccountName string `json:"account_name"`
}

// IssueExternalCode makes a code that logs into the caller's own user, or (an owner
// only) a colleague's user of the same account.
func (s *Service) IssueExternalCode(ctx context.Context, id acl.Identity, userID int64, c Client) (ExternalCode, error) {
	target := id.UserID
	if userID != 0 && userID != id.UserID {
		if !id.IsOwner {
			return ExternalCode{}, apperr.ErrForbidden
		}
		u, err := s.accounts.ByID(ctx, userID)
		if err != nil || u.AccountID != id.AccountID {
			return ExternalCode{}, apperr.ErrNotFound
		}
		target = u.ID
	}
	return s.issueExternal(ctx, target, id.UserID, c, audit.Entry{AccountID: id.AccountID, UserID: id.UserID,
		Action: "auth.external_issued", Target: strconv.FormatInt(target, 10), IP: c.IP})
}

// PreviewExternal names the account a live code opens, without using it up.
func (s *Service) PreviewExternal(ctx context.Context, code string, c Client) (ExternalAccount, error) {
	if err := s.allow(ctx, "external:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return ExternalAccount{}, err
	}
	var a ExternalAccount
	err := s.pool.QueryRow(ctx, `SELECT u.username, u.name, a.name FROM challenges ch
		JOIN users u ON u.id = ch.user_id JOIN accounts a ON a.id = u.account_id
		WHERE ch.token_hash = $1 AND ch.purpose = 'external' AND ch.consumed_at IS NULL AND ch.expires_at > $2
		AND u.status <> 'disabled'`, hashToken(strings.TrimSpace(code)), s.now()).Scan(&a.Username, &a.Name, &a.AccountName)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, externalInvalid()
	}
	if err != nil {
		return a, fmt.Errorf("preview external code: %w", err)
	}
	return a, nil
}

// ExchangeExternal uses up a code and opens a session of its user.
func (s *Service) ExchangeExternal(ctx context.Context, code string, c Client) (string, error) {
	if err := s.allow(ctx, "external:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return "", err
	}
	var ch challenge
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if ch, err = s.loadChallenge(ctx, tx, strings.TrimSpace(code), "external"); err != nil {
			if _, ok := apperr.As(err); ok {
				return externalInvalid()
			}
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE challenges SET consumed_at = now() WHERE id = $1`, ch.id)
		return err
	})
	if err != nil {
		return "", err
	}
	u, err := s.accounts.ByID(ctx, ch.userID)
	if err != nil {
		return "", err
	}
	if err := usable(u); err != nil {
		return "", err
	}
	// A link may be opened in anybody's browser: it earns no device token.
	staff, action := staffOf{ch.staffID, ch.staff}, "auth.external_login"
	if ch.staffID != 0 {
		action = "auth.impersonated"
	}
	o, err := s.openSessionAs(ctx, u, c, action, staff, false)
	return o.Token, err
}

// IssueStaffExternalCode makes a code with which a staff member logs in as the
// owner of a customer account (impersonation). The code is single-use and
// short-lived like any external-login code, and both its issue and its use are in
// the customer's audit log with the staff member's name.
func (s *Service) IssueStaffExternalCode(ctx context.Context, staff acl.Identity, accountID int64, c Client) (ExternalCode, error) {
	if !staff.Staff {
		return ExternalCode{}, apperr.ErrNotFound
	}
	var target int64
	err := s.pool.QueryRow(ctx, `SELECT id FROM users WHERE account_id = $1 AND is_owner AND NOT is_staff`, accountID).Scan(&target)
	if errors.Is(err, pgx.ErrNoRows) {
		return ExternalCode{}, apperr.ErrNotFound
	}
	if err != nil {
		return ExternalCode{}, fmt.Errorf("account owner: %w", err)
	}
	return s.issueExternal(ctx, target, staff.UserID, c, audit.Entry{AccountID: accountID, UserID: staff.UserID,
		Action: "staff.impersonate_issued", Target: strconv.FormatInt(target, 10), IP: c.IP,
		Details: map[string]any{"staff": staff.Username}})
}

// issueExternal stores a new external-login code for target, issued by issuer,
// with its audit entry.
func (s *Service) issueExternal(ctx context.Context, target, issuer int64, c Client, e audit.Entry) (ExternalCode, error) {
	code, err := newToken()
	if err != nil {
		return ExternalCode{}, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO challenges (user_id, purpose, token_hash, method, max_tries, ip, expires_at, issued_by)
			VALUES ($1, 'external', $2, 'token', 1, $3, $4, $5)`, target, hashToken(code), c.IP,
			s.now().Add(s.cfg.ExternalLoginTTL), issuer)
		if err != nil {
			return fmt.Errorf("insert external code: %w", err)
		}
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return ExternalCode{}, err
	}
	return ExternalCode{Code: code, ExpiresIn: int(s.cfg.ExternalLoginTTL.Seconds()), Path: "/external-login?code=" + code}, nil
}

func externalInvalid() error {
	return apperr.New(apperr.Unauthorized, MsgExternalInvalid).WithCode(CodeExternalInvalid)
}
