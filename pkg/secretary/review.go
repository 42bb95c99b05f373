package secretary

import (
	"context"

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
	_, err := review.DecideRow(ctx, tx, it, d, review.Row{Table: "readers", ReasonColumn: "reason", Stamp: "updated_at = now()",
		Pending: StatusPending, Approved: StatusActive, Rejected: StatusRejected,
		Decided: apperr.New(apperr.Conflict, MsgNotPending).WithCode("not-pending")})
	return nil, err
}
