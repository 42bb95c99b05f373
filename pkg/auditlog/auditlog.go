// Package auditlog reads an account's audit log for the owner's page: a filtered,
// paged list and a streamed Excel export. pkg/audit writes the log.
package auditlog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/validate"
)

// Paging bounds of the list.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// Persian messages of the filters.
const (
	msgUser   = "کاربر انتخاب‌شده معتبر نیست"
	msgAction = "نوع رویداد معتبر نیست"
)

// Service reads the audit log.
type Service struct{ pool *pgxpool.Pool }

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Filter narrows the log: a user, an action code, a time range [From, To).
type Filter struct {
	UserID int64
	Action string
	From   time.Time
	To     time.Time
	Page   int
	Limit  int
}

// Row is one entry as the page shows it.
type Row struct {
	ID          int64           `json:"id"`
	CreatedAt   time.Time       `json:"created_at"`
	UserID      *int64          `json:"user_id"`
	UserName    string          `json:"user_name"`
	APIKeyID    *int64          `json:"api_key_id"`
	Action      string          `json:"action"`
	ActionTitle string          `json:"action_title"`
	TargetType  string          `json:"target_type"`
	Target      string          `json:"target"`
	Details     json.RawMessage `json:"details"`
	Before      json.RawMessage `json:"before"`
	After       json.RawMessage `json:"after"`
	IP          string          `json:"ip"`
	UserAgent   string          `json:"user_agent"`
}

// User is a member of the account, for the user filter.
type User struct {
	ID    int64  `json:"value"`
	Label string `json:"label"`
}

// Options are the choices of the page's filters.
type Options struct {
	Actions []audit.Label `json:"actions"`
	Users   []User        `json:"users"`
}

// ParseFilter reads user_id, action, the date range (date_from and date_to as the
// panel's date-range filter sends them, or from and to; Tehran days, a bare date as
// "to" meaning the end of that day) and paging.
func ParseFilter(q url.Values) (Filter, error) {
	pg, err := validate.ParsePaging(q, DefaultLimit, MaxLimit)
	if err != nil {
		return Filter{}, err
	}
	f := Filter{Page: pg.Page, Limit: pg.Limit, Action: strings.TrimSpace(q.Get("action"))}
	errs := apperr.Fields{}
	if s := strings.TrimSpace(validate.ToLatinDigits(q.Get("user_id"))); s != "" {
		if f.UserID, err = strconv.ParseInt(s, 10, 64); err != nil || f.UserID <= 0 {
			errs.Add("user_id", msgUser)
		}
	}
	if len(f.Action) > 64 {
		errs.Add("action", msgAction)
	}
	f.From, f.To = report.ParseRange(first(q, "date_from", "from"), first(q, "date_to", "to"), "date_from", "date_to", errs)
	if err := errs.Err(); err != nil {
		return Filter{}, err
	}
	return f, nil
}

// first is the first non-empty of the query's keys.
func first(q url.Values, keys ...string) string {
	for _, k := range keys {
		if v := q.Get(k); strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

const rowCols = `l.id, l.created_at, l.user_id, coalesce(nullif(u.name, ''), u.username, ''), l.api_key_id, l.action,
	l.target_type, l.target, l.details, l.before, l.after, l.ip, l.user_agent`

// where is the filter of the list and the export ($1 account … $5 to).
const where = `FROM audit_log l LEFT JOIN users u ON u.id = l.user_id
	WHERE l.account_id = $1 AND ($2 = 0 OR l.user_id = $2) AND ($3 = '' OR l.action = $3)
	AND ($4::timestamptz IS NULL OR l.created_at >= $4) AND ($5::timestamptz IS NULL OR l.created_at < $5)`

func (f Filter) args(accountID int64) []any {
	return []any{accountID, f.UserID, f.Action, db.OptTime(f.From), db.OptTime(f.To)}
}

// entries is the account's audit log, newest first.
var entries = db.Log[Row]{What: "audit log", Cols: rowCols, From: where, ID: "l.id", Scan: scanRow,
	IDOf: func(r Row) int64 { return r.ID }}

// List returns one page of the account's log, newest first, and the total.
func (s *Service) List(ctx context.Context, accountID int64, f Filter) ([]Row, int64, error) {
	return entries.Page(ctx, s.pool, f.args(accountID), f.Limit, f.Page)
}

func scanRow(r pgx.CollectableRow) (Row, error) {
	var x Row
	err := r.Scan(&x.ID, &x.CreatedAt, &x.UserID, &x.UserName, &x.APIKeyID, &x.Action, &x.TargetType, &x.Target,
		&x.Details, &x.Before, &x.After, &x.IP, &x.UserAgent)
	x.ActionTitle = audit.Title(x.Action)
	return x, err
}

// Options lists the filter choices: every action code with its Persian name and the
// account's users.
func (s *Service) Options(ctx context.Context, accountID int64) (Options, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, coalesce(nullif(name, ''), username) FROM users
		WHERE account_id = $1 ORDER BY id`, accountID)
	if err != nil {
		return Options{}, fmt.Errorf("audit users: %w", err)
	}
	users, err := pgx.CollectRows(rows, pgx.RowToStructByPos[User])
	if err != nil {
		return Options{}, fmt.Errorf("audit users: %w", err)
	}
	return Options{Actions: audit.Labels, Users: users}, nil
}
