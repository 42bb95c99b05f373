package support

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Category is a ticket category or sub-category.
type Category struct {
	ID       int64  `json:"id"`
	ParentID *int64 `json:"parent_id"`
	Title    string `json:"title"`
}

// Categories lists the top categories (parent 0) or the sub-categories of one.
func (s *Service) Categories(ctx context.Context, parent int64) ([]Category, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, parent_id, title FROM ticket_categories
		WHERE coalesce(parent_id, 0) = $1 ORDER BY position, id`, parent)
	if err != nil {
		return nil, fmt.Errorf("ticket categories: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Category])
	if err != nil {
		return nil, fmt.Errorf("ticket categories: %w", err)
	}
	return out, nil
}

// Settings are an account's support choices.
type Settings struct {
	// SMSOnAnswer texts the owner when staff answer a request (default on).
	SMSOnAnswer bool `json:"sms_on_answer"`
}

// GetSettings returns the account's support settings.
func (s *Service) GetSettings(ctx context.Context, id acl.Identity) (Settings, error) {
	st := Settings{SMSOnAnswer: true}
	err := s.pool.QueryRow(ctx, `SELECT sms_on_answer FROM ticket_settings WHERE account_id = $1`, id.AccountID).Scan(&st.SMSOnAnswer)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, nil
	}
	return st, notFound(err, "ticket settings")
}

// SaveSettings stores the account's support settings.
func (s *Service) SaveSettings(ctx context.Context, id acl.Identity, in Settings) (Settings, error) {
	e := audit.Entry{Action: ActionSettings, TargetType: "ticket_settings", After: in}
	err := s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO ticket_settings (account_id, sms_on_answer) VALUES ($1, $2)
			ON CONFLICT (account_id) DO UPDATE SET sms_on_answer = $2, updated_at = now()`, id.AccountID, in.SMSOnAnswer)
		return err
	})
	return in, err
}

// Feedback is a customer's rating of the panel and what they wrote.
type Feedback struct {
	Rating int    `json:"rating"`
	Text   string `json:"text"`
	Page   string `json:"page"`
}

// SaveFeedback records the panel feedback form.
func (s *Service) SaveFeedback(ctx context.Context, id acl.Identity, in Feedback) (Feedback, error) {
	if err := checkRating(in.Rating); err != nil {
		return in, err
	}
	f := apperr.Fields{}
	in.Text = cleanText(f, "text", in.Text, 2000, "", "متن حداکثر ۲۰۰۰ کاراکتر است")
	in.Page = cleanText(f, "page", in.Page, 200, "", "صفحه معتبر نیست")
	if err := f.Err(); err != nil {
		return in, err
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO panel_feedback (account_id, user_id, rating, text, page) VALUES ($1, nullif($2, 0), $3, $4, $5)`,
		id.AccountID, id.UserID, in.Rating, in.Text, in.Page)
	if err != nil {
		return in, fmt.Errorf("save feedback: %w", err)
	}
	return in, nil
}

func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

func isForeignKey(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23503"
}

// FeedbackRow is a feedback entry as staff read it.
type FeedbackRow struct {
	Feedback
	ID          int64     `json:"id"`
	AccountID   int64     `json:"account_id"`
	AccountName string    `json:"account_name"`
	CreatedAt   time.Time `json:"created_at"`
}

// FeedbackList returns a page of the panel feedback, newest first (staff).
func (s *Service) FeedbackList(ctx context.Context, p validate.Paging) ([]FeedbackRow, int64, error) {
	return db.Page(ctx, s.pool, "panel feedback", `f.id, f.account_id, a.name, f.rating, f.text, f.page, f.created_at`,
		`FROM panel_feedback f JOIN accounts a ON a.id = f.account_id`, "f.id DESC", nil, p.Limit, p.Page,
		func(r pgx.CollectableRow) (FeedbackRow, error) {
			var f FeedbackRow
			err := r.Scan(&f.ID, &f.AccountID, &f.AccountName, &f.Rating, &f.Text, &f.Page, &f.CreatedAt)
			return f, err
		})
}
