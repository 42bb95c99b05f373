package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// seedLinks gives the demo account the enterprise plan (every service and limit of
// pkg/plan, link tracking turned on) and one tracked link, approved (once: a re-run
// finds it): the platform's own demo data.
func seedLinks(ctx context.Context, pool *pgxpool.Pool, accountID int64) error {
	_, err := pool.Exec(ctx, `UPDATE accounts SET link_tracking = true, plan = 'enterprise' WHERE id = $1`, accountID)
	if err == nil {
		_, err = pool.Exec(ctx, `INSERT INTO tracked_links (account_id, title, url, utm_campaign, status)
			SELECT $1, 'حراج پاییزه', 'https://example.com/autumn-sale', 'autumn', 'approved' WHERE NOT EXISTS
			(SELECT 1 FROM tracked_links WHERE account_id = $1)`, accountID)
	}
	if err != nil {
		return fmt.Errorf("seed demo links: %w", err)
	}
	return nil
}
