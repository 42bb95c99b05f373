package links

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// Counts are total and unique clicks.
type Counts struct {
	Clicks int64 `json:"clicks"`
	Unique int64 `json:"unique"`
}

// SendStats are one send's clicks on a link.
type SendStats struct {
	SendID     int64     `json:"send_id"`
	CreatedAt  time.Time `json:"created_at"`
	Status     string    `json:"status"`
	Recipients int       `json:"recipients"`
	Counts
}

// OperatorStats are one operator's clicks on a link.
type OperatorStats struct {
	Operator string `json:"operator"`
	Counts
}

// DayStats are the clicks of one day (Tehran time).
type DayStats struct {
	Day string `json:"day"` // YYYY-MM-DD (Gregorian; the panel shows it in Jalali)
	Counts
}

// Stats are a link's click statistics.
type Stats struct {
	Link        Link            `json:"link"`
	PerSend     []SendStats     `json:"per_send"`
	PerOperator []OperatorStats `json:"per_operator"`
	PerDay      []DayStats      `json:"per_day"`
}

// StatsDays is how many days the per-day series covers.
const StatsDays = 30

// maxSendsShown bounds the per-send table (newest first).
const maxSendsShown = 100

// Stats reads a link's statistics: totals, per send (the newest sends whose text
// holds it), per operator and per day over the last StatsDays days.
func (s *Service) Stats(ctx context.Context, id acl.Identity, linkID int64) (Stats, error) {
	var st Stats
	l := &st.Link
	err := s.pool.QueryRow(ctx, `SELECT l.id, l.title, l.url, l.utm_source, l.utm_medium, l.utm_campaign, l.created_at, l.status, l.review_note,
		(SELECT count(*) FROM link_clicks c WHERE c.link_id = l.id), (SELECT count(*) FROM link_visitors v WHERE v.link_id = l.id)
		FROM tracked_links l WHERE l.id = $1 AND l.account_id = $2`, linkID, id.AccountID).
		Scan(&l.ID, &l.Title, &l.URL, &l.UTMSource, &l.UTMMedium, &l.UTMCampaign, &l.CreatedAt, &l.Status, &l.ReviewNote,
			&l.Clicks, &l.Unique)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, apperr.ErrNotFound
	}
	if err != nil {
		return st, fmt.Errorf("link %d: %w", linkID, err)
	}
	l.Placeholder = placeholder(l.ID)
	if st.PerSend, err = s.perSend(ctx, id.AccountID, linkID); err != nil {
		return st, err
	}
	if st.PerOperator, err = s.perOperator(ctx, linkID); err != nil {
		return st, err
	}
	st.PerDay, err = s.perDay(ctx, linkID)
	return st, err
}

func (s *Service) perSend(ctx context.Context, accountID, linkID int64) ([]SendStats, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.id, s.created_at, s.status, s.recipients,
		(SELECT count(*) FROM link_clicks c WHERE c.send_id = s.id AND c.link_id = $2),
		(SELECT count(*) FROM link_visitors v WHERE v.send_id = s.id AND v.link_id = $2)
		FROM sends s WHERE s.account_id = $1 AND strpos(s.text, $3) > 0 ORDER BY s.id DESC LIMIT $4`,
		accountID, linkID, placeholder(linkID), maxSendsShown)
	if err != nil {
		return nil, fmt.Errorf("link sends: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (SendStats, error) {
		var x SendStats
		return x, r.Scan(&x.SendID, &x.CreatedAt, &x.Status, &x.Recipients, &x.Clicks, &x.Unique)
	})
	if out == nil {
		out = []SendStats{}
	}
	return out, err
}

func (s *Service) perOperator(ctx context.Context, linkID int64) ([]OperatorStats, error) {
	rows, err := s.pool.Query(ctx, `SELECT c.operator, c.n, coalesce(v.n, 0) FROM
		(SELECT operator, count(*) AS n FROM link_clicks WHERE link_id = $1 GROUP BY operator) c
		LEFT JOIN (SELECT operator, count(*) AS n FROM link_visitors WHERE link_id = $1 GROUP BY operator) v USING (operator)
		ORDER BY c.n DESC, c.operator`, linkID)
	if err != nil {
		return nil, fmt.Errorf("link operators: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (OperatorStats, error) {
		var x OperatorStats
		return x, r.Scan(&x.Operator, &x.Clicks, &x.Unique)
	})
	if out == nil {
		out = []OperatorStats{}
	}
	return out, err
}

func (s *Service) perDay(ctx context.Context, linkID int64) ([]DayStats, error) {
	rows, err := s.pool.Query(ctx, `WITH days AS (
			SELECT generate_series((now() AT TIME ZONE 'Asia/Tehran')::date - ($2::int - 1), (now() AT TIME ZONE 'Asia/Tehran')::date, '1 day')::date AS d)
		SELECT to_char(d, 'YYYY-MM-DD'),
			(SELECT count(*) FROM link_clicks WHERE link_id = $1 AND clicked_at >= (d::timestamp AT TIME ZONE 'Asia/Tehran')
				AND clicked_at < ((d + 1)::timestamp AT TIME ZONE 'Asia/Tehran')),
			(SELECT count(*) FROM link_visitors WHERE link_id = $1 AND first_at >= (d::timestamp AT TIME ZONE 'Asia/Tehran')
				AND first_at < ((d + 1)::timestamp AT TIME ZONE 'Asia/Tehran'))
		FROM days ORDER BY d`, linkID, StatsDays)
	if err != nil {
		return nil, fmt.Errorf("link days: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DayStats, error) {
		var x DayStats
		return x, r.Scan(&x.Day, &x.Clicks, &x.Unique)
	})
	return out, err
}
