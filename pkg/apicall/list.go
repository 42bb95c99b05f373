package apicall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the filters.
const (
	msgStatus = "وضعیت پاسخ باید یک کد HTTP (مثلاً ۲۰۰) یا دسته‌ای مانند 4xx باشد"
	msgKey    = "شناسهٔ کلید نامعتبر است"
	msgPath   = "مسیر حداکثر ۲۰۰ نویسه است"
)

// Service reads the log.
type Service struct{ pool *pgxpool.Pool }

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Filter narrows the log: a path fragment, a status (200) or class (4xx), a key,
// a time range [From, To) and paging.
type Filter struct {
	Path      string
	StatusMin int
	StatusMax int
	APIKeyID  int64
	From, To  time.Time
	validate.Paging
}

// PageOf is the filter's page and limit.
func (f Filter) PageOf() (page, limit int) { return f.Page, f.Limit }

// ParseFilter reads path, status, api_key_id, date_from and date_to (Tehran days,
// Jalali or Gregorian as the panel's date filter sends them) and paging.
func ParseFilter(q url.Values) (Filter, error) {
	pg, err := validate.ParsePaging(q, 20, 100)
	if err != nil {
		return Filter{}, err
	}
	f := Filter{Paging: pg, Path: strings.TrimSpace(q.Get("path"))}
	errs := apperr.Fields{}
	if len([]rune(f.Path)) > 200 {
		errs.Add("path", msgPath)
	}
	if s := strings.ToLower(strings.TrimSpace(validate.ToLatinDigits(q.Get("status")))); s != "" {
		if c, ok := strings.CutSuffix(s, "xx"); ok && len(c) == 1 && c[0] >= '1' && c[0] <= '5' {
			f.StatusMin = int(c[0]-'0') * 100
			f.StatusMax = f.StatusMin + 99
		} else if n, err := strconv.Atoi(s); err == nil && n >= 100 && n <= 599 {
			f.StatusMin, f.StatusMax = n, n
		} else {
			errs.Add("status", msgStatus)
		}
	}
	if s := strings.TrimSpace(validate.ToLatinDigits(q.Get("api_key_id"))); s != "" {
		if f.APIKeyID, err = strconv.ParseInt(s, 10, 64); err != nil || f.APIKeyID <= 0 {
			errs.Add("api_key_id", msgKey)
		}
	}
	f.From, f.To = report.ParseRange(q.Get("date_from"), q.Get("date_to"), "date_from", "date_to", errs)
	if err := errs.Err(); err != nil {
		return Filter{}, err
	}
	return f, nil
}

// Row is one call as the list shows it.
type Row struct {
	ID        int64     `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	APIKeyID  int64     `json:"api_key_id"`
	KeyTitle  string    `json:"api_key_title"`
	KeyPrefix string    `json:"api_key_prefix"`
	IP        string    `json:"ip"`
	Status    int       `json:"status"`
	LatencyMS float64   `json:"latency_ms"`
}

// Detail is one call with its bodies.
type Detail struct {
	Row
	Query     string `json:"query"`
	ReqBody   string `json:"request_body"`
	RespBody  string `json:"response_body"`
	RequestID string `json:"request_id"`
}

const rowCols = `c.id, c.created_at, c.method, c.path, c.api_key_id, coalesce(k.title, ''), coalesce(k.prefix, ''),
	c.ip, c.status, c.latency_us`

// where is the filter ($1 account … $7 to); every call is the account's own.
const where = `FROM api_calls c LEFT JOIN api_keys k ON k.id = c.api_key_id
	WHERE c.account_id = $1 AND ($2 = '' OR c.path ILIKE '%' || $2 || '%')
	AND ($3 = 0 OR c.status BETWEEN $3 AND $4) AND ($5 = 0 OR c.api_key_id = $5)
	AND ($6::timestamptz IS NULL OR c.created_at >= $6) AND ($7::timestamptz IS NULL OR c.created_at < $7)`

func (f Filter) args(accountID int64) []any {
	return []any{accountID, db.EscapeLike(f.Path), f.StatusMin, f.StatusMax, f.APIKeyID, db.OptTime(f.From), db.OptTime(f.To)}
}

func scanRow(r pgx.CollectableRow) (Row, error) {
	var x Row
	var us int64
	err := r.Scan(&x.ID, &x.CreatedAt, &x.Method, &x.Path, &x.APIKeyID, &x.KeyTitle, &x.KeyPrefix, &x.IP, &x.Status, &us)
	x.LatencyMS = float64(us) / 1000
	return x, err
}

// calls is the account's call log, newest first.
var calls = db.Log[Row]{What: "api calls", Cols: rowCols, From: where, ID: "c.id", Scan: scanRow,
	IDOf: func(r Row) int64 { return r.ID }}

// List returns one page of the account's calls, newest first, and the total.
func (s *Service) List(ctx context.Context, accountID int64, f Filter) ([]Row, int64, error) {
	return calls.Page(ctx, s.pool, f.args(accountID), f.Limit, f.Page)
}

// Get returns one call of the account with its bodies.
func (s *Service) Get(ctx context.Context, accountID, id int64) (Detail, error) {
	var d Detail
	var us int64
	err := s.pool.QueryRow(ctx, `SELECT `+rowCols+`, c.query, c.req_body, c.resp_body, c.request_id
		FROM api_calls c LEFT JOIN api_keys k ON k.id = c.api_key_id WHERE c.account_id = $1 AND c.id = $2`, accountID, id).
		Scan(&d.ID, &d.CreatedAt, &d.Method, &d.Path, &d.APIKeyID, &d.KeyTitle, &d.KeyPrefix, &d.IP, &d.Status, &us,
			&d.Query, &d.ReqBody, &d.RespBody, &d.RequestID)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, apperr.ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("api call: %w", err)
	}
	d.LatencyMS = float64(us) / 1000
	return d, nil
}

var xlsxHeader = []any{"تاریخ (شمسی)", "زمان", "روش", "مسیر", "کلید API", "IP", "وضعیت", "مدت (میلی‌ثانیه)"}

// WriteXLSX writes every call f matches (paging aside), newest first, as an
// Excel file; nothing is written to w when a read fails.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	widths := []float64{18, 20, 8, 40, 24, 16, 8, 14}
	return spreadsheet.Write(w, "فراخوانی‌های API", xlsxHeader, widths, func(b *spreadsheet.Book) error {
		return calls.Each(ctx, s.pool, f.args(accountID), func(r Row) error {
			key := r.KeyTitle
			if key == "" {
				key = strconv.FormatInt(r.APIKeyID, 10)
			}
			return b.Add([]any{persian.JalaliDateTime(r.CreatedAt), b.Time(r.CreatedAt), r.Method, r.Path, key, r.IP,
				r.Status, r.LatencyMS})
		})
	})
}
