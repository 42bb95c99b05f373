package offline

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/wallet"
)

// Kind is the review queue of the offline payments.
const Kind = "offline_payment"

// Ledger descriptions of an approved report.
const (
	descCard = "شارژ کارت به کارت (پس از کسر ۱۰٪ مالیات)"
	descBank = "شارژ با واریز بانکی"
)

// ReviewQueue is the back office queue of the offline payments.
func (s *Service) ReviewQueue() review.Handler { return queue{s} }

type queue struct{ s *Service }

// Kind returns Kind, the offline payments' queue.
func (queue) Kind() string { return Kind }

// Title returns the queue's Persian name in the back office menu.
func (queue) Title() string { return "پرداخت‌های کارت به کارت و بانکی" }

// Decide approves (credits the wallet once, by the report's reference) or rejects
// (keeps the reason for the customer) a pending report, under its row lock.
func (q queue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	var accountID, credit int64
	var method, state string
	err := tx.QueryRow(ctx, `SELECT account_id, method, credit, state FROM offline_payments WHERE id = $1 FOR UPDATE`,
		it.SubjectID).Scan(&accountID, &method, &credit, &state)
	if err != nil {
		return nil, fmt.Errorf("lock offline payment %d: %w", it.SubjectID, err)
	}
	if state != Pending {
		return nil, apperr.New(apperr.Conflict, MsgNotPending).WithCode("review-decided")
	}
	next := Rejected
	if d.Approve {
		next = Approved
		if err := approvedElsewhere(ctx, tx, it.SubjectID); err != nil {
			return nil, err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE offline_payments SET state = $2, reason = $3, decided_at = now() WHERE id = $1`,
		it.SubjectID, next, d.Reason); err != nil {
		return nil, fmt.Errorf("decide offline payment: %w", err)
	}
	if !d.Approve {
		return nil, nil
	}
	desc := descCard
	if method == Bank {
		desc = descBank
	}
	balance, applied, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: accountID, Kind: wallet.Deposit, Amount: credit,
		Ref: "offline:" + strconv.FormatInt(it.SubjectID, 10) + ":credit", Description: desc, UserID: d.Staff.UserID})
	if err != nil || !applied || q.s.OnMoney == nil {
		return nil, err
	}
	return func(ctx context.Context) { q.s.OnMoney(ctx, accountID, balance) }, nil
}
