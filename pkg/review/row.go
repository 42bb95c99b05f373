package review

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

// Row says how a queue's subject is decided: the row it.SubjectID of Table (with
// id, account_id and status columns), waiting in Pending, moves to Approved or
// Rejected with the reason in ReasonColumn and the Stamp assignments (for example
// "decided_at = now()").
type Row struct {
	Table, ReasonColumn, Stamp  string
	Pending, Approved, Rejected string
	// Decided is the answer (409) when the row is no longer pending.
	Decided *apperr.Error
}

// DecideRow records d on the item's subject row under its row lock, in tx, and
// returns the status it set. Another account's row is not found; a row decided
// already answers r.Decided.
func DecideRow(ctx context.Context, tx pgx.Tx, it Item, d Decision, r Row) (string, error) {
	var status string
	err := tx.QueryRow(ctx, `SELECT status FROM `+r.Table+` WHERE id = $1 AND account_id = $2 FOR UPDATE`,
		it.SubjectID, it.AccountID).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", apperr.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("lock %s %d: %w", r.Table, it.SubjectID, err)
	}
	if status != r.Pending {
		return "", r.Decided
	}
	next := r.Rejected
	if d.Approve {
		next = r.Approved
	}
	set := "status = $2, " + r.ReasonColumn + " = $3"
	if r.Stamp != "" {
		set += ", " + r.Stamp
	}
	if _, err := tx.Exec(ctx, `UPDATE `+r.Table+` SET `+set+` WHERE id = $1`, it.SubjectID, next, d.Reason); err != nil {
		return "", fmt.Errorf("decide %s %d: %w", r.Table, it.SubjectID, err)
	}
	return next, nil
}
