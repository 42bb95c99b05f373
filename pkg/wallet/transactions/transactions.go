// Package transactions reads an account's ledger for the transactions page (spec §3
// Transaction, §7 Payment): a filtered, paged list with Persian descriptions and the
// send each row belongs to, and the same rows as a streamed Excel file.
package transactions

import (
	"context"
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
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// Paging bounds of the list.
const (
	DefaultLimit = 10
	MaxLimit     = 100
)

// Types of a transaction (spec §3): money in or out.
const (
	TypeDeposit    = "deposit"
	TypeWithdrawal = "withdrawal"
)

// Persian messages of the filters.
const (
	msgType        = "نوع تراکنش معتبر نیست"
	msgRange       = "تاریخ شروع باید پیش از تاریخ پایان باشد"
	msgAmount      = "مبلغ باید عددی صحیح و نامنفی به ریال باشد"
	msgAmountRange = "حداقل مبلغ نباید از حداکثر آن بیشتر باشد"
	msgSearch      = "عبارت جستجو بیش از حد طولانی است"
	msgExportType  = "نوع خروجی معتبر نیست"
)

// ExportFinancial is the export_type of the transactions export (spec §3).
const ExportFinancial = "financial"

// Titles are the Persian names of the ledger kinds.
var Titles = map[string]string{
	wallet.Deposit:     "شارژ حساب",
	wallet.AdminCredit: "افزایش اعتبار توسط پشتیبانی",
	wallet.Gift:        "اعتبار هدیه",
	wallet.Hold:        "کسر هزینه ارسال",
	wallet.Release:     "بازگشت مابه‌التفاوت ارسال",
	wallet.Charge:      "کسر مابه‌التفاوت ارسال",
	wallet.Refund:      "بازگشت هزینه ارسال",
	"payment":          "پرداخت آنلاین",
}

// Title is the Persian name of a ledger kind («تراکنش» for one it does not know).
func Title(kind string) string {
	if t, ok := Titles[kind]; ok {
		return t
	}
	return "تراکنش"
}

// Filter narrows the ledger: a type, a time range [From, To), an amount range (rials,
// either sign, 0 for no bound) and a search text.
type Filter struct {
	Type       string
	From, To   time.Time
	AmountFrom int64
	AmountTo   int64
	Search     string
	Page       int
	Limit      int
}

// Row is one transaction as the page shows it. Amount is the size of the movement;
// Type says its direction.
type Row struct {
	ID           int64     `json:"id"`
	Date         time.Time `json:"date"`
	Type         string    `json:"type"`
	Kind         string    `json:"kind"`
	KindTitle    string    `json:"kind_title"`
	Amount       int64     `json:"amount"`
	BalanceAfter int64     `json:"balance_after"`
	Description  string    `json:"description"`
	SendID       *int64    `json:"send_id"`
	// PaymentID is the online payment a credit came from (its invoice's id), or nil.
	PaymentID *int64 `json:"payment_id"`
}

// ParseFilter reads type, the date range (date_from and date_to as the panel's
// date-range filter sends them, or from and to: Tehran days, a bare date as "to"
// meaning the end of that day), amount_from, amount_to, search and paging.
func ParseFilter(q url.Values) (Filter, error) {
	pg, err := validate.ParsePaging(q, DefaultLimit, MaxLimit)
	if err != nil {
		return Filter{}, err
	}
	f := Filter{Page: pg.Page, Limit: pg.Limit, Type: strings.TrimSpace(q.Get("type")),
		Search: strings.TrimSpace(validate.ToLatinDigits(q.Get("search")))}
	errs := apperr.Fields{}
	if f.Type != "" && f.Type != TypeDeposit && f.Type != TypeWithdrawal {
		errs.Add("type", msgType)
	}
	f.From, f.To = report.ParseRange(first(q, "date_from", "from"), first(q, "date_to", "to"), "date_from", "date_to", errs)
	var ok bool
	if f.AmountFrom, ok = amount(q.Get("amount_from")); !ok {
		errs.Add("amount_from", msgAmount)
	}
	if f.AmountTo, ok = amount(q.Get("amount_to")); !ok {
		errs.Add("amount_to", msgAmount)
	}
	if len([]rune(f.Search)) > 100 {
		errs.Add("search", msgSearch)
	}
	if err := errs.Err(); err != nil {
		return Filter{}, err
	}
	return f, f.validate()
}

func (f Filter) validate() error {
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return apperr.Field("date_from", msgRange)
	}
	if f.AmountFrom > 0 && f.AmountTo > 0 && f.AmountFrom > f.AmountTo {
		return apperr.Field("amount_from", msgAmountRange)
	}
	return nil
}

// ParseExport reads the export's filters; export_type, when given, must be "financial".
func ParseExport(q url.Values) (Filter, error) {
	if t := strings.TrimSpace(q.Get("export_type")); t != "" && t != ExportFinancial {
		return Filter{}, apperr.Field("export_type", msgExportType)
	}
	return ParseFilter(q)
}

// amount reads a rial amount; thousands separators and Persian digits are allowed,
// empty is 0 (no bound).
func amount(s string) (int64, bool) {
	s = strings.NewReplacer(",", "", "٬", "", "،", "", " ", "").Replace(validate.ToLatinDigits(strings.TrimSpace(s)))
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
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

const rowCols = `l.id, l.created_at, l.kind, l.amount, l.balance_after, l.description, l.send_id,
	CASE WHEN l.ref ~ '^payment:[0-9]+:credit$' THEN split_part(l.ref, ':', 2)::bigint END`

// where is the filter of the list and the export ($1 account … $9 kinds whose
// Persian name matches the search).
const where = `FROM ledger l WHERE l.account_id = $1
	AND ($2 = '' OR ($2 = 'deposit' AND l.amount > 0) OR ($2 = 'withdrawal' AND l.amount < 0))
	AND ($3::timestamptz IS NULL OR l.created_at >= $3) AND ($4::timestamptz IS NULL OR l.created_at < $4)
	AND ($5 = 0 OR abs(l.amount) >= $5) AND ($6 = 0 OR abs(l.amount) <= $6)
	AND ($7 = '' OR l.description ILIKE '%' || $8 || '%' OR l.send_id::text = $7 OR l.kind = ANY($9))`

// ledger is the account's ledger as the transactions list reads it, newest first.
var ledger = db.Log[Row]{What: "transactions", Cols: rowCols, From: where, ID: "l.id", Scan: scanRow,
	IDOf: func(r Row) int64 { return r.ID }}

func (f Filter) args(accountID int64) []any {
	like := db.EscapeLike(f.Search)
	return []any{accountID, f.Type, db.OptTime(f.From), db.OptTime(f.To), f.AmountFrom, f.AmountTo, f.Search, like, f.kinds()}
}

// kinds are the ledger kinds whose Persian name contains the search text.
func (f Filter) kinds() []string {
	out := []string{}
	if f.Search == "" {
		return out
	}
	for k, t := range Titles {
		if strings.Contains(t, f.Search) {
			out = append(out, k)
		}
	}
	return out
}

// Service reads the ledger.
type Service struct{ pool *pgxpool.Pool }

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// List returns one page of the account's transactions, newest first, and the total.
func (s *Service) List(ctx context.Context, accountID int64, f Filter) ([]Row, int64, error) {
	return ledger.Page(ctx, s.pool, f.args(accountID), f.Limit, f.Page)
}

func scanRow(r pgx.CollectableRow) (Row, error) {
	var x Row
	if err := r.Scan(&x.ID, &x.Date, &x.Kind, &x.Amount, &x.BalanceAfter, &x.Description, &x.SendID, &x.PaymentID); err != nil {
		return x, err
	}
	x.Type = TypeDeposit
	if x.Amount < 0 {
		x.Type, x.Amount = TypeWithdrawal, -x.Amount
	}
	x.KindTitle = Title(x.Kind)
	x.Description = describe(x)
	return x, nil
}

// describe is the row's Persian description (digits in Persian): the one written with
// the movement, or one made from its kind and send when that is empty or not Persian.
func describe(x Row) string {
	if hasPersian(x.Description) {
		return persian.Digits(x.Description)
	}
	d := x.KindTitle
	if x.SendID != nil {
		d += " (ارسال " + persian.Digits(strconv.FormatInt(*x.SendID, 10)) + ")"
	}
	return d
}

func hasPersian(s string) bool {
	for _, r := range s {
		if validate.IsPersianOrArabic(r) {
			return true
		}
	}
	return false
}
