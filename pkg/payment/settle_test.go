package payment_test

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// The settle task resolves payments pending past 15 minutes by asking the bank: a
// paid one whose callback never came is credited, an abandoned one expires, and a
// callback arriving after either changes nothing.
func TestSettleAfterWindow(t *testing.T) {
	r := newRig(t)
	paid, abandoned, fresh := r.start(1_000_000), r.start(3_000_000), r.start(4_000_000)
	late := r.decide(paid, sandbox.Paid) // the payer paid; the browser never came back
	r.decide(fresh, sandbox.Paid)        // within the window: the settle task leaves it
	r.age(paid, true)
	r.age(abandoned, true)
	if n, _ := r.settle(); n != 2 {
		t.Fatalf("settled %d payments, want 2", n)
	}
	for st, want := range map[payment.Started]string{paid: payment.Paid, abandoned: payment.Expired, fresh: payment.Pending} {
		if p := r.get(st.PaymentID); p.State != want {
			t.Fatalf("payment of %d is %s, want %s", st.Amount, p.State, want)
		}
	}
	// Too late on the bank page: the bank refuses, its callback says NOK.
	afterExpiry := r.decide(abandoned, sandbox.Paid)
	r.callback(late)
	if p := r.callback(afterExpiry); p.State != payment.Expired || p.Message != payment.MsgExpired {
		t.Fatalf("a late callback moved the expired payment: %+v", p)
	}
	if n, _ := r.settle(); n != 0 {
		t.Fatalf("second settle resolved %d", n)
	}
	r.mustHold(1_000_000, 1)
}

// A payment the bank failed after taking the money is marked failed with its
// return due, then returned through the bank within the refund window; nothing
// reaches the wallet. Both ways: the settle task finds it, or the callback reports
// it (and returns it at once).
func TestTakenButFailedIsReturned(t *testing.T) {
	r := newRig(t)
	bySettle, byCallback := r.start(1_000_000), r.start(2_000_000)
	r.decide(bySettle, sandbox.Taken)
	if p := r.callback(r.decide(byCallback, sandbox.Taken)); p.State != payment.Failed || p.RefundState != "returned" {
		t.Fatalf("after the callback: %s/%s", p.State, p.RefundState)
	}
	r.age(bySettle, true)
	if settled, refunded := r.settle(); settled != 1 || refunded != 1 {
		t.Fatalf("settled %d, refunded %d; want 1 and 1", settled, refunded)
	}
	for _, st := range []payment.Started{bySettle, byCallback} {
		p := r.get(st.PaymentID)
		if p.State != payment.Failed || p.RefundState != "returned" || p.Message != payment.MsgFailed {
			t.Fatalf("payment %d: %+v", st.PaymentID, p)
		}
		var due, back time.Time
		if err := r.db.Pool.QueryRow(r.ctx, `SELECT refund_due_at, refunded_at FROM payments WHERE id = $1`,
			st.PaymentID).Scan(&due, &back); err != nil {
			t.Fatal(err)
		}
		s, err := r.bank.Inquire(r.ctx, r.authority(st))
		if err != nil || s.State != sandbox.Reversed || back.After(due) || due.Sub(back) > payment.RefundWindow {
			t.Fatalf("bank %s (%v), due %v, returned %v", s.State, err, due, back)
		}
	}
	if _, refunded := r.settle(); refunded != 0 {
		t.Fatalf("returned again: %d", refunded)
	}
	r.mustHold(0, 0)
}

// A payment past the window whose bank session is still open is not expired under
// the payer's feet: paying it then still credits it.
func TestSettleWaitsForOpenBankSession(t *testing.T) {
	r := newRig(t)
	st := r.start(1_000_000)
	r.age(st, false)
	if n, _ := r.settle(); n != 0 {
		t.Fatalf("settled %d while the bank session is open", n)
	}
	r.callback(r.decide(st, sandbox.Paid))
	r.mustHold(1_000_000, 1)
}

// A payment pending past the window and the grace after it, whose bank still calls
// it open, expires rather than waiting forever.
func TestSettleExpiresAfterGrace(t *testing.T) {
	r := newRig(t)
	st := r.start(1_000_000)
	if _, err := r.db.Pool.Exec(r.ctx, `UPDATE payments SET created_at = created_at - interval '21 minutes' WHERE id = $1`,
		st.PaymentID); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.settle(); n != 1 {
		t.Fatalf("settled %d, want the payment past its grace", n)
	}
	if p := r.get(st.PaymentID); p.State != payment.Expired {
		t.Fatalf("state %s", p.State)
	}
	r.mustHold(0, 0)
}
