// Package account owns accounts (businesses) and their users: registration, the
// owner and colleagues, and the user records that authentication reads.
package account

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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
	// MobileVerified is false while a registration waits for its mobile's code: such a
	// user cannot log in and receives no login codes.
	MobileVerified bool
	Permissions    []acl.Permission
	// IsStaff marks a back-office staff user (never a customer).
	IsStaff bool
	// Suspended reports that staff suspended the user's account.
	Suspended bool
}

// PendingRegistrationTTL is how long an unverified registration holds its username;
// after it, registering the same username again replaces it.
const PendingRegistrationTTL = 30 * time.Minute

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
	// MobileVerified registers the mobile as proven (the demo seed); a sign-up through
	// the API starts unverified and proves it with a code.
	MobileVerified bool `json:"-"`
}

// Register creates an account and its owner. Two-step login is on by default. Unless
// in.MobileVerified, the user waits for the mobile's code (MarkMobileVerified); a stale
// unverified registration of the same username is taken over.
func (s *Service) Register(ctx context.Context, in RegisterInput, ip string) (User, error) {
	in.Username = strings.TrimSpace(in.Username)
	in.Name = strings.TrimSpace(in.Name)
	mobile, mobileOK := validate.NormalizeMobile(in.Mobile)
	errs := validate.Collect(
		validate.InField("name", validate.NotBlank("name", in.Name)),
		validate.AccountName("name", in.Name),
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
		TwoStep: !in.TwoStepOff, TwoStepMethod: "sms", PasswordHash: hash, MobileVerified: in.MobileVerified}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		took, err := takeOverStale(ctx, tx, &u)
		if err != nil {
			return err
		}
		if !took {
			if err := insertOwner(ctx, tx, &u); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "account.register", Target: u.Username, IP: ip})
	})
	if e, ok := apperr.As(err); ok && e.Code == "409" {
		e.Kind = apperr.Conflict
		return User{}, e
	}
	return u, err
}

// takeOverStale reuses the user of an unverified registration older than
// PendingRegistrationTTL with the same username, so a sign-up that never proved its
// mobile cannot hold a username for ever.
func takeOverStale(ctx context.Context, tx pgx.Tx, u *User) (bool, error) {
	err := tx.QueryRow(ctx, `UPDATE users SET password_hash = $2, name = $3, mobile = $4, two_step = $5,
		mobile_verified = $6, created_at = now(), updated_at = now()
		WHERE lower(username) = lower($1) AND NOT mobile_verified AND created_at < now() - make_interval(secs => $7)
		RETURNING id, account_id`, u.Username, u.PasswordHash, u.Name, u.Mobile, u.TwoStep, u.MobileVerified,
		PendingRegistrationTTL.Seconds()).Scan(&u.ID, &u.AccountID)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("take over registration: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE accounts SET name = $2 WHERE id = $1`, u.AccountID, u.Name); err != nil {
		return false, fmt.Errorf("rename account: %w", err)
	}
	return true, nil
}

func insertOwner(ctx context.Context, tx pgx.Tx, u *User) error {
	if err := tx.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, u.Name).Scan(&u.AccountID); err != nil {
		return fmt.Errorf("insert account: %w", err)
	}
	err := tx.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, name, mobile, is_owner, two_step,
		mobile_verified, rules_accepted_at) VALUES ($1, $2, $3, $4, $5, true, $6, $7, now())
		ON CONFLICT DO NOTHING RETURNING id`,
		u.AccountID, u.Username, u.PasswordHash, u.Name, u.Mobile, u.TwoStep, u.MobileVerified).Scan(&u.ID)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.Field("username", MsgUsernameTaken).WithCode("409")
	}
	if err != nil {
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

// MarkMobileVerified records that the user proved the mobile with a code.
func (s *Service) MarkMobileVerified(ctx context.Context, tx pgx.Tx, userID int64) error {
	if _, err := tx.Exec(ctx, `UPDATE users SET mobile_verified = true, updated_at = now() WHERE id = $1`, userID); err != nil {
		return fmt.Errorf("mark mobile verified: %w", err)
	}
	return nil
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
	u.mobile_verified, coalesce(r.permissions, '{}'), u.is_staff,
	EXISTS (SELECT 1 FROM accounts a WHERE a.id = u.account_id AND a.status = 'suspended')`

func scanUser(row pgx.Row) (User, error) {
	var u User
	var perms []string
	err := row.Scan(&u.ID, &u.AccountID, &u.Username, &u.PasswordHash, &u.Name, &u.Mobile, &u.IsOwner, &u.Status,
		&u.TwoStep, &u.TwoStepMethod, &u.TOTPSecret, &u.TOTPPending, &u.MobileVerified, &perms, &u.IsStaff, &u.Suspended)
	for _, p := range perms {
		u.Permissions = append(u.Permissions, acl.Permission(p))
	}
	return u, err
}

// ByUsername loads a user by username (case-insensitive); apperr.ErrNotFound when absent.
func (s *Service) ByUsername(ctx context.Context, username string) (User, error) {
	return s.one(ctx, `lower(u.username) = lower($1)`, strings.TrimSpace(username))
}

// ByVerifiedMobile loads at most two customer users (never staff, never deactivated)
// who proved mobile (international form, 98…): enough to tell one owner from a
// number shared by several users.
func (s *Service) ByVerifiedMobile(ctx context.Context, mobile string) ([]User, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+userColumns+` FROM users u LEFT JOIN roles r ON r.id = u.role_id
		WHERE u.mobile = $1 AND u.mobile_verified AND NOT u.is_staff AND u.status <> 'disabled' ORDER BY u.id LIMIT 2`, mobile)
	if err != nil {
		return nil, fmt.Errorf("users by mobile: %w", err)
	}
	users, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (User, error) { return scanUser(r) })
	if err != nil {
		return nil, fmt.Errorf("users by mobile: %w", err)
	}
	return users, nil
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
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var accountID int64
		var was bool
		var wasMethod string
		err := tx.QueryRow(ctx, `SELECT account_id, two_step, two_step_method FROM users WHERE id = $1 FOR UPDATE`,
			userID).Scan(&accountID, &was, &wasMethod)
		if err != nil {
			return fmt.Errorf("set two-step: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET two_step = $2, two_step_method = $3,
			totp_secret = coalesce(nullif($4, ''), totp_secret),
			totp_pending = CASE WHEN $4 = '' THEN totp_pending END,
			updated_at = now() WHERE id = $1`, userID, on, method, totpSecret); err != nil {
			return fmt.Errorf("set two-step: %w", err)
		}
		action := audit.AuthTwoStepDisable
		if on {
			action = audit.AuthTwoStepEnable
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, UserID: userID, Action: action,
			TargetType: "user", Target: strconv.FormatInt(userID, 10),
			Before: map[string]any{"on": was, "method": wasMethod}, After: map[string]any{"on": on, "method": method}})
	})
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

// CheckUsername validates a username as registration does (for colleagues' usernames).
func CheckUsername(u string) error { return usernameError(u) }
