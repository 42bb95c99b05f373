package secretary

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/review"
)

// MsgNotPending refuses a decision on a reader that no longer waits for review.
const MsgNotPending = "این منشی در انتظار بررسی نیست"

// ReviewQueue is the back office queue of secretaries (a review.Handler).
func (s *Service) ReviewQueue() review.Handler { return queue{} }

type queue struct{}

// Kind returns ReviewKind, the readers' queue.
func (queue) Kind() string { return ReviewKind }

// Title returns the queue's Persian name in the back office menu.
func (queue) Title() string {
	return "منشی‌ها و کلیدخوان‌های در انتظار بررسی"
}

// Decide activates an approved reader or rejects it with the reason shown to the
// customer.
func (queue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	var status string
	err := tx.QueryRow(ctx, `SELECT status FROM readers WHERE id = $1 AND account_id = $2 FOR UPDATE`,
		it.SubjectID, it.AccountID).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock reader: %w", err)
	}
	if status != StatusPending {
		return nil, apperr.New(apperr.Conflict, MsgNotPending).WithCode("not-pending")
	}
	next := StatusRejected
	if d.Approve {
		next = StatusActive
	}
	if _, err := tx.Exec(ctx, `UPDATE readers SET status = $2, reason = $3, updated_at = now() WHERE id = $1`,
		it.SubjectID, next, d.Reason); err != nil {
		return nil, fmt.Errorf("decide reader: %w", err)
	}
	return nil, nil
}
