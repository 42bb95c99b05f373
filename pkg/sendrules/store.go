package sendrules

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/operator"
)

// Persian messages of the settings.
const (
	MsgHours           = "ساعت شروع و پایان را به شکل ساعت:دقیقه وارد کنید؛ شروع باید پیش از پایان باشد"
	MsgOperator        = "اپراتور معتبر نیست"
	MsgLineKind        = "ساعت مجاز فقط برای خطوط تبلیغاتی تعیین می‌شود؛ خطوط خدماتی همیشه ارسال می‌کنند"
	MsgDefaultRule     = "ساعت مجاز همه اپراتورها حذف‌شدنی نیست؛ آن را ویرایش کنید"
	MsgRuleNotFound    = "این ساعت مجاز پیدا نشد"
	MsgOwnHoursOutside = "ساعت‌های انتخابی شما با ساعت مجاز اپراتورها هیچ هم‌پوشانی ندارد"
)

// CacheTTL is how long a loaded table is used before it is read again: a
// staff change reaches every process within it.
const CacheTTL = 5 * time.Second

// Rule is one row of the operators' sending hours.
type Rule struct {
	// Operator is an operator code, or "" for every operator without its own row.
	Operator  string    `json:"operator"`
	LineKind  string    `json:"line_kind"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	UpdatedAt time.Time `json:"updated_at"`
	window    Window
}

// Service reads and writes the sending hours.
type Service struct {
	pool *pgxpool.Pool

	mu     sync.Mutex
	table  *Table
	loaded time.Time
}

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Table returns the operators' sending hours, read at most CacheTTL ago.
func (s *Service) Table(ctx context.Context) (*Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table != nil && time.Since(s.loaded) < CacheTTL {
		return s.table, nil
	}
	rules, err := s.Rules(ctx)
	if err != nil {
		return nil, err
	}
	s.table, s.loaded = NewTable(rules), time.Now()
	return s.table, nil
}

// forget drops the cached table (after a change made through this service).
func (s *Service) forget() {
	s.mu.Lock()
	s.table = nil
	s.mu.Unlock()
}

// Rules lists the operators' sending hours, the row for every operator first.
func (s *Service) Rules(ctx context.Context) ([]Rule, error) {
	rows, err := s.pool.Query(ctx, `SELECT operator, line_kind, start_minute, end_minute, updated_at FROM send_hours
		ORDER BY operator <> '', operator, line_kind`)
	if err != nil {
		return nil, fmt.Errorf("send hours: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Rule, error) {
		var x Rule
		err := r.Scan(&x.Operator, &x.LineKind, &x.window.From, &x.window.To, &x.UpdatedAt)
		x.From, x.To = Clock(x.window.From), Clock(x.window.To)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("send hours: %w", err)
	}
	if out == nil {
		out = []Rule{}
	}
	return out, nil
}

// checkRule validates a rule from staff.
func checkRule(in *Rule) error {
	f := apperr.Fields{}
	if in.Operator != "" && !slices.Contains(operator.Codes, in.Operator) {
		f.Add("operator", MsgOperator)
	}
	if in.LineKind == "" {
		in.LineKind = line.KindAdvertising
	}
	if !Restricted(in.LineKind) {
		f.Add("line_kind", MsgLineKind)
	}
	w, ok := Hours{From: in.From, To: in.To}.Window()
	if !ok {
		f.Add("to", MsgHours)
	}
	in.window, in.From, in.To = w, Clock(w.From), Clock(w.To)
	return f.Err()
}

// SetRule creates or changes the sending hours of an operator (or of every
// operator) for a line kind, audited with the staff member.
func (s *Service) SetRule(ctx context.Context, by acl.Identity, in Rule, ip string) (Rule, error) {
	if err := checkRule(&in); err != nil {
		return in, err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO send_hours (operator, line_kind, start_minute, end_minute, updated_by)
			VALUES ($1, $2, $3, $4, nullif($5, 0)) ON CONFLICT (operator, line_kind) DO UPDATE
			SET start_minute = $3, end_minute = $4, updated_by = nullif($5, 0), updated_at = now() RETURNING updated_at`,
			in.Operator, in.LineKind, in.window.From, in.window.To, by.UserID).Scan(&in.UpdatedAt); err != nil {
			return fmt.Errorf("save send hours: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.send_hours_saved", IP: ip,
			Details: map[string]any{"staff": by.Username, "operator": in.Operator, "line_kind": in.LineKind, "from": in.From, "to": in.To}})
	})
	s.forget()
	return in, err
}

// DeleteRule removes an operator's own sending hours (it then follows the row
// for every operator, which cannot be removed).
func (s *Service) DeleteRule(ctx context.Context, by acl.Identity, op, kind, ip string) error {
	if op == "" {
		return apperr.Field("operator", MsgDefaultRule)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM send_hours WHERE operator = $1 AND line_kind = $2`, op, kind)
		if err != nil {
			return fmt.Errorf("delete send hours: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.New(apperr.NotFound, MsgRuleNotFound)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.send_hours_deleted", IP: ip,
			Details: map[string]any{"staff": by.Username, "operator": op, "line_kind": kind}})
	})
	s.forget()
	return err
}

// AccountHours returns the account's own sending hours (nil: none set).
func (s *Service) AccountHours(ctx context.Context, accountID int64) (*Window, error) {
	var w Window
	err := s.pool.QueryRow(ctx, `SELECT start_minute, end_minute FROM account_send_hours WHERE account_id = $1`,
		accountID).Scan(&w.From, &w.To)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("account send hours: %w", err)
	}
	return &w, nil
}

// SetAccountHours sets (h not nil) or clears the account's own sending hours;
// hours that leave nothing of the operators' window are refused.
func (s *Service) SetAccountHours(ctx context.Context, id acl.Identity, h *Hours, ip string) error {
	if h == nil {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `DELETE FROM account_send_hours WHERE account_id = $1`, id.AccountID); err != nil {
				return fmt.Errorf("clear send hours: %w", err)
			}
			return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "account.send_hours_cleared", IP: ip})
		})
	}
	w, err := s.CheckOwn(ctx, *h)
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO account_send_hours (account_id, start_minute, end_minute) VALUES ($1, $2, $3)
			ON CONFLICT (account_id) DO UPDATE SET start_minute = $2, end_minute = $3, updated_at = now()`,
			id.AccountID, w.From, w.To); err != nil {
			return fmt.Errorf("save send hours: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "account.send_hours_saved", IP: ip,
			Details: map[string]any{"from": Clock(w.From), "to": Clock(w.To)}})
	})
}

// CheckOwn validates an account's (or one send's) own hours: well formed and
// overlapping the advertising window of every operator.
func (s *Service) CheckOwn(ctx context.Context, h Hours) (Window, error) {
	w, ok := h.Window()
	if !ok {
		return w, apperr.Field("send_hours", MsgHours)
	}
	t, err := s.Table(ctx)
	if err != nil {
		return w, err
	}
	if t.Decide(time.Time{}, operator.Codes, line.KindAdvertising, &w).Window.Empty() {
		return w, apperr.Field("send_hours", MsgOwnHoursOutside)
	}
	return w, nil
}
