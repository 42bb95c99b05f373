package report

import (
	"context"
	"fmt"
	"time"

	"github.com/chapar/chapar/internal/platform/db"
)

// MaxQ bounds the text filter of the reports list, in characters.
const MaxQ = 200

// Match is the recipient a mobile filter found in one send: its public status
// (spec §4) and when it last changed (the delivery time once delivered).
type Match struct {
	Mobile    string    `json:"mobile"`
	Status    int       `json:"status"`
	Pending   bool      `json:"pending,omitempty"`
	Rejected  bool      `json:"rejected,omitempty"`
	UpdatedAt time.Time `json:"updated_at"`
}

// The mobile and text filters of the reports list.
//
// A number is found through recipients_mobile_idx (mobile, send_id): the sends that
// had it, of any account, come from the index alone and only the account's are
// kept; a send not expanded yet (scheduled, held) is matched on its requested
// numbers. Bank sends and masked replies are never matched: that would tell whether
// a number was in their audience (docs/targeted-sends.md). The text filter is a
// case-insensitive substring of the account's sends in the range.
const (
	mobileWhere = `
  AND NOT s.masked AND bank_masked(s.type, '989000000000') = '989000000000'
  AND (s.id IN (SELECT r.send_id FROM recipients_history r WHERE r.mobile = $%[1]d)
       OR (s.expanded_at IS NULL AND $%[1]d = ANY(s.numbers)))`
	textWhere = `
  AND s.text ILIKE '%%' || $%d || '%%' ESCAPE '\'`

	// qMatches is the number's recipient in each of the sends $2 (its first row).
	qMatches = `SELECT DISTINCT ON (r.send_id) r.send_id, r.status, r.updated_at
FROM recipients_history r WHERE r.mobile = $1 AND r.send_id = ANY($2)
ORDER BY r.send_id, r.id`
)

// listWhere is the WHERE clause of the list and its count for f, with its args
// appended to base ($1–$6 of listBase).
func listWhere(f Filter, base []any) (string, []any) {
	where, args := listBase, base
	if f.Mobile != "" {
		args = append(args, f.Mobile)
		where += fmt.Sprintf(mobileWhere, len(args))
	}
	if f.Q != "" {
		args = append(args, db.EscapeLike(f.Q))
		where += fmt.Sprintf(textWhere, len(args))
	}
	return where, args
}

// matchMobile sets Match on each send of a page filtered by mobile: the number's
// recipient row, or pending while the send is not expanded yet.
func (s *Service) matchMobile(ctx context.Context, mobile string, page []Stats) error {
	ids := make([]int64, len(page))
	for i, st := range page {
		ids[i] = st.ID
		page[i].Match = &Match{Mobile: mobile, Status: StatusSent, Pending: true, UpdatedAt: st.CreatedAt}
	}
	rows, err := s.pool.Query(ctx, qMatches, mobile, ids)
	if err != nil {
		return fmt.Errorf("find mobile in sends: %w", err)
	}
	defer rows.Close()
	byID := map[int64]*Match{}
	for i := range page {
		byID[page[i].ID] = page[i].Match
	}
	for rows.Next() {
		var (
			id     int64
			stored int16
			at     time.Time
		)
		if err := rows.Scan(&id, &stored, &at); err != nil {
			return fmt.Errorf("find mobile in sends: %w", err)
		}
		m := byID[id]
		m.Status, m.Pending, m.Rejected = PublicStatus(int(stored))
		m.UpdatedAt = at
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("find mobile in sends: %w", err)
	}
	return nil
}
