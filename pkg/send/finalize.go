package send

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/wallet"
)

// Finalize closes a send once no recipient waits for a gateway: every recipient that
// was never submitted (rejected or stopped) is refunded, to the rial, exactly once,
// and the send is marked done (or stays stopped). Safe to call any number of times.
func (s *Service) Finalize(ctx context.Context, sendID int64) (bool, error) {
	var accountID, balance int64
	var moved, closed bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		var cost, refunded int64
		var finished bool
		err := tx.QueryRow(ctx, `SELECT account_id, status, cost, refunded, finished_at IS NOT NULL FROM sends
			WHERE id = $1 AND expanded_at IS NOT NULL FOR NO KEY UPDATE`, sendID).Scan(&accountID, &status, &cost, &refunded, &finished)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lock send: %w", err)
		}
		if finished || (status != StatusSending && status != StatusStopped) {
			return nil
		}
		var waiting bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM recipients WHERE send_id = $1 AND status IN (5, 7))`, sendID).Scan(&waiting); err != nil {
			return fmt.Errorf("check waiting: %w", err)
		}
		if waiting {
			return nil
		}
		var due int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(sum(cost), 0) FROM recipients WHERE send_id = $1 AND status = 6`, sendID).Scan(&due); err != nil {
			return fmt.Errorf("sum rejected: %w", err)
		}
		balance, moved, err = wallet.Apply(ctx, tx, wallet.Entry{AccountID: accountID, Kind: wallet.Refund, Amount: due - refunded,
			SendID: sendID, Ref: "send:" + strconv.FormatInt(sendID, 10) + ":final",
			Description: "بازگشت هزینه پیامک‌های ارسال‌نشده " + strconv.FormatInt(sendID, 10)})
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE sends SET status = CASE WHEN status = 'sending' THEN 'done' ELSE status END,
			refunded = $2, charity = $3, finished_at = now(), updated_at = now() WHERE id = $1`,
			sendID, due, (cost-due)*operator.CharityPct/100); err != nil {
			return fmt.Errorf("close send: %w", err)
		}
		closed = true
		return nil
	})
	if err != nil {
		return false, err
	}
	if moved {
		s.moneyChanged(ctx, accountID, balance)
	}
	return closed, nil
}
