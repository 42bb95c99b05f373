package content

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// BoardTTL is how long an API process keeps the dashboard's items before reading
// them again; a change made through this process is seen at once (Save and Delete
// drop the cache), one made through another process within BoardTTL.
const BoardTTL = 30 * time.Second

// Board is what the customer dashboard shows of the staff-edited content, in
// display order: banners (strip and carousel), news and quick-access links.
type Board struct {
	Banners     []Item `json:"banners"`
	News        []Item `json:"news"`
	QuickAccess []Item `json:"quick_access"`
}

// boardCache keeps the active dashboard items; the time windows are applied on
// every read, so a banner ends on the second staff chose whatever the cache's age.
type boardCache struct {
	mu    sync.Mutex
	at    time.Time
	items []Item
}

func (c *boardCache) drop() {
	c.mu.Lock()
	c.at = time.Time{}
	c.mu.Unlock()
}

// Board returns the live dashboard content (one query per BoardTTL at most).
func (s *Service) Board(ctx context.Context) (Board, error) {
	items, err := s.boardItems(ctx)
	if err != nil {
		return Board{}, err
	}
	b := Board{Banners: []Item{}, News: []Item{}, QuickAccess: []Item{}}
	now := time.Now()
	for _, it := range items {
		if it.StartsAt != nil && it.StartsAt.After(now) || it.EndsAt != nil && !it.EndsAt.After(now) {
			continue
		}
		switch it.Kind {
		case "banner":
			b.Banners = append(b.Banners, it)
		case "news":
			b.News = append(b.News, it)
		case "quick_access":
			b.QuickAccess = append(b.QuickAccess, it)
		}
	}
	return b, nil
}

func (s *Service) boardItems(ctx context.Context) ([]Item, error) {
	c := &s.board
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < BoardTTL {
		return c.items, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM content_items WHERE kind IN ('banner', 'news', 'quick_access')
		AND active AND (ends_at IS NULL OR ends_at > now()) ORDER BY kind, position, id`)
	if err != nil {
		return nil, fmt.Errorf("dashboard content: %w", err)
	}
	items, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, fmt.Errorf("dashboard content: %w", err)
	}
	c.items, c.at = items, time.Now()
	return items, nil
}
