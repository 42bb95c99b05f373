package payment

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/internal/platform/periodic"
	"github.com/chapar/chapar/pkg/wallet"
)

// expiryGrace is how long past PendingTimeout a payment the bank still calls open
// waits before it expires anyway.
const expiryGrace = 5 * time.Minute

// ErrNoPayment is a callback whose authority matches no payment of this gateway.
var ErrNoPayment = errors.New("payment: no payment for the callback")

// Callback handles the bank's redirect: it checks the signature and the amount,
// verifies server to server and settles the payment once. A forged, amount-changed
// or unknown callback returns an error and moves nothing; a replayed one returns
// the payment as it already is. Taken money of a payment that failed is returned
// at once (the settle task tries again when the bank does not answer).
func (s *Service) Callback(ctx context.Context, q url.Values) (Payment, error) {
	gw, q := s.gatewayOf(q)
	cb, err := gw.ParseCallback(q)
	if err != nil {
		return Payment{}, err
	}
	p, err := s.load(ctx, s.pool, `WHERE gateway = $1 AND authority = $2`, gw.Name(), cb.Authority)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, ErrNoPayment
	}
	if err != nil {
		return p, err
	}
	if cb.Amount != 0 && cb.Amount != p.Total {
		return p, fmt.Errorf("callback of payment %d says %d rials: %w", p.ID, cb.Amount, ErrAmountMismatch)
	}
	if p.State != Pending {
		return p, nil
	}
	if cb.Declined {
		return s.resolve(ctx, p.ID, Result{Outcome: OutcomeFailed}, false)
	}
	if err := s.bindTxn(ctx, &p, cb.Ref); err != nil {
		return p, err
	}
	res, err := gw.Verify(ctx, Txn{Authority: p.authority, Ref: p.txn}, p.Total)
	if err != nil {
		return p, fmt.Errorf("verify payment %d: %w", p.ID, err)
	}
	if p, err = s.resolve(ctx, p.ID, res, false); err != nil || p.RefundState != "due" {
		return p, err
	}
	if err := s.returnOne(ctx, p.ID); err != nil {
		logf(ctx, "payment return postponed to the settle task", "payment", p.ID, "err", err)
	}
	return s.load(ctx, s.pool, `WHERE id = $1`, p.ID)
}

// bindTxn records the bank transaction a callback names (SEP's RefNum) on its
// payment before it is verified, so the settle task can verify or return it when
// the verify call fails. One bank transaction belongs to one payment (a unique
// index), and a payment keeps the first transaction named.
func (s *Service) bindTxn(ctx context.Context, p *Payment, ref string) error {
	if ref == "" || p.txn == ref {
		return nil
	}
	if p.txn != "" {
		return fmt.Errorf("payment %d is bound to another bank transaction: %w", p.ID, ErrBadCallback)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE payments SET bank_txn = $2 WHERE id = $1 AND bank_txn = ''`, p.ID, ref)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return fmt.Errorf("bank transaction of payment %d is another payment's: %w", p.ID, ErrBadCallback)
	}
	if err != nil {
		return fmt.Errorf("record bank transaction: %w", err)
	}
	if tag.RowsAffected() == 0 { // a concurrent callback bound one first
		q, err := s.load(ctx, s.pool, `WHERE id = $1`, p.ID)
		if err != nil {
			return err
		}
		if q.txn != ref {
			return fmt.Errorf("payment %d is bound to another bank transaction: %w", p.ID, ErrBadCallback)
		}
	}
	p.txn = ref
	return nil
}

// resolve moves a pending payment to the bank's outcome under its row lock and,
// when paid, credits the wallet with a ledger entry keyed by the payment id. A
// payment no longer pending is returned as it is. expire turns a payment the bank
// still calls pending into an expired one.
func (s *Service) resolve(ctx context.Context, id int64, res Result, expire bool) (Payment, error) {
	var p Payment
	var balance int64
	credited, changed := false, false
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if p, err = s.load(ctx, tx, `WHERE id = $1 FOR UPDATE`, id); err != nil || p.State != Pending {
			return err
		}
		state, refund := outcomeState(res.Outcome, expire)
		if state == Pending {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE payments SET state = $2, bank_ref = $3, settled_at = now(), refund_state = $4,
			refund_due_at = CASE WHEN $4 = 'due' THEN now() + make_interval(secs => $5) END WHERE id = $1`,
			id, state, res.RefID, refund, RefundWindow.Seconds())
		if err != nil {
			return fmt.Errorf("settle payment: %w", err)
		}
		p.State, p.BankRef, p.RefundState, p.Message = state, res.RefID, refund, message(state)
		changed = true
		if state != Paid {
			return nil
		}
		balance, credited, err = creditPaid(ctx, tx, p)
		return err
	})
	if err != nil {
		return p, err
	}
	if credited && s.OnMoney != nil {
		s.OnMoney(ctx, p.accountID, balance)
	}
	if changed {
		logf(ctx, "payment settled", "payment", id, "state", p.State, "refund", p.RefundState)
	}
	return p, nil
}

// creditPaid credits a paid payment's amount (ref payment:<id>:credit), then its
// bonuses, each its own entry; it returns the last balance and whether anything moved.
func creditPaid(ctx context.Context, tx pgx.Tx, p Payment) (int64, bool, error) {
	balance, credited, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: p.accountID, Kind: wallet.Deposit,
		Amount: p.Amount, Ref: "payment:" + strconv.FormatInt(p.ID, 10) + ":credit", Description: "شارژ آنلاین کیف پول"})
	if err != nil {
		return 0, false, err
	}
	b, more, err := grantBonuses(ctx, tx, p)
	if more {
		balance, credited = b, true
	}
	return balance, credited, err
}

// outcomeState maps the bank's outcome to the payment's new state and refund state.
func outcomeState(o Outcome, expire bool) (state, refund string) {
	switch o {
	case OutcomePaid:
		return Paid, ""
	case OutcomeFailed:
		return Failed, ""
	case OutcomeTaken:
		return Failed, "due"
	case OutcomeExpired:
		return Expired, ""
	case OutcomePending, OutcomeOpen:
	}
	if expire {
		return Expired, ""
	}
	return Pending, ""
}

// Settle resolves the payments pending longer than PendingTimeout by asking the
// bank (verifying the ones it says were paid), then returns the taken money of
// failed payments. It returns how many payments it resolved and refunded.
func (s *Service) Settle(ctx context.Context) (settled, refunded int, err error) {
	ids, err := s.ids(ctx, `SELECT id FROM payments WHERE state = 'pending' AND gateway = ANY($1)
		AND created_at < now() - make_interval(secs => $2) ORDER BY id LIMIT 200`, s.Gateways(), s.PendingTimeout.Seconds())
	if err != nil {
		return 0, 0, err
	}
	var errs []error
	for _, id := range ids { // one bank error does not hold up the other payments
		ok, err := s.settleOne(ctx, id)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			settled++
		}
	}
	refunded, err = s.Refund(ctx)
	return settled, refunded, errors.Join(append(errs, err)...)
}

func (s *Service) settleOne(ctx context.Context, id int64) (bool, error) {
	p, err := s.load(ctx, s.pool, `WHERE id = $1`, id)
	if err != nil || p.State != Pending {
		return false, err
	}
	gw := s.gws[p.gateway]
	var res Result
	if p.authority != "" {
		t := Txn{Authority: p.authority, Ref: p.txn}
		if res, err = gw.Inquire(ctx, t); err == nil && res.Outcome == OutcomePending {
			res, err = gw.Verify(ctx, t, p.Total)
		}
		if err != nil {
			return false, fmt.Errorf("inquire payment %d: %w", id, err)
		}
	}
	// The bank's own session expiry decides; a bank that still calls an old payment
	// open after a grace period is not waited for any longer.
	expire := p.authority == "" || time.Since(p.CreatedAt) > s.PendingTimeout+expiryGrace
	p, err = s.resolve(ctx, id, res, expire)
	return err == nil && p.State != Pending, err
}

// Refund returns the taken money of failed payments to the payers through the
// bank and records the return; it returns how many it returned.
func (s *Service) Refund(ctx context.Context) (int, error) {
	ids, err := s.ids(ctx, `SELECT id FROM payments WHERE refund_state = 'due' AND gateway = ANY($1) ORDER BY id LIMIT 200`, s.Gateways())
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, id := range ids { // one bank error does not hold up the other returns
		if err := s.returnOne(ctx, id); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// returnOne reverses a failed payment's taken money at its bank and records the
// return; a payment already returned is left as it is.
func (s *Service) returnOne(ctx context.Context, id int64) error {
	p, err := s.load(ctx, s.pool, `WHERE id = $1`, id)
	if err != nil || p.RefundState != "due" {
		return err
	}
	if err := s.gws[p.gateway].Reverse(ctx, Txn{Authority: p.authority, Ref: p.txn}); err != nil {
		return fmt.Errorf("return payment %d: %w", id, err)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE payments SET refund_state = 'returned', refunded_at = now()
		WHERE id = $1 AND refund_state = 'due'`, id); err != nil {
		return fmt.Errorf("record return: %w", err)
	}
	logf(ctx, "payment returned", "payment", id)
	return nil
}

func (s *Service) ids(ctx context.Context, sql string, args ...any) ([]int64, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("payments due: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("payments due: %w", err)
	}
	return ids, nil
}

// RunSettle runs Settle every period until ctx ends.
func (s *Service) RunSettle(ctx context.Context, every time.Duration) {
	periodic.Every(ctx, every, every, func(ctx context.Context) {
		if n, r, err := s.Settle(ctx); err != nil {
			logf(ctx, "payment settle failed", "err", err)
		} else if n+r > 0 {
			logf(ctx, "payments settled", "settled", n, "refunded", r)
		}
	})
}
