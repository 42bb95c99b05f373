package inbox

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the inbox page.
const (
	MsgStatus   = "وضعیت باید read یا unread باشد"
	MsgReader   = "شناسه منشی معتبر نیست"
	MsgIDs      = "حداقل یک پیام را انتخاب کنید"
	MsgTooMany  = "حداکثر ۱۰۰۰ پیام در هر درخواست"
	MsgLongText = "متن جستجو حداکثر ۱۰۰ کاراکتر است"
)

// MaxIDs is how many messages one delete or read request may name.
const MaxIDs = 1000

// Item is one row of the inbox page.
type Item struct {
	ID          int64      `json:"id"`
	Line        string     `json:"line"`
	Sender      string     `json:"sender"`
	Text        string     `json:"text"`
	Operator    string     `json:"operator"`
	ReceivedAt  time.Time  `json:"received_at"`
	ReadAt      *time.Time `json:"read_at"`
	RepliedAt   *time.Time `json:"replied_at"` // answered from the inbox (RecordReply)
	Parts       int        `json:"parts"`
	Incomplete  bool       `json:"incomplete"`
	ReaderID    *int64     `json:"reader_id"`
	ReaderTitle string     `json:"reader_title"`
	// Masked: the sender is a number of the bank (shown 0912*****67); reply by
	// the message's id (POST /report/messages-inbox/reply).
	Masked bool `json:"masked"`
}

// Filter narrows the inbox page (GET /report/messages-inbox).
type Filter struct {
	Page, Limit  int
	Line, Sender string
	Text         string
	From, To     time.Time
	ReaderID     int64
	Status       string // "", "read" or "unread"
}

// RangeParser reads a date range into [from, to), adding its errors to errs
// (report.ParseRange; passed in, as pkg/report depends on this package).
type RangeParser func(rawFrom, rawTo, fromKey, toKey string, errs apperr.Fields) (time.Time, time.Time)

// ParseFilter reads line, sender, text, date_from, date_to (Jalali or Gregorian
// days, through dates), reader_id (the secretary), status and the paging.
func ParseFilter(q url.Values, dates RangeParser) (Filter, error) {
	pg, err := validate.ParsePaging(q, 20, 200)
	if err != nil {
		return Filter{}, err
	}
	f := Filter{Page: pg.Page, Limit: pg.Limit, Line: strings.TrimSpace(validate.ToLatinDigits(q.Get("line"))),
		Text: strings.TrimSpace(q.Get("text")), Status: strings.TrimSpace(q.Get("status"))}
	errs := apperr.Fields{}
	f.Sender = strings.TrimSpace(validate.ToLatinDigits(q.Get("sender")))
	if n, ok := validate.NormalizeMobile(f.Sender); ok {
		f.Sender = n
	} else {
		f.Sender = strings.TrimPrefix(f.Sender, "0")
	}
	if len([]rune(f.Text)) > 100 {
		errs.Add("text", MsgLongText)
	}
	if f.Status != "" && f.Status != "read" && f.Status != "unread" {
		errs.Add("status", MsgStatus)
	}
	if s := strings.TrimSpace(validate.ToLatinDigits(q.Get("reader_id"))); s != "" {
		if f.ReaderID, err = strconv.ParseInt(s, 10, 64); err != nil || f.ReaderID <= 0 {
			errs.Add("reader_id", MsgReader)
		}
	}
	f.From, f.To = dates(q.Get("date_from"), q.Get("date_to"), "date_from", "date_to", errs)
	return f, errs.Err()
}

const itemCols = `i.id, i.line, shown_mobile(i.masked, i.sender), i.text, i.operator, i.received_at, i.read_at, i.parts,
	i.incomplete, i.reader_id, coalesce(r.title, ''), i.masked, i.replied_at`

// where is the filter of the list and the export ($1 account … $8 status).
const where = `FROM inbox i LEFT JOIN readers r ON r.id = i.reader_id
	WHERE i.account_id = $1 AND ($2 = '' OR i.line = $2) AND ($3 = '' OR (NOT i.masked AND i.sender LIKE '%' || $3 || '%'))
	AND ($4 = '' OR i.text ILIKE '%' || $4 || '%')
	AND ($5::timestamptz IS NULL OR i.received_at >= $5) AND ($6::timestamptz IS NULL OR i.received_at < $6)
	AND ($7 = 0 OR i.reader_id = $7)
	AND ($8 = '' OR ($8 = 'read') = (i.read_at IS NOT NULL))`

func (f Filter) args(accountID int64) []any {
	var from, to *time.Time
	if !f.From.IsZero() {
		from = &f.From
	}
	if !f.To.IsZero() {
		to = &f.To
	}
	text := db.EscapeLike(f.Text)
	return []any{accountID, f.Line, f.Sender, text, from, to, f.ReaderID, f.Status}
}

func scanItem(r pgx.CollectableRow) (Item, error) {
	var it Item
	err := r.Scan(&it.ID, &it.Line, &it.Sender, &it.Text, &it.Operator, &it.ReceivedAt, &it.ReadAt, &it.Parts,
		&it.Incomplete, &it.ReaderID, &it.ReaderTitle, &it.Masked, &it.RepliedAt)
	return it, err
}

// List returns one page of the account's received messages, newest first.
func (s *Service) List(ctx context.Context, accountID int64, f Filter) ([]Item, int64, error) {
	var total int64
	args := f.args(accountID)
	if err := s.pool.QueryRow(ctx, `SELECT count(*) `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count inbox: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+itemCols+` `+where+` ORDER BY i.id DESC LIMIT $9 OFFSET $10`,
		append(args, f.Limit, (f.Page-1)*f.Limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list inbox: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanItem)
	if err != nil {
		return nil, 0, fmt.Errorf("list inbox: %w", err)
	}
	return out, total, nil
}

// Unread counts the account's unread messages.
func (s *Service) Unread(ctx context.Context, accountID int64) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM inbox WHERE account_id = $1 AND read_at IS NULL`, accountID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count unread: %w", err)
	}
	return n, nil
}

func checkIDs(ids []int64) error {
	switch {
	case len(ids) == 0:
		return apperr.Field("ids", MsgIDs)
	case len(ids) > MaxIDs:
		return apperr.Field("ids", MsgTooMany)
	}
	return nil
}

// MarkRead marks the account's messages read (or unread again) and returns how
// many changed.
func (s *Service) MarkRead(ctx context.Context, id acl.Identity, ids []int64, read bool) (int, error) {
	if err := checkIDs(ids); err != nil {
		return 0, err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE inbox SET read_at = CASE WHEN $3 THEN coalesce(read_at, now()) END
		WHERE account_id = $1 AND id = ANY($2) AND (read_at IS NULL) = $3`, id.AccountID, ids, read)
	if err != nil {
		return 0, fmt.Errorf("mark read: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Delete removes the account's messages (audited) and returns how many.
func (s *Service) Delete(ctx context.Context, id acl.Identity, ids []int64, ip string) (int, error) {
	if err := checkIDs(ids); err != nil {
		return 0, err
	}
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM inbox WHERE account_id = $1 AND id = ANY($2)`, id.AccountID, ids)
		if err != nil {
			return fmt.Errorf("delete inbox: %w", err)
		}
		n = int(tag.RowsAffected())
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: audit.InboxDelete, TargetType: "inbox", IP: ip, Details: map[string]any{"deleted": n}})
	})
	return n, err
}

var xlsxHeader = []any{"شناسه", "خط", "فرستنده", "متن", "اپراتور", "زمان دریافت", "وضعیت", "منشی", "بخش‌ها", "ناقص"}

// WriteXLSX writes every message of the filter (not only the page) as Excel.
func (s *Service) WriteXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	b, err := spreadsheet.New("پیامک‌های دریافتی", xlsxHeader, []float64{10, 16, 16, 60, 12, 20, 12, 20, 8, 8})
	if err != nil {
		return err
	}
	defer b.Close()
	after := int64(math.MaxInt64)
	for {
		rows, err := s.pool.Query(ctx, `SELECT `+itemCols+` `+where+` AND i.id < $9 ORDER BY i.id DESC LIMIT 5000`,
			append(f.args(accountID), after)...)
		if err != nil {
			return fmt.Errorf("export inbox: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, scanItem)
		if err != nil {
			return fmt.Errorf("export inbox: %w", err)
		}
		for _, it := range chunk {
			if err := b.Add(xlsxRow(b, it)); err != nil {
				return err
			}
		}
		if len(chunk) < 5000 {
			return b.Finish(w)
		}
		after = chunk[len(chunk)-1].ID
	}
}

func xlsxRow(b *spreadsheet.Book, it Item) []any {
	status, incomplete := "خوانده‌نشده", ""
	if it.ReadAt != nil {
		status = "خوانده‌شده"
	}
	if it.Incomplete {
		incomplete = "بله"
	}
	return []any{it.ID, it.Line, it.Sender, it.Text, it.Operator, b.Time(it.ReceivedAt), status, it.ReaderTitle, it.Parts, incomplete}
}
