// Package account owns accounts (businesses) and their users: registration, the
// owner and colleagues, and the user records that authentication reads.
package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of this domain.
const (
	MsgUsernameTaken   = "این نام کاربری قبلا ثبت شده است"
	MsgUsernameInvalid = "نام کاربری باید ۳ تا ۳۲ کاراکتر و فقط شامل حروف انگلیسی، عدد، نقطه، خط تیره یا زیرخط باشد"
	MsgNameRequired    = "نام را وارد کنید"
)

// User is one person who logs in, the owner or a colleague of an account.
type User struct {
	ID            int64
	AccountID     int64
	Username      string
	PasswordHash  string
	Name          string
	Mobile        string
	IsOwner       bool
	Status        string
	TwoStep       bool
	TwoStepMethod string
	TOTPSecret    string
	TOTPPending   string
	Permissions   []acl.Permission
}

// Service manages accounts and users.
type Service struct {
	pool *pgxpool.Pool
}

// New returns the account service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// RegisterInput is the registration form.
type RegisterInput struct {
	Name                 string `json:"name"`
	Username             string `json:"username"`
	Mobile               string `json:"mobile"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
	AcceptRules          bool   `json:"accept_rules"`
	// TwoStep defaults to on; the demo seed and operator commands may turn it off.
	TwoStepOff bool `json:"-"`
	// SeedPassword skips the password policy: only the demo seed uses it, because the
	// documented demo password contains the username.
	SeedPassword bool `json:"-"`
}

// Register creates an account and its owner. Two-step login is on by default.
func (s *Service) Register(ctx context.Context, in RegisterInput, ip string) (User, error) {
	in.Username = strings.TrimSpace(in.Username)
	in.Name = strings.TrimSpace(in.Name)
	mobile, mobileOK := validate.NormalizeMobile(in.Mobile)
	errs := validate.Collect(
		validate.InField("name", validate.NotBlank("name", in.Name)),
		usernameError(in.Username),
		mobileError(mobileOK),
		passwordError(in),
		validate.PasswordConfirmation(in.Password, in.PasswordConfirmation),
		validate.RulesAccepted(in.AcceptRules),
	)
	if len(errs) > 0 {
		return User{}, fieldsErr(errs)
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return User{}, err
	}
	u := User{Username: in.Username, Name: in.Name, Mobile: mobile, IsOwner: true, Status: "active",
		TwoStep: !in.TwoStepOff, TwoStepMethod: "sms", PasswordHash: hash}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, in.Name).Scan(&u.AccountID); err != nil {
			return fmt.Errorf("insert account: %w", err)
		}
		err := tx.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, name, mobile, is_owner, two_step, rules_accepted_at)
			VALUES ($1, $2, $3, $4, $5, true, $6, now())
			ON CONFLICT DO NOTHING RETURNING id`,
			u.AccountID, u.Username, hash, u.Name, u.Mobile, u.TwoStep).Scan(&u.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.Field("username", MsgUsernameTaken).WithCode("409")
		}
		if err != nil {
			return fmt.Errorf("insert user: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "account.register", Target: u.Username, IP: ip})
	})
	if e, ok := apperr.As(err); ok && e.Code == "409" {
		e.Kind = apperr.Conflict
		return User{}, e
	}
	return u, err
}

// UsernameExists reports whether a username is taken (case-insensitive).
func (s *Service) UsernameExists(ctx context.Context, username string) (bool, error) {
	var exists bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1))`,
		strings.TrimSpace(username)).Scan(&exists)
	if err != nil {
		return false, fmt.Errorf("username exists: %w", err)
	}
	return exists, nil
}

const userColumns = `u.id, u.account_id, u.username, u.password_hash, u.name, u.mobile, u.is_owner, u.status,
	u.two_step, u.two_step_method, coalesce(u.totp_secret, ''), coalesce(u.totp_pending, ''),
	coalesce(r.permissions, '{}')`

func scanUser(row pgx.Row) (User, error) {
	var u User
	var perms []string
	err := row.Scan(&u.ID, &u.AccountID, &u.Username, &u.PasswordHash, &u.Name, &u.Mobile, &u.IsOwner, &u.Status,
		&u.TwoStep, &u.TwoStepMethod, &u.TOTPSecret, &u.TOTPPending, &perms)
	for _, p := range perms {
		u.Permissions = append(u.Permissions, acl.Permission(p))
	}
	return u, err
}

// ByUsername loads a user by username (case-insensitive); apperr.ErrNotFound when absent.
func (s *Service) ByUsername(ctx context.Context, username string) (User, error) {
	return s.one(ctx, `lower(u.username) = lower($1)`, strings.TrimSpace(username))
}

// ByID loads a user by id.
func (s *Service) ByID(ctx context.Context, id int64) (User, error) {
	return s.one(ctx, `u.id = $1`, id)
}

func (s *Service) one(ctx context.Context, where string, arg any) (User, error) {
	u, err := scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE `+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, apperr.ErrNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("load user: %w", err)
	}
	return u, nil
}

// SetPassword replaces a user's password hash.
func (s *Service) SetPassword(ctx context.Context, tx pgx.Tx, userID int64, hash string) error {
	_, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, userID, hash)
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// SetTwoStep sets a user's second step. A non-empty totpSecret becomes the active
// authenticator secret and clears the pending one.
func (s *Service) SetTwoStep(ctx context.Context, userID int64, on bool, method, totpSecret string) error {
	_, err := s.pool.Exec(ctx, `UPDATE users SET two_step = $2, two_step_method = $3,
		totp_secret = coalesce(nullif($4, ''), totp_secret),
		totp_pending = CASE WHEN $4 = '' THEN totp_pending END,
		updated_at = now() WHERE id = $1`, userID, on, method, totpSecret)
	if err != nil {
		return fmt.Errorf("set two-step: %w", err)
	}
	return nil
}

// SetTwoStepPending stores an authenticator secret awaiting its first code.
func (s *Service) SetTwoStepPending(ctx context.Context, userID int64, secret string) error {
	_, err := s.pool.Exec(ctx, `UPDATE users SET totp_pending = $2, updated_at = now() WHERE id = $1`, userID, secret)
	if err != nil {
		return fmt.Errorf("set pending secret: %w", err)
	}
	return nil
}

// Pool exposes the pool for services that write users inside their own transactions.
func (s *Service) Pool() *pgxpool.Pool { return s.pool }

func usernameError(u string) error {
	if u == "" {
		return validate.Required("username")
	}
	if len(u) < 3 || len(u) > 32 {
		return &validate.Error{Field: "username", Message: MsgUsernameInvalid}
	}
	for _, r := range u {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return &validate.Error{Field: "username", Message: MsgUsernameInvalid}
		}
	}
	return nil
}

func passwordError(in RegisterInput) error {
	if in.SeedPassword {
		return nil
	}
	return validate.Password(in.Password, in.Username)
}

func mobileError(ok bool) error {
	if ok {
		return nil
	}
	return &validate.Error{Field: validate.FieldMobile, Message: validate.MsgMobile}
}

func fieldsErr(f map[string][]string) error {
	return apperr.Fields(f).Err()
}
