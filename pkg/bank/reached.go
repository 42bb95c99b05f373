package bank

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// RecordReached notes the numbers a bank send of the account was written to
// (at its expansion, in its transaction): a message arriving from one of them is
// masked in the account's inbox (migration 0091).
func RecordReached(ctx context.Context, tx pgx.Tx, accountID, sendID int64) error {
	if _, err := tx.Exec(ctx, `INSERT INTO bank_reached (account_id, mobile)
		SELECT $1, mobile FROM recipients WHERE send_id = $2 ON CONFLICT DO NOTHING`, accountID, sendID); err != nil {
		return fmt.Errorf("bank numbers reached: %w", err)
	}
	return nil
}
