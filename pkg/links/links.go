// Package links owns link tracking (spec §5 "UTM link", §6, §7 /panel/link_tracker):
// the account's tracked links, the check of the {link:ID} placeholders a message
// text holds, the short-link redirect with its batched click recorder, and the
// click statistics (total and unique, per send, per operator, per day). Codes are
// made and read by pkg/shortlink; the gateway renders them into each recipient's
// text at submit time.
package links

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of link tracking.
const (
	MsgTitle        = "عنوان لینک را وارد کنید"
	MsgTitleLong    = "عنوان لینک حداکثر ۱۰۰ کاراکتر است"
	MsgURL          = "نشانی لینک باید با http:// یا https:// شروع شود و معتبر باشد"
	MsgUTM          = "پارامتر UTM فقط حروف لاتین، رقم، خط تیره، زیرخط و نقطه (حداکثر ۶۰ کاراکتر) می‌پذیرد"
	MsgPlanRequired = "ردیابی آمار لینک (UTM) نیاز به ارتقای پنل دارد؛ برای ارتقا تیکت ثبت کنید"
	MsgUnknownLink  = "لینک ردیابی به‌کاررفته در متن یافت نشد؛ آن را دوباره از فهرست لینک‌ها درج کنید"
	MsgTooManyLinks = "در یک متن حداکثر ۵ لینک ردیابی می‌توان به کار برد"
	MsgTooMany      = "حداکثر ۵۰۰ لینک ردیابی می‌توانید بسازید"
)

// CodePlanRequired is the message_code of MsgPlanRequired.
const CodePlanRequired = "link-tracking-plan"

// Limits of the fields.
const (
	MaxTitle = 100
	MaxURL   = 2000
	MaxLinks = 500
)

// Service keeps tracked links, redirects clicks and reads their statistics.
type Service struct {
	pool  *pgxpool.Pool
	codec *shortlink.Codec
	clicks
	targets targetCache
	limits  Limits
}

// New returns the service; codec must be the one the gateway renders with.
func New(pool *pgxpool.Pool, codec *shortlink.Codec) *Service {
	return &Service{pool: pool, codec: codec, clicks: newClicks(), targets: targetCache{m: map[int64]target{}}}
}

// Link is one tracked link with its click totals.
type Link struct {
	ID          int64     `json:"id"`
	Title       string    `json:"title"`
	URL         string    `json:"url"`
	UTMSource   string    `json:"utm_source"`
	UTMMedium   string    `json:"utm_medium"`
	UTMCampaign string    `json:"utm_campaign"`
	Placeholder string    `json:"placeholder"` // what the editor inserts: {link:ID}
	Clicks      int64     `json:"clicks"`
	Unique      int64     `json:"unique"`
	CreatedAt   time.Time `json:"created_at"`
	// Status is the review of the target: pending, approved or rejected (with
	// ReviewNote, the reviewer's reason). Only an approved link redirects.
	Status     string `json:"status"`
	ReviewNote string `json:"review_note"`
}

// Form creates a tracked link.
type Form struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	UTMSource   string `json:"utm_source"`
	UTMMedium   string `json:"utm_medium"`
	UTMCampaign string `json:"utm_campaign"`
}

// Settings are what the message editor needs: whether the plan allows tracking
// and the fixed length of a short link (for counting characters).
type Settings struct {
	Enabled    bool   `json:"enabled"`
	Base       string `json:"base"`
	LinkLength int    `json:"link_length"`
	Message    string `json:"message,omitempty"`
}

// Settings answers the editor's question for the caller's account.
func (s *Service) Settings(ctx context.Context, id acl.Identity) (Settings, error) {
	on, err := enabled(ctx, s.pool, id.AccountID)
	out := Settings{Enabled: on, Base: s.codec.Base(), LinkLength: len(s.codec.Sized(shortlink.Marker + "1}"))}
	if !on {
		out.Message = MsgPlanRequired
	}
	return out, err
}

// Row is one pgx row source: the pool or a transaction.
type Row interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func enabled(ctx context.Context, q Row, accountID int64) (bool, error) {
	var on bool
	err := q.QueryRow(ctx, `SELECT link_tracking FROM accounts WHERE id = $1`, accountID).Scan(&on)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("link tracking plan: %w", err)
	}
	return on, nil
}

// CheckText checks the tracked-link placeholders of a message text: the plan
// allows tracking, at most MaxSlots distinct links, each one of the account's (not
// removed) and approved. A text without placeholders passes without a query.
// Errors are on field "text".
func CheckText(ctx context.Context, q Row, accountID int64, text string) error {
	ids := shortlink.LinkIDs(text)
	if len(ids) == 0 {
		return nil
	}
	if len(ids) > shortlink.MaxSlots {
		return apperr.Field("text", MsgTooManyLinks)
	}
	var on bool
	var n, approved, rejected int
	err := q.QueryRow(ctx, `SELECT a.link_tracking, count(l.id), count(l.id) FILTER (WHERE l.status = 'approved'),
		count(l.id) FILTER (WHERE l.status = 'rejected')
		FROM accounts a LEFT JOIN tracked_links l ON l.account_id = a.id AND l.id = ANY($2) AND l.deleted_at IS NULL
		WHERE a.id = $1 GROUP BY a.id`, accountID, ids).Scan(&on, &n, &approved, &rejected)
	if err != nil {
		return fmt.Errorf("check tracked links: %w", err)
	}
	switch {
	case !on:
		return apperr.Field("text", MsgPlanRequired)
	case n != len(ids):
		return apperr.Field("text", MsgUnknownLink)
	case rejected > 0:
		return apperr.Field("text", MsgLinkRejected)
	case approved != n:
		return apperr.Field("text", MsgLinkPending)
	}
	return nil
}

// clean checks a form, trimming its fields.
func (f *Form) clean() error {
	fields := apperr.Fields{}
	f.Title = strings.TrimSpace(f.Title)
	switch n := utf8.RuneCountInString(f.Title); {
	case n == 0:
		fields.Add("title", MsgTitle)
	case n > MaxTitle:
		fields.Add("title", MsgTitleLong)
	}
	f.URL = strings.TrimSpace(f.URL)
	if u, err := url.Parse(f.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		len(f.URL) > MaxURL || strings.ContainsAny(f.URL, " \t\r\n") {
		fields.Add("url", MsgURL)
	}
	for name, v := range map[string]*string{"utm_source": &f.UTMSource, "utm_medium": &f.UTMMedium, "utm_campaign": &f.UTMCampaign} {
		*v = strings.TrimSpace(*v)
		if !validUTM(*v) {
			fields.Add(name, MsgUTM)
		}
	}
	return fields.Err()
}

func validUTM(v string) bool {
	if len(v) > 60 {
		return false
	}
	for _, r := range v {
		ok := r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

// Create adds a tracked link (the plan must allow tracking). Its target is
// moderated: a target the rules would hold in a text makes the link wait for
// staff review (status pending) before it redirects or goes into a text.
func (s *Service) Create(ctx context.Context, id acl.Identity, f Form) (Link, error) {
	if err := f.clean(); err != nil {
		return Link{}, err
	}
	l := Link{Title: f.Title, URL: f.URL, UTMSource: f.UTMSource, UTMMedium: f.UTMMedium, UTMCampaign: f.UTMCampaign}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		on, err := enabled(ctx, tx, id.AccountID)
		if err != nil {
			return err
		}
		if !on {
			return apperr.New(apperr.Forbidden, MsgPlanRequired).WithCode(CodePlanRequired)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM tracked_links WHERE account_id = $1 AND deleted_at IS NULL`,
			id.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("count links: %w", err)
		}
		if n >= MaxLinks {
			return apperr.Field("title", MsgTooMany)
		}
		return s.insert(ctx, tx, id, &l)
	})
	l.Placeholder = placeholder(l.ID)
	return l, err
}

// insert writes a checked link with the status its target's moderation gives it,
// queues it for review when it waits, and audits it.
func (s *Service) insert(ctx context.Context, tx pgx.Tx, id acl.Identity, l *Link) error {
	status, reasons, err := moderate(ctx, tx, l.URL)
	if err != nil {
		return err
	}
	l.Status = status
	err = tx.QueryRow(ctx, `INSERT INTO tracked_links (account_id, title, url, utm_source, utm_medium, utm_campaign, created_by, status)
		VALUES ($1, $2, $3, $4, $5, $6, nullif($7, 0), $8) RETURNING id, created_at`,
		id.AccountID, l.Title, l.URL, l.UTMSource, l.UTMMedium, l.UTMCampaign, id.UserID, status).Scan(&l.ID, &l.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert link: %w", err)
	}
	if status == StatusPending {
		if err := review.Submit(ctx, tx, ReviewKind, id.AccountID, l.ID, reasons, l.Title+": "+l.URL); err != nil {
			return err
		}
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
		Action: "link.create", TargetType: "link", Target: strconv.FormatInt(l.ID, 10),
		Details: map[string]any{"url": l.URL, "status": status}})
}

func placeholder(id int64) string { return shortlink.Marker + strconv.FormatInt(id, 10) + "}" }

// List returns a page of the account's links, newest first, with their totals.
func (s *Service) List(ctx context.Context, id acl.Identity, p validate.Paging) ([]Link, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM tracked_links WHERE account_id = $1 AND deleted_at IS NULL`,
		id.AccountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count links: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT l.id, l.title, l.url, l.utm_source, l.utm_medium, l.utm_campaign, l.created_at, l.status, l.review_note,
		(SELECT count(*) FROM link_clicks c WHERE c.link_id = l.id), (SELECT count(*) FROM link_visitors v WHERE v.link_id = l.id)
		FROM tracked_links l WHERE l.account_id = $1 AND l.deleted_at IS NULL ORDER BY l.id DESC LIMIT $2 OFFSET $3`,
		id.AccountID, p.Limit, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list links: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Link, error) {
		var l Link
		err := r.Scan(&l.ID, &l.Title, &l.URL, &l.UTMSource, &l.UTMMedium, &l.UTMCampaign, &l.CreatedAt, &l.Status, &l.ReviewNote,
			&l.Clicks, &l.Unique)
		l.Placeholder = placeholder(l.ID)
		return l, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list links: %w", err)
	}
	if out == nil {
		out = []Link{}
	}
	return out, total, nil
}
