package links

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/review"
)

// CodeInUse is the message_code of a link that a text still uses.
const CodeInUse = "link-in-use"

// Use is a text that still holds a link: a send not yet finished, a recurring
// campaign or a draft.
type Use struct {
	Kind  string // "send", "campaign" or "draft"
	ID    int64
	Title string
}

// Message is the Persian refusal that names the use (spec §5 UTM rule).
func (u Use) Message() string {
	n := persian.Digits(strconv.FormatInt(u.ID, 10))
	var where string
	switch u.Kind {
	case "send":
		where = "متن ارسال زمان‌بندی‌شده یا در جریان شماره " + n
	case "campaign":
		where = "متن ارسال دوره‌ای «" + u.Title + "» (شماره " + n + ")"
	default:
		where = "متن پیش‌نویس «" + u.Title + "» (شماره " + n + ")"
	}
	return "این لینک در " + where + " به کار رفته است و تا از متن حذف نشود، از ردیاب حذف نمی‌شود"
}

// useOf finds the first text of the account that still holds the placeholder.
func useOf(ctx context.Context, q Row, accountID int64, ph string) (Use, bool, error) {
	var u Use
	err := q.QueryRow(ctx, `(SELECT 'send', id, '' FROM sends WHERE account_id = $1
			AND status IN ('scheduled', 'held', 'queued', 'expanding', 'sending', 'paused') AND strpos(text, $2) > 0 ORDER BY id LIMIT 1)
		UNION ALL (SELECT 'campaign', id, title FROM campaigns WHERE account_id = $1 AND strpos(request->>'text', $2) > 0 ORDER BY id LIMIT 1)
		UNION ALL (SELECT 'draft', id, coalesce(nullif(title, ''), 'بی‌عنوان') FROM drafts WHERE account_id = $1 AND strpos(text, $2) > 0 ORDER BY id LIMIT 1)
		LIMIT 1`, accountID, ph).Scan(&u.Kind, &u.ID, &u.Title)
	if errors.Is(err, pgx.ErrNoRows) {
		return u, false, nil
	}
	if err != nil {
		return u, false, fmt.Errorf("link in use: %w", err)
	}
	return u, true, nil
}

// Delete removes a link from the tracker. A link that a scheduled, running or
// held send, a recurring campaign or a draft still uses is refused with 409 and
// the name of that use. The row stays (deleted_at) so that texts already sent
// keep redirecting.
func (s *Service) Delete(ctx context.Context, id acl.Identity, linkID int64, ip string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `SELECT 1 FROM tracked_links WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR UPDATE`,
			linkID, id.AccountID)
		if err != nil {
			return fmt.Errorf("lock link: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		u, used, err := useOf(ctx, tx, id.AccountID, placeholder(linkID))
		if err != nil {
			return err
		}
		if used {
			return apperr.New(apperr.Conflict, u.Message()).WithCode(CodeInUse)
		}
		if _, err := tx.Exec(ctx, `UPDATE tracked_links SET deleted_at = now() WHERE id = $1`, linkID); err != nil {
			return fmt.Errorf("delete link: %w", err)
		}
		if err := review.Withdraw(ctx, tx, ReviewKind, linkID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: "link.delete", TargetType: "link", Target: strconv.FormatInt(linkID, 10), IP: ip})
	})
}
