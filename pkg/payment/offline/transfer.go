package offline

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

// MsgApprovedElsewhere refuses approving a report of a transfer another report
// (of any account) was already credited for.
const MsgApprovedElsewhere = "این واریز پیش‌تر با گزارش دیگری تأیید و شارژ شده است؛ این گزارش را رد کنید"

// Other is another report of the same transfer, as the reviewer sees it.
type Other struct {
	ID          int64     `json:"id"`
	AccountID   int64     `json:"account_id"`
	AccountName string    `json:"account_name"`
	Amount      int64     `json:"amount"`
	State       string    `json:"state"`
	CreatedAt   time.Time `json:"created_at"`
}

// sameTransfer matches the reports of one transfer: its method and tracking number
// ($1, $2) and its destination ($3), where a report made before destinations were
// recorded (empty) matches any destination.
const sameTransfer = `method = $1 AND tracking_number = $2 AND (destination = $3 OR destination = '' OR $3 = '')`

// destination is the platform's card (card-to-card) or Sheba (bank transfer) the
// reported transfer went to, as configured now.
func (s *Service) destination(method string) string {
	if method == Card {
		return digitsOnly(s.Dest.CardNumber)
	}
	d, _ := NormalizeIBAN(s.Dest.IBAN)
	return d
}

// claimTransfer refuses a report of a transfer that another report, of any
// account, holds (pending or approved). Reports of one transfer are serialised by
// a transaction lock on its method and tracking number; the unique index
// offline_payments_transfer is the database's own guarantee.
func claimTransfer(ctx context.Context, tx pgx.Tx, p *Payment) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('offline:' || $1 || ':' || $2, 0))`,
		p.Method, p.TrackingNumber); err != nil {
		return fmt.Errorf("lock transfer: %w", err)
	}
	var taken bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM offline_payments WHERE `+sameTransfer+`
		AND state <> 'rejected')`, p.Method, p.TrackingNumber, p.Destination).Scan(&taken); err != nil {
		return fmt.Errorf("check transfer: %w", err)
	}
	if taken {
		return apperr.Field("tracking_number", MsgDuplicate)
	}
	return nil
}

// ForReview returns one report for staff with every other report of the same
// transfer, whatever its account and state.
func (s *Service) ForReview(ctx context.Context, id int64) (Payment, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return p, err
	}
	rows, err := s.pool.Query(ctx, `SELECT o.id, o.account_id, a.name, o.amount, o.state, o.created_at
		FROM offline_payments o JOIN accounts a ON a.id = o.account_id
		WHERE `+sameTransfer+` AND o.id <> $4 ORDER BY o.id`, p.Method, p.TrackingNumber, p.Destination, p.ID)
	if err == nil {
		p.Others, err = pgx.CollectRows(rows, pgx.RowToStructByPos[Other])
	}
	if err != nil {
		return p, fmt.Errorf("other reports of the transfer: %w", err)
	}
	return p, nil
}

// approvedElsewhere refuses approving report id while another report of the same
// transfer is approved (reports made before transfers were unique may share one).
func approvedElsewhere(ctx context.Context, tx pgx.Tx, id int64) error {
	var other bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM offline_payments o, offline_payments p
		WHERE p.id = $1 AND o.id <> p.id AND o.state = 'approved' AND o.method = p.method
		AND o.tracking_number = p.tracking_number
		AND (o.destination = p.destination OR o.destination = '' OR p.destination = ''))`, id).Scan(&other)
	if err != nil {
		return fmt.Errorf("check approved transfer: %w", err)
	}
	if other {
		return apperr.New(apperr.Conflict, MsgApprovedElsewhere).WithCode("transfer-approved")
	}
	return nil
}
