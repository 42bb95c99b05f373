package send

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/wallet"
)

// Stopped is the answer to a stop or cancel.
type Stopped struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Refunded int64  `json:"refunded"`
}

// Cancel stops a running send or cancels a scheduled one. Every recipient not yet
// handed to a gateway is marked rejected ("stopped") and refunded to the rial in the
// same transaction; a gateway re-checks the status between chunks.
func (s *Service) Cancel(ctx context.Context, id acl.Identity, sendID int64, ip string) (Stopped, error) {
	out := Stopped{ID: sendID, Status: StatusStopped}
	var balance int64
	moved := false
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		var quote, refunded int64
		var expanded bool
		err := tx.QueryRow(ctx, `SELECT status, quote, refunded, expanded_at IS NOT NULL FROM sends
			WHERE id = $1 AND account_id = $2 FOR UPDATE`, sendID, id.AccountID).Scan(&status, &quote, &refunded, &expanded)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("lock send: %w", err)
		}
		switch status {
		case StatusScheduled, StatusQueued, StatusSending:
		default:
			return apperr.New(apperr.Conflict, MsgNotStoppable).WithCode("not-stoppable")
		}
		var amount int64
		var n int
		if !expanded {
			// Nothing was expanded yet: the whole hold goes back.
			amount = quote
		} else {
			if err := tx.QueryRow(ctx, `WITH stopped AS (
				UPDATE recipients SET status = 6, error = 'stopped', updated_at = now(), done_at = now()
				WHERE send_id = $1 AND status = 5 RETURNING cost)
				SELECT count(*), coalesce(sum(cost), 0) FROM stopped`, sendID).Scan(&n, &amount); err != nil {
				return fmt.Errorf("stop recipients: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE sends SET status = 'stopped', stopped_by = $2, stopped_at = now(),
			rejected = rejected + $3, refunded = refunded + $4, updated_at = now(),
			finished_at = CASE WHEN expanded_at IS NULL THEN now() ELSE finished_at END WHERE id = $1`,
			sendID, id.UserID, n, amount); err != nil {
			return fmt.Errorf("stop send: %w", err)
		}
		bal, applied, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: id.AccountID, Kind: wallet.Refund, Amount: amount,
			SendID: sendID, Ref: "send:" + strconv.FormatInt(sendID, 10) + ":stop", UserID: id.UserID,
			Description: "بازگشت هزینه ارسال متوقف‌شده " + strconv.FormatInt(sendID, 10)})
		if err != nil {
			return err
		}
		balance, moved = bal, applied
		out.Refunded = amount
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: "send.stop", Target: strconv.FormatInt(sendID, 10), IP: ip,
			Details: map[string]any{"from": status, "refunded": amount, "recipients": n}})
	})
	if err != nil {
		return Stopped{}, err
	}
	if moved {
		s.moneyChanged(ctx, id.AccountID, balance)
	}
	return out, nil
}
