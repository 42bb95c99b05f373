package gateway

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// flushGrants raises the grants asked for and, when due, renews the claims in
// hand, in one transaction. On failure the requests stay pending.
func (r *recorder) flushGrants(ctx context.Context) error {
	r.mu.Lock()
	grants := r.grants
	r.grants = nil
	var renewIDs []int64
	if len(r.active) > 0 && !time.Now().Before(r.renewAt) {
		renewIDs = make([]int64, 0, len(r.active))
		for id := range r.active {
			renewIDs = append(renewIDs, id)
		}
		slices.Sort(renewIDs)
	}
	r.mu.Unlock()
	grants = r.refuseClosed(grants)
	if len(grants)+len(renewIDs) == 0 {
		return nil
	}
	ids := make([]int64, len(grants))
	targets := make([]int32, len(grants))
	for i, g := range grants {
		ids[i], targets[i] = g.claim.id, int32(g.target)
	}
	var granted map[int64]int
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		var err error
		if granted, err = grantClaims(ctx, tx, ids, targets); err != nil {
			return err
		}
		if len(renewIDs) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE recipient_claims SET renewed_at = now() WHERE id = ANY($1::bigint[])`,
				renewIDs); err != nil {
				return fmt.Errorf("renew claims: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		r.mu.Lock()
		r.grants = append(grants, r.grants...)
		r.mu.Unlock()
		r.nFailed.Add(1)
		return fmt.Errorf("grant: %w", err)
	}
	r.nGrantTxs.Add(1)
	if len(renewIDs) > 0 {
		r.mu.Lock()
		r.renewAt = time.Now().Add(renewEvery)
		r.mu.Unlock()
	}
	for _, g := range grants {
		h, ok := granted[g.claim.id]
		g.done <- grantResult{handed: h, ok: ok}
	}
	return nil
}

// grantable is the condition on a send s (and its account) for a claim of it to be
// granted recipients: neither the send stopped, failed or paused nor its account
// suspended.
const grantable = `s.status NOT IN ('stopped', 'failed', 'paused')
	AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = s.account_id AND a.status = 'suspended')`

// grantClaims raises the hand-over limit of the claims asked for, unless
// their send is stopped, failed or paused, its account suspended, or the claim is gone (the sweeper
// took it over from a gateway it thought dead). It returns the new limit of
// every claim granted.
func grantClaims(ctx context.Context, tx pgx.Tx, ids []int64, targets []int32) (map[int64]int, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `
		UPDATE recipient_claims c SET handed = greatest(c.handed, u.target), renewed_at = now()
		FROM unnest($1::bigint[], $2::int[]) AS u(id, target), sends s
		WHERE c.id = u.id AND s.id = c.send_id AND `+grantable+`
		RETURNING c.id, c.handed`, ids, targets)
	if err != nil {
		return nil, fmt.Errorf("grant claims: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]int, len(ids))
	for rows.Next() {
		var id int64
		var h int
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("grant claims: %w", err)
		}
		out[id] = h
	}
	return out, rows.Err()
}
