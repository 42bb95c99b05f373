package send

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Claim modes (settings 'claim_mode', migrations/0198): how a gateway claims a
// chunk of recipients. Every process of this release reads both kinds of claim.
const (
	// ClaimRanges: the claim is its recipient_claims row alone; the recipients stay
	// queued (5), and one a live claim names is being submitted.
	ClaimRanges = "ranges"
	// ClaimRows: the claim also moves its recipients to status 7, as the previous
	// release claims: the mode while a process of that release may still run.
	ClaimRows = "rows"
)

// ErrClaimMode is a claim mode that is neither ClaimRanges nor ClaimRows.
var ErrClaimMode = errors.New("claim mode must be ranges or rows")

// ClaimMode is the gateways' claim mode; a database without the setting is in
// ClaimRows (the gateways read it so too).
func ClaimMode(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	var mode string
	err := pool.QueryRow(ctx, `SELECT value #>> '{}' FROM settings WHERE key = 'claim_mode'`).Scan(&mode)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && mode != ClaimRanges) {
		return ClaimRows, nil
	}
	if err != nil {
		return "", fmt.Errorf("read claim mode: %w", err)
	}
	return mode, nil
}

// SetClaimMode sets the gateways' claim mode; each gateway takes it at its next
// chunk. Switch to ClaimRanges only once no process of the previous release runs
// (docs/deployment.md): its gateways would claim a range claim's recipients again.
func SetClaimMode(ctx context.Context, pool *pgxpool.Pool, mode string) error {
	if mode != ClaimRanges && mode != ClaimRows {
		return fmt.Errorf("%w, got %q", ErrClaimMode, mode)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ('claim_mode', to_jsonb($1::text), now())
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`, mode); err != nil {
		return fmt.Errorf("set claim mode: %w", err)
	}
	return nil
}
