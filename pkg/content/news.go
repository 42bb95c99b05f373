package content

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

// NewsItem is one live news item with whether the user has read it.
type NewsItem struct {
	Item
	Read bool `json:"read"`
}

// NewsList is the live staff news of a user (GET /user/news/user_news_list) and how
// many of them the user has not read.
type NewsList struct {
	Items  []NewsItem `json:"items"`
	Unread int        `json:"unread"`
}

const liveNews = `kind = 'news' AND active AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())`

// UserNews lists the live news in display order with the user's read state.
func (s *Service) UserNews(ctx context.Context, userID int64) (NewsList, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+columns+`, EXISTS (SELECT 1 FROM news_reads r WHERE r.user_id = $1 AND r.item_id = c.id)
		FROM content_items c WHERE `+liveNews+` ORDER BY position, id`, userID)
	if err != nil {
		return NewsList{}, fmt.Errorf("user news: %w", err)
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (NewsItem, error) {
		var n NewsItem
		err := r.Scan(append(n.fields(), &n.Read)...)
		return n, err
	})
	if err != nil {
		return NewsList{}, fmt.Errorf("user news: %w", err)
	}
	out := NewsList{Items: items}
	for _, n := range items {
		if !n.Read {
			out.Unread++
		}
	}
	return out, nil
}

// MarkNewsRead marks one live news item read for the user (again is a no-op); an
// unknown, inactive or out-of-window item is not found.
func (s *Service) MarkNewsRead(ctx context.Context, userID, itemID int64) error {
	var id int64
	err := s.pool.QueryRow(ctx, `WITH item AS (SELECT id FROM content_items WHERE id = $2 AND `+liveNews+`),
		ins AS (INSERT INTO news_reads (user_id, item_id) SELECT $1, id FROM item ON CONFLICT DO NOTHING)
		SELECT id FROM item`, userID, itemID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("mark news read: %w", err)
	}
	return nil
}

// MarkAllNewsRead marks every live news item read for the user and says how many
// were unread.
func (s *Service) MarkAllNewsRead(ctx context.Context, userID int64) (int64, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO news_reads (user_id, item_id) SELECT $1, id FROM content_items WHERE `+liveNews+`
		ON CONFLICT DO NOTHING`, userID)
	if err != nil {
		return 0, fmt.Errorf("mark all news read: %w", err)
	}
	return tag.RowsAffected(), nil
}
