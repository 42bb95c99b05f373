// Package content is what customers see that staff edit in the back office:
// dashboard news, banners, quick access links, FAQ, contact info, charge packages and
// the today-only gift. Every kind is a list of items of one shape; customers read the
// live ones (active, inside their time window), staff create, edit and delete them,
// each change audited.
package content

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Kinds of content.
var Kinds = []string{"news", "banner", "quick_access", "faq", "contact", "charge_package", "today_gift"}

// Persian messages of content editing.
const (
	MsgKind   = "نوع محتوا معتبر نیست"
	MsgTitle  = "عنوان را وارد کنید (حداکثر ۲۰۰ کاراکتر)"
	MsgBody   = "متن حداکثر ۵۰۰۰ کاراکتر است"
	MsgLink   = "پیوند باید با https:// یا / شروع شود"
	MsgImage  = "نشانی تصویر باید مسیری از همین سامانه باشد (با / شروع شود)"
	MsgAmount = "مبلغ نمی‌تواند منفی باشد"
	MsgWindow = "زمان پایان باید بعد از زمان شروع باشد"
	MsgPlace  = "محل نمایش بنر معتبر نیست"
	MsgAction = "رفتار کلیک بنر معتبر نیست"
)

// Banner placements and click actions (spec §3 Banner: types 1 and 4 are the strip;
// action 1 a popup, 2 the same window, anything else a new tab).
const (
	PlaceStrip    = "strip"
	PlaceCarousel = "carousel"
	ActPopup      = "popup"
	ActSame       = "same_window"
	ActNewTab     = "new_tab"
)

// Item is one piece of content.
type Item struct {
	ID     int64  `json:"id"`
	Kind   string `json:"kind"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Link   string `json:"link"`
	Amount int64  `json:"amount"`
	// Bonus is a charge package's extra credit, paid on top of its amount.
	Bonus    int64      `json:"bonus"`
	Position int        `json:"position"`
	Active   bool       `json:"active"`
	StartsAt *time.Time `json:"starts_at"`
	EndsAt   *time.Time `json:"ends_at"`
	// Placement and Action apply to banners (the others keep the defaults).
	Placement string `json:"placement"`
	Action    string `json:"action"`
	// Image and ImageMobile are a banner's pictures, paths on the panel's own origin
	// (the CSP allows images from it only); the mobile one falls back to Image, and
	// no image keeps the text face.
	Image       string `json:"image"`
	ImageMobile string `json:"image_mobile"`
}

// Service stores the content.
type Service struct {
	pool  *pgxpool.Pool
	board boardCache
}

// New returns the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

const columns = `id, kind, title, body, link, amount, bonus, position, active, starts_at, ends_at, placement, action, image, image_mobile`

func scan(r pgx.CollectableRow) (Item, error) {
	var it Item
	err := r.Scan(it.fields()...)
	return it, err
}

// fields are the scan targets of columns, in order.
func (it *Item) fields() []any {
	return []any{&it.ID, &it.Kind, &it.Title, &it.Body, &it.Link, &it.Amount, &it.Bonus, &it.Position, &it.Active, &it.StartsAt,
		&it.EndsAt, &it.Placement, &it.Action, &it.Image, &it.ImageMobile}
}

// Live lists the items of a kind customers see now, in position order.
func (s *Service) Live(ctx context.Context, kind string) ([]Item, error) {
	return s.list(ctx, kind, `AND active AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())`)
}

// All lists every item of a kind, for staff.
func (s *Service) All(ctx context.Context, kind string) ([]Item, error) {
	return s.list(ctx, kind, "")
}

func (s *Service) list(ctx context.Context, kind, where string) ([]Item, error) {
	if !slices.Contains(Kinds, kind) {
		return nil, apperr.Field("kind", MsgKind)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM content_items WHERE kind = $1 `+where+` ORDER BY position, id`, kind)
	if err != nil {
		return nil, fmt.Errorf("content %s: %w", kind, err)
	}
	out, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, fmt.Errorf("content %s: %w", kind, err)
	}
	return out, nil
}

// Save creates an item (ID 0) or replaces one, audited with the staff member.
func (s *Service) Save(ctx context.Context, by acl.Identity, it Item, ip string) (Item, error) {
	if err := check(&it); err != nil {
		return it, err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if it.ID == 0 {
			err = tx.QueryRow(ctx, `INSERT INTO content_items (kind, title, body, link, amount, position, active, starts_at, ends_at,
				updated_by, bonus, placement, action, image, image_mobile) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, nullif($10, 0), $11, $12,
				$13, $14, $15) RETURNING id`,
				it.Kind, it.Title, it.Body, it.Link, it.Amount, it.Position, it.Active, it.StartsAt, it.EndsAt, by.UserID,
				it.Bonus, it.Placement, it.Action, it.Image, it.ImageMobile).Scan(&it.ID)
		} else {
			err = tx.QueryRow(ctx, `UPDATE content_items SET kind = $2, title = $3, body = $4, link = $5, amount = $6, position = $7,
				active = $8, starts_at = $9, ends_at = $10, updated_by = nullif($11, 0), updated_at = now(), bonus = $12, placement = $13,
				action = $14, image = $15, image_mobile = $16 WHERE id = $1 RETURNING id`, it.ID, it.Kind, it.Title, it.Body, it.Link,
				it.Amount, it.Position, it.Active, it.StartsAt, it.EndsAt, by.UserID, it.Bonus, it.Placement, it.Action,
				it.Image, it.ImageMobile).Scan(&it.ID)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("save content: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.content_saved",
			Target: it.Kind + ":" + strconv.FormatInt(it.ID, 10), IP: ip, Details: map[string]any{"staff": by.Username, "title": it.Title}})
	})
	s.board.drop()
	return it, err
}

// Delete removes an item, audited with the staff member.
func (s *Service) Delete(ctx context.Context, by acl.Identity, id int64, ip string) error {
	defer s.board.drop()
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var kind string
		err := tx.QueryRow(ctx, `DELETE FROM content_items WHERE id = $1 RETURNING kind`, id).Scan(&kind)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("delete content: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.content_deleted",
			Target: kind + ":" + strconv.FormatInt(id, 10), IP: ip, Details: map[string]any{"staff": by.Username}})
	})
}

// check validates and trims an item, answering every bad field at once.
func check(it *Item) error {
	it.Title, it.Body, it.Link = strings.TrimSpace(it.Title), strings.TrimSpace(it.Body), strings.TrimSpace(it.Link)
	it.Image, it.ImageMobile = strings.TrimSpace(it.Image), strings.TrimSpace(it.ImageMobile)
	f := apperr.Fields{}
	if !slices.Contains(Kinds, it.Kind) {
		f.Add("kind", MsgKind)
	}
	if n := len([]rune(it.Title)); n == 0 || n > 200 {
		f.Add("title", MsgTitle)
	}
	if len([]rune(it.Body)) > 5000 {
		f.Add("body", MsgBody)
	}
	if !safeURL(it.Link) {
		f.Add("link", MsgLink)
	}
	if !panelPath(it.Image) || !panelPath(it.ImageMobile) {
		f.Add("image", MsgImage)
	}
	if it.Amount < 0 || it.Bonus < 0 {
		f.Add("amount", MsgAmount)
	}
	if it.StartsAt != nil && it.EndsAt != nil && !it.EndsAt.After(*it.StartsAt) {
		f.Add("ends_at", MsgWindow)
	}
	it.Placement, it.Action = cmp.Or(it.Placement, PlaceCarousel), cmp.Or(it.Action, ActNewTab)
	if it.Placement != PlaceStrip && it.Placement != PlaceCarousel {
		f.Add("placement", MsgPlace)
	}
	if it.Action != ActPopup && it.Action != ActSame && it.Action != ActNewTab {
		f.Add("action", MsgAction)
	}
	return f.Err()
}

// safeURL holds for an empty value, an https URL or a panel path (not //host).
func safeURL(u string) bool {
	return u == "" || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")
}

// panelPath holds for an empty value or a path on the panel's own origin.
func panelPath(u string) bool {
	return u == "" || strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")
}
