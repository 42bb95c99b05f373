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
// was never submitted (rejected or stopped) is refunded, and so is the share of the
// parts the carrier refused (or that were never submitted) of every recipient that
// was sent (see partialRefund), to the rial, exactly once; the send is marked done
// (or stays stopped). Safe to call any number of times.
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
		due, err := refundDue(ctx, tx, accountID, sendID)
		if err != nil {
			return err
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
		// A change of nothing: the next fold lists the send as changed, so the live
		// pump announces its close (send.status) even when its last counters moved
		// before it; a page showing it would otherwise learn it only by polling.
		if err := AddCounts(ctx, tx, []int64{sendID}, []Counts{{}}); err != nil {
			return err
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

// refundDue is what a send's close refunds in all: the cost of its recipients never
// submitted, and the unsent parts' share of its sent recipients.
func refundDue(ctx context.Context, tx pgx.Tx, accountID, sendID int64) (int64, error) {
	// Rejected recipients (6) are refunded in full, and so are the ones a carrier
	// answered blocked (4 with a cost; blocked.go: those left out at expansion
	// cost nothing).
	rows, err := tx.Query(ctx, `SELECT status IN (4, 6), operator, parts, parts_rejected, count(*), coalesce(sum(cost), 0)
		FROM recipients WHERE send_id = $1 AND (status IN (4, 6) OR (status IN (0, 1, 2, 3) AND parts_rejected > 0))
		GROUP BY 1, 2, 3, 4`, sendID)
	if err != nil {
		return 0, fmt.Errorf("sum refunds: %w", err)
	}
	type group struct {
		rejected        bool
		op              string
		parts, unsent   int16
		count, sumCosts int64
	}
	groups, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (group, error) {
		var g group
		err := r.Scan(&g.rejected, &g.op, &g.parts, &g.unsent, &g.count, &g.sumCosts)
		return g, err
	})
	if err != nil {
		return 0, fmt.Errorf("sum refunds: %w", err)
	}
	var due int64
	var tariffs *operator.Table
	for _, g := range groups {
		if g.rejected {
			due += g.sumCosts
			continue
		}
		if tariffs == nil {
			if tariffs, err = operator.Load(ctx, tx, accountID); err != nil {
				return 0, err
			}
		}
		due += partialRefund(g.sumCosts, g.count, tariffs.Price(g.op, int(g.parts-g.unsent)))
	}
	return due, nil
}

// partialRefund is the refund of n sent recipients that cost sumCosts together,
// each of which keeps kept: the price of its sent parts (the per-send fee stays,
// since something was sent). A refund never exceeds what was paid.
func partialRefund(sumCosts, n, kept int64) int64 {
	return max(0, sumCosts-n*kept)
}
