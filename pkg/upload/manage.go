package upload

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// File management (spec §2 /file-management, §7 Files): every file the account
// uploaded, whatever it was for, in one list. Each category comes from a Source:
// the uploads of this package (send sources, peer-to-peer and contact imports)
// and the receipts of offline payments are built in; a domain that stores files
// of its own (ticket attachments, documents) plugs in with RegisterSource.

// CategoryReceipt is the category of offline payments' receipts.
const CategoryReceipt = "receipt"

// MsgNotDeletable refuses deleting a file its domain keeps (a payment receipt).
const MsgNotDeletable = "این فایل سند یک تراکنش است و حذف نمی‌شود"

// Source is one category of the file list. SQL selects the account's files
// ($1 is the account id) as the columns id, name, size, status, review,
// review_reason, created_at, deletable and downloadable; status is "parsing",
// "ready" or "failed", review "" (not reviewed), "pending", "approved" or
// "rejected".
type Source struct {
	Category string
	Label    string
	SQL      string
}

var sources = []Source{
	{PurposeSend, "ارسال از فایل", uploadsSQL(PurposeSend)},
	{PurposePeerToPeer, "ارسال نظیر به نظیر", uploadsSQL(PurposePeerToPeer)},
	{PurposeContacts, "ورود مخاطبین", uploadsSQL(PurposeContacts)},
	{CategoryReceipt, "رسید پرداخت", `SELECT id, receipt_name, receipt_size, 'ready', state, reason, created_at, false, true
		FROM offline_payments WHERE account_id = $1`},
}

func uploadsSQL(purpose string) string {
	return `SELECT id, coalesce(name, ''), coalesce(size, 0), coalesce(status, 'failed'), '', error, created_at,
		true, storage_key IS NOT NULL FROM files WHERE account_id = $1 AND purpose = '` + purpose + `'`
}

// RegisterSource adds a category to the file list; call it from an init function
// of the domain that stores the files.
func RegisterSource(s Source) { sources = append(sources, s) }

// Entry is one file of the list.
type Entry struct {
	ID            int64     `json:"id"`
	Category      string    `json:"category"`
	CategoryLabel string    `json:"category_label"`
	Name          string    `json:"name"`
	Size          int64     `json:"size"`
	Status        string    `json:"status"`
	Review        string    `json:"review"`
	ReviewReason  string    `json:"review_reason"`
	CreatedAt     time.Time `json:"created_at"`
	Deletable     bool      `json:"deletable"`
	// Download is the file's download path under /v1/api ("" when its bytes are gone).
	Download string `json:"download"`
}

// Categories are the categories of the file list with their Persian names.
func Categories() []Category {
	out := make([]Category, len(sources))
	for i, s := range sources {
		out[i] = Category{s.Category, s.Label}
	}
	return out
}

func sourceOf(category string) (Source, bool) {
	for _, s := range sources {
		if s.Category == category {
			return s, true
		}
	}
	return Source{}, false
}

// EntryQuery is a page of the file list, optionally of one category.
type EntryQuery struct {
	validate.Paging
	Category string
}

// ParseEntryQuery reads page, limit (at most 100, default 20) and category
// (purpose is its older name).
func ParseEntryQuery(q url.Values) (EntryQuery, error) {
	pg, err := validate.ParsePaging(q, 20, 100)
	if err != nil {
		return EntryQuery{}, err
	}
	c := strings.TrimSpace(q.Get("category"))
	if c == "" {
		c = strings.TrimSpace(q.Get("purpose"))
	}
	if _, ok := sourceOf(c); c != "" && !ok {
		return EntryQuery{}, apperr.Field("category", MsgPurpose)
	}
	return EntryQuery{Paging: pg, Category: c}, nil
}

// Entries returns a page of the account's files of every category (or one),
// newest first, and their total.
func (s *Service) Entries(ctx context.Context, accountID int64, q EntryQuery) ([]Entry, int64, error) {
	var parts []string
	for _, src := range sources {
		if q.Category == "" || q.Category == src.Category {
			parts = append(parts, `SELECT '`+src.Category+`' AS category, x.* FROM (`+src.SQL+`) x`)
		}
	}
	union := strings.Join(parts, " UNION ALL ")
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM (`+union+`) u`, accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count files: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT * FROM (`+union+`) u ORDER BY 8 DESC, 2 DESC LIMIT $2 OFFSET $3`,
		accountID, q.Limit, q.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list files: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Entry, error) {
		var e Entry
		var downloadable bool
		err := r.Scan(&e.Category, &e.ID, &e.Name, &e.Size, &e.Status, &e.Review, &e.ReviewReason, &e.CreatedAt,
			&e.Deletable, &downloadable)
		if src, ok := sourceOf(e.Category); ok {
			e.CategoryLabel = src.Label
		}
		if downloadable {
			e.Download = downloadPath(e.Category, e.ID)
		}
		return e, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list files: %w", err)
	}
	if out == nil {
		out = []Entry{}
	}
	return out, total, nil
}

// downloadPath is the download suffix of a file: /user/files/{id}/download, with
// the category for files other than uploads.
func downloadPath(category string, id int64) string {
	p := "/user/files/" + strconv.FormatInt(id, 10) + "/download"
	switch category {
	case PurposeSend, PurposePeerToPeer, PurposeContacts:
	default:
		p += "?category=" + category
	}
	return p
}

// inUse names the first scheduled (or otherwise unfinished) send or recurring
// campaign that reads the file, as a Persian refusal ("" when none does).
func inUse(ctx context.Context, tx pgx.Tx, accountID, fileID int64) (string, error) {
	var kind, title string
	var id int64
	err := tx.QueryRow(ctx, `(SELECT 'send', id, '' FROM sends WHERE account_id = $2 AND expanded_at IS NULL
			AND status IN ('scheduled', 'queued', 'expanding', 'held') AND source @> jsonb_build_object('file_id', $1::bigint)
			ORDER BY id LIMIT 1)
		UNION ALL (SELECT 'campaign', id, title FROM campaigns WHERE account_id = $2
			AND (request->>'file_id') = $1::text ORDER BY id LIMIT 1)
		LIMIT 1`, fileID, accountID).Scan(&kind, &id, &title)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("file %d in use: %w", fileID, err)
	}
	n := persian.Digits(strconv.FormatInt(id, 10))
	if kind == "campaign" {
		return "این فایل در ارسال دوره‌ای «" + title + "» (شماره " + n + ") استفاده می‌شود و تا آن ارسال دوره‌ای حذف یا ویرایش نشود، حذف نمی‌شود", nil
	}
	return "این فایل در ارسال زمان‌بندی‌شده شماره " + n + " استفاده شده است و تا انجام یا لغو آن ارسال حذف نمی‌شود", nil
}
