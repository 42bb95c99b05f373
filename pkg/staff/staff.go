// Package staff owns the back office's people and its account administration:
// staff users (separate from customers: they live in the platform's own account,
// always log in with the second step and never pass the customer guard), and what
// staff do to customer accounts — search, view, adjust credit through the ledger
// and activate or suspend. Every staff action is audited on the customer's account.
package staff

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// Persian messages of the back office.
const (
	MsgUsername      = "نام کاربری باید ۳ تا ۳۲ کاراکتر و فقط شامل حروف انگلیسی، عدد، نقطه، خط تیره یا زیرخط باشد"
	MsgUsernameTaken = "این نام کاربری قبلا ثبت شده است"
	MsgPassword      = "رمز عبور باید حداقل ۸ کاراکتر باشد"
	MsgMobile        = "شماره همراه معتبر نیست"
	MsgAmount        = "مبلغ باید عددی صحیح و غیر صفر باشد"
	MsgReason        = "توضیح را وارد کنید"
	MsgStatus        = "وضعیت حساب معتبر نیست"
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9._-]{3,32}$`)

// NewUser is a staff user to create.
type NewUser struct {
	Username string
	Password string
	Name     string
	Mobile   string
}

// AddUser creates a staff user in the platform's own account. The mobile receives
// the login's second-step codes.
func AddUser(ctx context.Context, pool *pgxpool.Pool, in NewUser) (int64, error) {
	return addUser(ctx, pool, in)
}

// addUser validates and inserts a staff user through q (a pool or a transaction).
func addUser(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, in NewUser) (int64, error) {
	fields := apperr.Fields{}
	if !usernameRE.MatchString(in.Username) {
		fields.Add("username", MsgUsername)
	}
	if len([]rune(in.Password)) < 8 {
		fields.Add("password", MsgPassword)
	}
	mobile, ok := validate.NormalizeMobile(in.Mobile)
	if !ok {
		fields.Add("mobile", MsgMobile)
	}
	if err := fields.Err(); err != nil {
		return 0, err
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return 0, err
	}
	var id int64
	err = q.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, name, mobile, is_staff, two_step,
		mobile_verified) VALUES ((SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'system_account'),
		$1, $2, $3, $4, true, true, true) ON CONFLICT DO NOTHING RETURNING id`,
		in.Username, hash, strings.TrimSpace(in.Name), mobile).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, apperr.Field("username", MsgUsernameTaken)
	}
	if err != nil {
		return 0, fmt.Errorf("insert staff user: %w", err)
	}
	return id, nil
}

// Service is the back office's account administration.
type Service struct {
	pool *pgxpool.Pool
	// OnMoney, when set, is told every new balance (the credit.changed event).
	OnMoney func(ctx context.Context, accountID, balance int64)
	// Revoke closes every session of a user (a suspended account's) and drops the
	// cached API keys they made, on every API instance.
	Revoke func(ctx context.Context, userID int64) error
	// Pause, inside the suspension's transaction, pauses the account's sends under
	// way (send.PauseAccount) and returns how many.
	Pause func(ctx context.Context, tx pgx.Tx, by acl.Identity, accountID int64) (int, error)
	// Resume, after a reactivation, resumes the sends its suspension paused
	// (send.Service.ResumeAccount).
	Resume func(ctx context.Context, by acl.Identity, accountID int64) error
	// MaxAdjust is the largest amount, in rials, one credit adjustment may move
	// either way (STAFF_CREDIT_ADJUST_MAX; 0 takes DefaultMaxAdjust).
	MaxAdjust int64
}

// DefaultMaxAdjust is the cap of one credit adjustment when none is configured:
// ten billion rials.
const DefaultMaxAdjust int64 = 10_000_000_000

// maxAdjust returns the configured cap of one adjustment.
func (s *Service) maxAdjust() int64 {
	if s.MaxAdjust > 0 {
		return s.MaxAdjust
	}
	return DefaultMaxAdjust
}

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Account is one customer account as staff see it.
type Account struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	Username  string    `json:"username"`
	Mobile    string    `json:"mobile"`
	Balance   int64     `json:"balance"`
	Sends     int64     `json:"sends"`
	CreatedAt time.Time `json:"created_at"`
}

const accountSelect = `SELECT a.id, a.name, a.status, coalesce(u.username, ''), coalesce(u.mobile, ''),
	coalesce(w.balance, 0), (SELECT count(*) FROM sends s WHERE s.account_id = a.id), a.created_at
	FROM accounts a LEFT JOIN users u ON u.account_id = a.id AND u.is_owner LEFT JOIN wallets w ON w.account_id = a.id
	WHERE a.id <> coalesce((SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'system_account'), 0)`

func scanAccount(r pgx.Row, extra ...any) (Account, error) {
	var a Account
	err := r.Scan(append([]any{&a.ID, &a.Name, &a.Status, &a.Username, &a.Mobile, &a.Balance, &a.Sends, &a.CreatedAt}, extra...)...)
	return a, err
}

// Accounts searches customer accounts by name, owner username, mobile or id,
// newest first.
func (s *Service) Accounts(ctx context.Context, q string, page validate.Paging) ([]Account, int64, error) {
	q = strings.TrimSpace(validate.ToLatinDigits(q))
	mobile, _ := validate.NormalizeMobile(q)
	rows, err := s.pool.Query(ctx, accountSelect+` AND ($1 = '' OR a.name ILIKE '%' || $1 || '%' OR u.username ILIKE '%' || $1 || '%'
		OR u.mobile = $2 OR a.id::text = $1) ORDER BY a.id DESC LIMIT $3 OFFSET $4`, q, mobile, page.Limit, page.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("search accounts: %w", err)
	}
	var total int64
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Account, error) { return scanAccount(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("search accounts: %w", err)
	}
	err = s.pool.QueryRow(ctx, `SELECT count(*) FROM (`+accountSelect+` AND ($1 = '' OR a.name ILIKE '%' || $1 || '%'
		OR u.username ILIKE '%' || $1 || '%' OR u.mobile = $2 OR a.id::text = $1)) x`, q, mobile).Scan(&total)
	if err != nil {
		return nil, 0, fmt.Errorf("count accounts: %w", err)
	}
	return out, total, nil
}

// Account loads one customer account.
func (s *Service) Account(ctx context.Context, id int64) (Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, accountSelect+` AND a.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return a, apperr.ErrNotFound
	}
	if err != nil {
		return a, fmt.Errorf("load account: %w", err)
	}
	return a, nil
}

// Adjust is a credit adjustment: positive adds, negative takes back.
type Adjust struct {
	Amount int64  `json:"amount"`
	Reason string `json:"reason"`
}

// AdjustCredit moves an account's credit by a ledger entry of the admin-credit
// kind, audited with the staff member and the reason, and returns the balance.
func (s *Service) AdjustCredit(ctx context.Context, by acl.Identity, accountID int64, in Adjust, ip string) (int64, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	fields := apperr.Fields{}
	if max := s.maxAdjust(); in.Amount == 0 {
		fields.Add("amount", MsgAmount)
	} else if in.Amount > max || in.Amount < -max {
		fields.Add("amount", "حداکثر مبلغ هر اصلاح اعتبار "+
			persian.Digits(strconv.FormatInt(max, 10))+" ریال است")
	}
	if in.Reason == "" {
		fields.Add("reason", MsgReason)
	}
	if err := fields.Err(); err != nil {
		return 0, err
	}
	if _, err := s.Account(ctx, accountID); err != nil {
		return 0, err
	}
	return s.credit(ctx, wallet.Entry{AccountID: accountID, Kind: wallet.AdminCredit, Amount: in.Amount,
		UserID: by.UserID, Description: in.Reason}, audit.Entry{AccountID: accountID, UserID: by.UserID,
		Action: "staff.credit_adjust", Target: strconv.FormatInt(accountID, 10), IP: ip,
		Details: map[string]any{"staff": by.Username, "amount": in.Amount, "reason": in.Reason}})
}

// OperatorActor names the operator's command line on the audit entries it makes.
const OperatorActor = "operator CLI"

// OperatorCredit is `api admin credit <username> <rials>`: it credits the user's
// account by an admin-credit ledger entry, audited (staff.credit_adjust, actor
// "operator CLI") in the same transaction, and returns the new balance.
func (s *Service) OperatorCredit(ctx context.Context, accountID, amount int64, username string) (int64, error) {
	if amount <= 0 {
		return 0, apperr.Field("amount", MsgAmount)
	}
	return s.credit(ctx, wallet.Entry{AccountID: accountID, Kind: wallet.AdminCredit, Amount: amount,
		Description: "افزایش اعتبار توسط مدیر سامانه"}, audit.Entry{AccountID: accountID,
		Action: "staff.credit_adjust", Target: strconv.FormatInt(accountID, 10),
		Details: map[string]any{"actor": OperatorActor, "user": username, "amount": amount}})
}

// credit applies e and records a (its details completed with the new balance) in
// one transaction, then announces the balance.
func (s *Service) credit(ctx context.Context, e wallet.Entry, a audit.Entry) (int64, error) {
	var bal int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if bal, _, err = wallet.Apply(ctx, tx, e); err != nil {
			return err
		}
		a.Details["balance"] = bal
		return audit.Record(ctx, tx, a)
	})
	if err != nil {
		return 0, err
	}
	if s.OnMoney != nil {
		s.OnMoney(ctx, e.AccountID, bal)
	}
	return bal, nil
}

// SetStatus activates or suspends an account. Suspending pauses its sends under
// way in the same transaction, closes its sessions and drops its API keys from every
// instance's cache; its scheduled sends, campaigns and held sends wait. Reactivating
// resumes the sends the suspension paused.
func (s *Service) SetStatus(ctx context.Context, by acl.Identity, accountID int64, status, ip string) error {
	if status != "active" && status != "suspended" {
		return apperr.Field("status", MsgStatus)
	}
	if _, err := s.Account(ctx, accountID); err != nil {
		return err
	}
	var users []int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE accounts SET status = $2 WHERE id = $1`, accountID, status); err != nil {
			return fmt.Errorf("set account status: %w", err)
		}
		rows, err := tx.Query(ctx, `SELECT id FROM users WHERE account_id = $1`, accountID)
		if err == nil {
			users, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		}
		if err != nil {
			return fmt.Errorf("account users: %w", err)
		}
		details := map[string]any{"staff": by.Username}
		if status == "suspended" && s.Pause != nil {
			n, err := s.Pause(ctx, tx, by, accountID)
			if err != nil {
				return err
			}
			details["sends_paused"] = n
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, UserID: by.UserID, Action: "staff.account_" + status,
			Target: strconv.FormatInt(accountID, 10), IP: ip, Details: details})
	})
	if err != nil {
		return err
	}
	if status == "active" {
		if s.Resume != nil {
			return s.Resume(ctx, by, accountID)
		}
		return nil
	}
	for _, u := range users {
		if s.Revoke != nil {
			if err := s.Revoke(ctx, u); err != nil {
				return err
			}
		}
	}
	return nil
}
