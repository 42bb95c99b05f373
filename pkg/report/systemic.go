package report

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// SystemicPurposes are the Persian names of why the platform sent a message
// (sends.purpose of the system account's sends); ” is a message sent before
// purposes were recorded.
var SystemicPurposes = map[string]string{
	"login":       "کد ورود",
	"register":    "کد ثبت‌نام",
	"reset":       "کد بازیابی رمز عبور",
	"apikey":      "کد تایید کلید API",
	"invite":      "دعوت همکار",
	"notice":      "هشدار امنیتی",
	"low_balance": "هشدار کمبود اعتبار",
	"":            "پیامک سیستمی",
}

// plainPurposes are the purposes whose text carries no code: shown whole.
var plainPurposes = map[string]bool{"notice": true, "low_balance": true}

// codeRun is a run of 4 to 10 digits (Latin or Persian): a one-time code.
var codeRun = regexp.MustCompile(`[0-9۰-۹]{4,10}`)

// MaskCode hides the one-time codes of a systemic message: a colleague reading
// the list must not read the owner's live login or reset code.
func MaskCode(purpose, text string) string {
	if plainPurposes[purpose] {
		return text
	}
	return codeRun.ReplaceAllString(text, "••••")
}

// Systemic is one message the platform sent to a user of the account.
type Systemic struct {
	ID           int64     `json:"id"`
	Purpose      string    `json:"purpose"`
	PurposeTitle string    `json:"purpose_title"`
	Username     string    `json:"username"`
	Mobile       string    `json:"mobile"`
	Sender       string    `json:"sender"`
	Text         string    `json:"text"`
	Status       int       `json:"status"`
	CreatedAt    time.Time `json:"created_at"`
}

// SystemicFilter narrows the systemic list: a page and a created_at range.
type SystemicFilter struct {
	Page, Limit int
	From, To    time.Time
}

// qSystemicWhere and qSystemic list the system account's verification sends to the users of
// account $1 in [$2, $3), newest first, with the recipient's public status
// (delivered once a receipt came; queued ones show as sent). The partial index
// sends_systemic_idx serves it per user.
const qSystemicWhere = `
FROM sends s JOIN users u ON u.id = s.user_id AND u.account_id = $1
WHERE s.type = 'verification' AND s.created_at >= $2 AND s.created_at < $3
  AND s.account_id = (SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'system_account')`

const qSystemic = `SELECT s.id, s.purpose, u.username, coalesce(s.numbers[1], ''), s.sender, s.text,
       CASE WHEN s.delivered > 0 THEN 2 WHEN s.undelivered > 0 THEN 3 ELSE 0 END, s.created_at` + qSystemicWhere + `
ORDER BY s.created_at DESC, s.id DESC LIMIT $4 OFFSET $5`

// SystemicList returns a page of the platform's messages to the account's users.
func (s *Service) SystemicList(ctx context.Context, accountID int64, f SystemicFilter) ([]Systemic, int64, error) {
	f.Page, f.Limit = pageLimit(f.Page, f.Limit)
	from, to := Filter{From: f.From, To: f.To}.bounds(s.now())
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*)`+qSystemicWhere, accountID, from, to).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count systemic: %w", err)
	}
	out := []Systemic{}
	if total == 0 {
		return out, 0, nil
	}
	rows, err := s.pool.Query(ctx, qSystemic, accountID, from, to, f.Limit, (f.Page-1)*f.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list systemic: %w", err)
	}
	out, err = pgx.CollectRows(rows, scanSystemic)
	if err != nil {
		return nil, 0, fmt.Errorf("list systemic: %w", err)
	}
	return out, total, nil
}

func scanSystemic(r pgx.CollectableRow) (Systemic, error) {
	var m Systemic
	err := r.Scan(&m.ID, &m.Purpose, &m.Username, &m.Mobile, &m.Sender, &m.Text, &m.Status, &m.CreatedAt)
	m.PurposeTitle = SystemicPurposes[m.Purpose]
	if m.PurposeTitle == "" {
		m.PurposeTitle = SystemicPurposes[""]
	}
	m.Text = MaskCode(m.Purpose, m.Text)
	return m, err
}

// systemicExportMax bounds the rows of one systemic export.
const systemicExportMax = 100_000

// WriteSystemicXLSX writes the filtered systemic list (at most 100,000 rows,
// newest first) as an Excel file, codes masked as in the list.
func (s *Service) WriteSystemicXLSX(ctx context.Context, accountID int64, f SystemicFilter, w io.Writer) error {
	from, to := Filter{From: f.From, To: f.To}.bounds(s.now())
	rows, err := s.pool.Query(ctx, qSystemic, accountID, from, to, systemicExportMax, 0)
	if err != nil {
		return fmt.Errorf("export systemic: %w", err)
	}
	list, err := pgx.CollectRows(rows, scanSystemic)
	if err != nil {
		return fmt.Errorf("export systemic: %w", err)
	}
	b, err := spreadsheet.New("پیامک‌های سیستمی", []any{"زمان (شمسی)", "نوع", "کاربر", "شماره موبایل", "فرستنده", "متن", "وضعیت"},
		[]float64{20, 20, 16, 16, 16, 50, 16})
	if err != nil {
		return err
	}
	defer b.Close()
	for _, m := range list {
		if err := b.Add([]any{persian.JalaliDateTime(m.CreatedAt), m.PurposeTitle, m.Username, validate.LocalMobile(m.Mobile),
			m.Sender, m.Text, StatusWords[m.Status]}); err != nil {
			return err
		}
	}
	return b.Finish(w)
}
