package pattern

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/review"
)

// MsgNotPending refuses a decision on a version that no longer waits.
const MsgNotPending = "این نسخه الگو در انتظار بررسی نیست"

// ReviewQueue is the back office queue of pattern versions (a review.Handler).
func (s *Service) ReviewQueue() review.Handler { return queue{} }

type queue struct{}

// Kind returns ReviewKind, the pattern versions' queue.
func (queue) Kind() string { return ReviewKind }

// Title returns the queue's Persian name in the back office menu.
func (queue) Title() string { return "الگوهای در انتظار بررسی" }

// Decide approves a version (it becomes the one that sends, replacing the previous
// approved version) or rejects it with the reason shown to the customer; a rejected
// edit leaves the approved version sending.
func (queue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	var pid int64
	var status string
	err := tx.QueryRow(ctx, `SELECT v.pattern_id, v.status FROM pattern_versions v JOIN patterns p ON p.id = v.pattern_id
		WHERE v.id = $1 AND p.account_id = $2 FOR UPDATE OF v, p`, it.SubjectID, it.AccountID).Scan(&pid, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock pattern version: %w", err)
	}
	if status != StatusPending {
		return nil, apperr.New(apperr.Conflict, MsgNotPending).WithCode("not-pending")
	}
	next := StatusRejected
	if d.Approve {
		next = StatusApproved
	}
	if _, err := tx.Exec(ctx, `UPDATE pattern_versions SET status = $2, reason = $3, decided_at = now() WHERE id = $1`,
		it.SubjectID, next, d.Reason); err != nil {
		return nil, fmt.Errorf("decide pattern version: %w", err)
	}
	if d.Approve {
		if _, err := tx.Exec(ctx, `UPDATE patterns SET active_version_id = $2, updated_at = now() WHERE id = $1`,
			pid, it.SubjectID); err != nil {
			return nil, fmt.Errorf("activate pattern version: %w", err)
		}
	}
	return nil, nil
}
