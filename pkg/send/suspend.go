package send

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// A suspended account sends and spends nothing (docs/security.md, suspension): no
// send is accepted (accountOpen, under a share lock of the account row, so a send
// and a suspension never interleave), scheduled sends and held sends wait, and the
// sends under way are paused by PauseAccount in the suspension's own transaction.
// ResumeAccount resumes exactly those when staff reactivate the account; their
// money stayed held, so nothing is charged twice.

// Messages and codes of a suspended account.
const (
	MsgSuspended  = "حساب کاربری شما توسط پشتیبانی تعلیق شده است؛ هیچ ارسالی انجام نمی‌شود. برای پیگیری با پشتیبانی تماس بگیرید"
	CodeSuspended = "account-suspended"
	// MsgHeldSuspended refuses approving a held send of a suspended account.
	MsgHeldSuspended = "حساب این مشتری تعلیق است؛ ارسال پس از فعال‌سازی حساب قابل تأیید است"
)

// ErrSuspended is the refusal of any send of a suspended account.
var ErrSuspended = apperr.New(apperr.Forbidden, MsgSuspended).WithCode(CodeSuspended)

// accountOpen refuses a suspended account inside tx, holding a share lock on its row
// until tx ends (a suspension waits for the send, or the send sees the suspension).
func accountOpen(ctx context.Context, tx pgx.Tx, accountID int64) error {
	var status string
	err := tx.QueryRow(ctx, `SELECT status FROM accounts WHERE id = $1 FOR SHARE`, accountID).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("account status: %w", err)
	}
	if status == "suspended" {
		return ErrSuspended
	}
	return nil
}

// notSuspended is the SQL condition that the send row aliased s is of an account
// that is not suspended.
const notSuspended = `NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = s.account_id AND a.status = 'suspended')`

// creatorActive is the SQL condition that the creator of the send row aliased s (a
// colleague, or the owner) is not deactivated.
const creatorActive = `NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id AND u.status = 'disabled')`

// PauseAccount pauses, inside the suspension's transaction tx, every queued or
// sending send of the account and marks it as paused by the suspension; by is the
// staff member, recorded on each send. It returns how many it paused.
func PauseAccount(ctx context.Context, tx pgx.Tx, by acl.Identity, accountID int64) (int, error) {
	rows, err := tx.Query(ctx, `UPDATE sends SET status = 'paused', paused_at = now(), suspended_at = now(), updated_at = now()
		WHERE account_id = $1 AND status IN ('queued', 'sending') RETURNING id`, accountID)
	var ids []int64
	if err == nil {
		ids, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	}
	if err != nil {
		return 0, fmt.Errorf("pause sends of suspended account: %w", err)
	}
	for _, id := range ids {
		if err := recordControl(ctx, tx, id, controlBy(by, accountID), ActionPause, map[string]any{"reason": "suspended"}, ""); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// ResumeAccount resumes the sends a suspension paused, once the reactivation is
// committed: each goes back to sending (or queued, when it was never expanded) and
// its work is enqueued again. by is the staff member.
func (s *Service) ResumeAccount(ctx context.Context, by acl.Identity, accountID int64) error {
	type resumed struct {
		id       int64
		expanded bool
	}
	var out []resumed
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE sends SET status = CASE WHEN expanded_at IS NULL THEN 'queued' ELSE 'sending' END,
			suspended_at = NULL, updated_at = now()
			WHERE account_id = $1 AND suspended_at IS NOT NULL AND status = 'paused' RETURNING id, expanded_at IS NOT NULL`, accountID)
		if err != nil {
			return fmt.Errorf("resume sends: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (resumed, error) {
			var x resumed
			return x, r.Scan(&x.id, &x.expanded)
		})
		if err != nil {
			return fmt.Errorf("resume sends: %w", err)
		}
		for _, x := range out {
			if err := recordControl(ctx, tx, x.id, controlBy(by, accountID), ActionResume, map[string]any{"reason": "reactivated"}, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, x := range out {
		if err := s.requeue(ctx, x.id, x.expanded); err != nil {
			slog.WarnContext(ctx, "reactivation: send not re-enqueued; the sweeper will", "send", x.id, "err", err)
		}
	}
	return nil
}

// controlBy is the staff member acting on a customer's send: recorded on the
// customer's account with the staff user.
func controlBy(by acl.Identity, accountID int64) acl.Identity {
	return acl.Identity{AccountID: accountID, UserID: by.UserID}
}

// ScheduledBy counts, inside tx, the account's scheduled sends a user made: those of a
// deactivated colleague wait (FireDue) until they are active again or cancelled.
func ScheduledBy(ctx context.Context, tx pgx.Tx, accountID, userID int64) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM sends WHERE account_id = $1 AND user_id = $2 AND status = 'scheduled'`,
		accountID, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("scheduled sends of %d: %w", userID, err)
	}
	return n, nil
}
