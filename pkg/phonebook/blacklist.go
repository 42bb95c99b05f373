package phonebook

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// The lists every send respects (the blacklist table): the send blacklist, the
// receive blacklist and the cancel-11 opt-outs (filled by inbound «11»).
const (
	ListSend     = "send"
	ListReceive  = "receive"
	ListCancel11 = "cancel11"

	SourceManual  = "manual"
	SourceImport  = "import"
	SourceInbound = "inbound"
)

// ListNames are the Persian names of the lists and of the ways onto them.
var ListNames = map[string]string{
	ListSend:      "لیست سیاه ارسال",
	ListReceive:   "لیست سیاه دریافت",
	ListCancel11:  "لیست لغو۱۱",
	SourceManual:  "دستی",
	SourceImport:  "ورود از فایل",
	SourceInbound: "پیامک دریافتی",
}

// ListEntry is a number on a list.
type ListEntry struct {
	Number    string    `json:"number"`
	Kind      string    `json:"kind"`
	Source    string    `json:"source"`
	CreatedAt time.Time `json:"created_at"`
}

// ListQuery selects entries of one list.
type ListQuery struct {
	Kind   string
	Search string
	Page   Page
}

// ParseListQuery reads kind (default send), search, page and limit.
func ParseListQuery(q url.Values) (ListQuery, error) {
	lq := ListQuery{Search: strings.TrimSpace(q.Get("search"))}
	kind, err := checkKind(q.Get("kind"))
	if err != nil {
		return lq, err
	}
	lq.Kind = kind
	lq.Page, err = ParsePage(q)
	return lq, err
}

// checkKind reads a list kind; empty is the send blacklist.
func checkKind(kind string) (string, error) {
	switch kind = strings.TrimSpace(kind); kind {
	case "":
		return ListSend, nil
	case ListSend, ListReceive, ListCancel11:
		return kind, nil
	}
	return "", apperr.Field("kind", MsgListKind)
}

// listWhere selects a list's entries; search matches the number in any digit form.
func listWhere(accountID int64, q ListQuery) (string, []any) {
	cond, args := `account_id = $1 AND kind = $2`, []any{accountID, q.Kind}
	d, prefix, ok := searchDigits(q.Search)
	switch {
	case prefix:
		cond += ` AND mobile >= $3 AND mobile < $4`
		args = append(args, d, d+":")
	case ok:
		cond += ` AND mobile LIKE $3`
		args = append(args, db.Contains(d))
	case q.Search != "":
		cond += ` AND false`
	}
	return cond, args
}

// searchDigits reads a search term as a number: its digits in the stored form. A
// term written as the start of a number (0912…, +98912…, 0098912…) is a prefix
// (98912…); other digits are searched anywhere. ok is false unless the term is made
// of digits, spaces, dashes and a leading plus.
func searchDigits(term string) (digits string, prefix, ok bool) {
	d, plus, ok := termDigits(term)
	switch {
	case !ok:
		return "", false, false
	case plus:
		return d, strings.HasPrefix(d, "98"), true
	case strings.HasPrefix(d, "0098"):
		return d[2:], true, true
	case strings.HasPrefix(d, "0"):
		return "98" + d[1:], true, true
	}
	return d, false, true
}

// termDigits reads a search term made of digits (Latin, Persian or Arabic), spaces,
// dashes and a leading plus: its digits, and whether it starts with the plus. ok is
// false for any other term, and for one without a digit.
func termDigits(term string) (digits string, plus, ok bool) {
	term = validate.ToLatinDigits(strings.TrimSpace(term))
	var b strings.Builder
	for i, r := range term {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '+' && i == 0:
		default:
			return "", false, false
		}
	}
	return b.String(), strings.HasPrefix(term, "+"), b.Len() > 0
}

// ListEntries lists one list, newest first.
func (s *Service) ListEntries(ctx context.Context, accountID int64, q ListQuery) ([]ListEntry, int64, error) {
	cond, args := listWhere(accountID, q)
	n := len(args)
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT mobile, kind, source, created_at FROM blacklist WHERE %s
		ORDER BY created_at DESC, mobile LIMIT $%d OFFSET $%d`, cond, n+1, n+2), append(args, q.Page.Limit, q.Page.Offset())...)
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", q.Kind, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ListEntry])
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", q.Kind, err)
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM blacklist WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", q.Kind, err)
	}
	return out, total, nil
}

// listNumbers validates and normalises the numbers of a list change, dropping repeats.
func listNumbers(kind string, numbers []string) (string, []string, error) {
	kind, err := checkKind(kind)
	if err != nil {
		return "", nil, err
	}
	switch {
	case len(numbers) == 0:
		return "", nil, apperr.Field("numbers", MsgNumbersRequired)
	case len(numbers) > MaxListNumbers:
		return "", nil, apperr.Field("numbers", MsgTooManyNumbers)
	}
	seen := make(map[string]bool, len(numbers))
	out := make([]string, 0, len(numbers))
	for _, n := range numbers {
		m, ok := validate.NormalizeMobile(n)
		if !ok {
			return "", nil, apperr.Field("numbers", validate.MsgMobile)
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return kind, out, nil
}

// AddToList puts numbers on a list (source manual); numbers already there, or
// repeated, are skipped.
func (s *Service) AddToList(ctx context.Context, a Actor, kind string, numbers []string) (added, skipped int, err error) {
	kind, ms, err := listNumbers(kind, numbers)
	if err != nil {
		return 0, 0, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile, source)
			SELECT $1, $2, unnest($3::text[]), 'manual' ON CONFLICT DO NOTHING`, a.AccountID, kind, ms)
		if err != nil {
			return fmt.Errorf("add to %s: %w", kind, err)
		}
		added = int(tag.RowsAffected())
		return a.audit(ctx, tx, "blacklist.add", kind, map[string]any{"added": added})
	})
	if err != nil {
		return 0, 0, err
	}
	return added, len(numbers) - added, nil
}

// RemoveFromList takes numbers off a list.
func (s *Service) RemoveFromList(ctx context.Context, a Actor, kind string, numbers []string) (int, error) {
	kind, ms, err := listNumbers(kind, numbers)
	if err != nil {
		return 0, err
	}
	var n int
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM blacklist WHERE account_id = $1 AND kind = $2 AND mobile = ANY($3)`,
			a.AccountID, kind, ms)
		if err != nil {
			return fmt.Errorf("remove from %s: %w", kind, err)
		}
		n = int(tag.RowsAffected())
		return a.audit(ctx, tx, "blacklist.delete", kind, map[string]any{"deleted": n})
	})
	return n, err
}
