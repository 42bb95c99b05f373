package support

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Persian messages of the FAQ.
const (
	MsgQuestion    = "متن پرسش را وارد کنید (حداکثر ۳۰۰ کاراکتر)"
	MsgAnswer      = "متن پاسخ را وارد کنید (حداکثر ۵۰۰۰ کاراکتر)"
	MsgFAQCategory = "دسته‌بندی پرسش را انتخاب کنید"
)

// FAQCategory is a group of questions, with how many are shown.
type FAQCategory struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	Position int    `json:"position"`
	Count    int64  `json:"count"`
}

// FAQ is one question and its answer.
type FAQ struct {
	ID         int64     `json:"id"`
	CategoryID int64     `json:"category_id"`
	Category   string    `json:"category"`
	Question   string    `json:"question"`
	Answer     string    `json:"answer"`
	Position   int       `json:"position"`
	Active     bool      `json:"active"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// FAQCategories lists the categories in order with their counts of shown questions.
func (s *Service) FAQCategories(ctx context.Context) ([]FAQCategory, error) {
	rows, err := s.pool.Query(ctx, `SELECT c.id, c.title, c.position, count(f.id) FILTER (WHERE f.active)
		FROM faq_categories c LEFT JOIN faqs f ON f.category_id = c.id GROUP BY c.id ORDER BY c.position, c.id`)
	if err != nil {
		return nil, fmt.Errorf("faq categories: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[FAQCategory])
	if err != nil {
		return nil, fmt.Errorf("faq categories: %w", err)
	}
	return out, nil
}

// FAQs lists questions of a category (0: all) matching search in the question or
// the answer; all also lists the hidden ones (staff).
func (s *Service) FAQs(ctx context.Context, categoryID int64, search string, all bool) ([]FAQ, error) {
	rows, err := s.pool.Query(ctx, `SELECT f.id, f.category_id, c.title, f.question, f.answer, f.position, f.active, f.updated_at
		FROM faqs f JOIN faq_categories c ON c.id = f.category_id
		WHERE ($1 = 0 OR f.category_id = $1) AND (f.question ILIKE $2 OR f.answer ILIKE $2) AND (f.active OR $3)
		ORDER BY c.position, c.id, f.position, f.id LIMIT 500`, categoryID, db.Contains(search), all)
	if err != nil {
		return nil, fmt.Errorf("faqs: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[FAQ])
	if err != nil {
		return nil, fmt.Errorf("faqs: %w", err)
	}
	return out, nil
}

// SaveFAQ creates (ID 0) or edits a question.
func (s *Service) SaveFAQ(ctx context.Context, by acl.Identity, in FAQ) (FAQ, error) {
	f := apperr.Fields{}
	in.Question = cleanText(f, "question", in.Question, 300, MsgQuestion, MsgQuestion)
	in.Answer = cleanText(f, "answer", in.Answer, MaxText, MsgAnswer, MsgAnswer)
	if in.CategoryID <= 0 {
		f.Add("category_id", MsgFAQCategory)
	}
	if err := f.Err(); err != nil {
		return in, err
	}
	q := `INSERT INTO faqs (category_id, question, answer, position, active, updated_by) SELECT $2, $3, $4, $5, $6, $7 WHERE $1::bigint = 0 RETURNING id`
	if in.ID != 0 {
		q = `UPDATE faqs SET category_id = $2, question = $3, answer = $4, position = $5, active = $6, updated_by = $7,
			updated_at = now() WHERE id = $1 RETURNING id`
	}
	err := s.staffTx(ctx, by, "faq", func(tx pgx.Tx) (int64, error) {
		err := tx.QueryRow(ctx, q, in.ID, in.CategoryID, in.Question, in.Answer, in.Position, in.Active, by.UserID).Scan(&in.ID)
		if isForeignKey(err) {
			return 0, apperr.Field("category_id", MsgFAQCategory)
		}
		return in.ID, notFound(err, "save faq")
	})
	return in, err
}

// SaveFAQCategory creates (ID 0) or renames a category.
func (s *Service) SaveFAQCategory(ctx context.Context, by acl.Identity, in FAQCategory) (FAQCategory, error) {
	f := apperr.Fields{}
	in.Title = cleanText(f, "title", in.Title, 100, MsgTitle, MsgTitleLong)
	if err := f.Err(); err != nil {
		return in, err
	}
	q := `INSERT INTO faq_categories (title, position) SELECT $2, $3 WHERE $1::bigint = 0 RETURNING id`
	if in.ID != 0 {
		q = `UPDATE faq_categories SET title = $2, position = $3 WHERE id = $1 RETURNING id`
	}
	err := s.staffTx(ctx, by, "faq_category", func(tx pgx.Tx) (int64, error) {
		err := tx.QueryRow(ctx, q, in.ID, in.Title, in.Position).Scan(&in.ID)
		if isUnique(err) {
			return 0, apperr.Field("title", "دسته‌ای با این عنوان از قبل وجود دارد")
		}
		return in.ID, notFound(err, "save faq category")
	})
	return in, err
}

// DeleteFAQ removes a question (table "faqs") or a category with its questions
// (table "faq_categories").
func (s *Service) DeleteFAQ(ctx context.Context, by acl.Identity, table string, rowID int64) error {
	if table != "faqs" && table != "faq_categories" {
		return apperr.ErrNotFound
	}
	return s.staffTx(ctx, by, table, func(tx pgx.Tx) (int64, error) {
		tag, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE id = $1`, rowID)
		if err != nil {
			return 0, fmt.Errorf("delete from %s: %w", table, err)
		}
		if tag.RowsAffected() == 0 {
			return 0, apperr.ErrNotFound
		}
		return rowID, nil
	})
}

// staffTx runs a staff FAQ change and audits it with the row it touched.
func (s *Service) staffTx(ctx context.Context, by acl.Identity, target string, fn func(tx pgx.Tx) (int64, error)) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rowID, err := fn(tx)
		if err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: ActionStaffFAQ, TargetType: target,
			Target: strconv.FormatInt(rowID, 10)})
	})
}
