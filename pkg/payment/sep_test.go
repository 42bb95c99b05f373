package payment_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/pspfake"
)

// A SEP payment is verified by its RefNum and credited once, however many times
// its form is posted back, even at once.
func TestSEPPaidCreditedOnce(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.sepGW)
	st := p.start(2_000_000)
	form := p.sepPay(st, true)
	if form.Get("State") != "OK" || form.Get("RefNum") == "" || form.Get(payment.GatewayParam) != p.sepGW.Name() {
		t.Fatalf("callback form %v", form)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := p.svc.Callback(p.ctx, form); err != nil || got.State != payment.Paid {
				t.Errorf("callback: %+v %v", got, err)
			}
		}()
	}
	wg.Wait()
	if got := p.get(st.PaymentID); got.BankRef != form.Get("RRN") {
		t.Fatalf("bank reference %q, want the RRN %q", got.BankRef, form.Get("RRN"))
	}
	if s := p.sep.State(p.sepToken(st)); s != pspfake.SEPVerified {
		t.Fatalf("bank state %s", s)
	}
	p.mustHold(2_000_000, 1)
}

// A callback whose verify failed or timed out keeps its RefNum: the settle task
// verifies it later and credits it once; when the bank by then finds the amount
// wrong, the settle task returns the money instead.
func TestSEPCallbackNeverVerifiedSettled(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.sepGW)
	failed, slow, wrong := p.start(1_000_000), p.start(3_000_000), p.start(5_000_000)
	p.sep.SetFaults(pspfake.Faults{VerifyFail: true})
	for _, st := range []payment.Started{failed, wrong} {
		if _, err := p.svc.Callback(p.ctx, p.sepPay(st, true)); err == nil {
			t.Fatal("a failed verify was accepted")
		}
	}
	p.sep.SetFaults(pspfake.Faults{Slow: true})
	p.client.Timeout = 200 * time.Millisecond
	if _, err := p.svc.Callback(p.ctx, p.sepPay(slow, true)); err == nil {
		t.Fatal("a verify that never answered was accepted")
	}
	p.sep.SetFaults(pspfake.Faults{})
	p.client.Timeout = 30 * time.Second
	if _, err := p.db.Pool.Exec(p.ctx, `UPDATE payments SET total = total + 1000, tax = tax + 1000 WHERE id = $1`, wrong.PaymentID); err != nil {
		t.Fatal(err)
	}
	for _, st := range []payment.Started{failed, slow, wrong} {
		p.age(st, false)
	}
	if settled, refunded := p.settle(); settled != 3 || refunded != 1 {
		t.Fatalf("settled %d, refunded %d; want 3 and 1", settled, refunded)
	}
	if s, r := p.state(wrong); s != payment.Failed || r != "returned" || p.sep.State(p.sepToken(wrong)) != pspfake.SEPReversed {
		t.Fatalf("wrong amount: %s/%s, bank %s", s, r, p.sep.State(p.sepToken(wrong)))
	}
	p.mustHold(4_000_000, 2)
}

// A SEP payment without any callback cannot be asked about (SEP returns money it
// never verified): the settle task waits, then expires it after the grace period.
func TestSEPNoCallbackExpires(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.sepGW)
	st := p.start(1_000_000)
	p.age(st, false)
	if n, _ := p.settle(); n != 0 {
		t.Fatalf("settled %d within the grace", n)
	}
	if _, err := p.db.Pool.Exec(p.ctx, `UPDATE payments SET created_at = created_at - interval '10 minutes' WHERE id = $1`, st.PaymentID); err != nil {
		t.Fatal(err)
	}
	if n, _ := p.settle(); n != 1 {
		t.Fatalf("settled %d past the grace", n)
	}
	if s, _ := p.state(st); s != payment.Expired {
		t.Fatalf("state %s", s)
	}
}

// Forged SEP forms move nothing: another payment's RefNum, a changed amount, a
// second RefNum for a payment already bound to one, an unknown ResNum.
func TestSEPForgedCallbacks(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.sepGW)
	a, b := p.start(1_000_000), p.start(1_000_000)
	formA := p.sepPay(a, true)
	p.callback(formA)
	formB := p.sepPay(b, true)
	cases := map[string]struct {
		form map[string]string
		want error
	}{
		"another payment's RefNum": {map[string]string{"RefNum": formA.Get("RefNum")}, payment.ErrBadCallback},
		"changed amount":           {map[string]string{"Amount": "100000000"}, payment.ErrAmountMismatch},
		"no RefNum":                {map[string]string{"RefNum": ""}, payment.ErrBadCallback},
		"unknown ResNum":           {map[string]string{"ResNum": "Cnope"}, payment.ErrNoPayment},
	}
	for name, c := range cases {
		f := formB
		for k, v := range c.form {
			f = with(f, k, v)
		}
		if _, err := p.svc.Callback(p.ctx, f); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if s, _ := p.state(b); s != payment.Pending {
		t.Fatalf("payment b is %s after forged forms", s)
	}
	p.callback(formB)
	if _, err := p.svc.Callback(p.ctx, with(formB, "RefNum", "0000")); err != nil {
		t.Fatalf("a paid payment answers a replay as it is: %v", err)
	}
	p.mustHold(2_000_000, 2)
}

// One settle run covers every gateway: a Zarinpal and a SEP payment whose
// callbacks never settled them, and a sandbox one.
func TestSettleCoversEveryGateway(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	zp := p.start(1_000_000)
	p.zpPay(zp, true)
	p.use(p.sepGW)
	sep := p.start(2_000_000)
	p.sep.SetFaults(pspfake.Faults{VerifyFail: true})
	if _, err := p.svc.Callback(p.ctx, p.sepPay(sep, true)); err == nil {
		t.Fatal("a failed verify was accepted")
	}
	p.sep.SetFaults(pspfake.Faults{})
	p.svc.Choose = nil
	sb := p.start(4_000_000)
	p.decide(sb, "paid")
	for _, st := range []payment.Started{zp, sep, sb} {
		p.age(st, true)
	}
	if n, _ := p.settle(); n != 3 {
		t.Fatalf("settled %d, want 3", n)
	}
	p.mustHold(7_000_000, 3)
}

// A payment cancelled at the bank fails and credits nothing: Zarinpal's NOK is
// verified (-51), SEP's State other than OK is final without a verify call.
func TestCancelledFails(t *testing.T) {
	p := newPSPRig(t)
	for _, b := range p.banks() {
		p.use(b.gw)
		if got := p.callback(b.pay(p.start(1_000_000), false)); got.State != payment.Failed || got.RefundState != "" {
			t.Fatalf("%s: cancelled: %+v", b.name, got)
		}
	}
	if n := p.sep.Calls("/verifyTxnRandomSessionkey/ipg/VerifyTransaction"); n != 0 {
		t.Fatalf("verified a cancelled SEP payment %d times", n)
	}
	p.mustHold(0, 0)
}

// A payment the bank holds at another amount (Zarinpal's verify answers -50, SEP's
// answers other amounts) is not credited: it fails and is reversed at once.
func TestWrongAmountReversed(t *testing.T) {
	p := newPSPRig(t)
	for _, b := range p.banks() {
		p.use(b.gw)
		b.faults(pspfake.Faults{WrongAmount: true})
		st := p.start(1_000_000)
		if got := p.callback(b.pay(st, true)); got.State != payment.Failed || got.RefundState != "returned" {
			t.Fatalf("%s: wrong amount: %+v", b.name, got)
		}
		if s := b.state(st); s != b.reversed {
			t.Fatalf("%s: bank state %s", b.name, s)
		}
	}
	p.mustHold(0, 0)
}

// A return the bank refuses at first (the reverse call fails) stays due; the settle
// task reverses it on its next run, once, and nothing is ever credited.
func TestFailedReverseRetriedBySettle(t *testing.T) {
	p := newPSPRig(t)
	var started []payment.Started
	for _, b := range p.banks() {
		p.use(b.gw)
		b.faults(pspfake.Faults{WrongAmount: true, ReverseFail: true})
		st := p.start(1_000_000)
		if got := p.callback(b.pay(st, true)); got.State != payment.Failed || got.RefundState != "due" {
			t.Fatalf("%s: a refused reverse: %+v", b.name, got)
		}
		b.faults(pspfake.Faults{})
		started = append(started, st)
	}
	if _, refunded := p.settle(); refunded != 2 {
		t.Fatalf("returned %d, want 2", refunded)
	}
	for i, b := range p.banks() {
		if s, r := p.state(started[i]); s != payment.Failed || r != "returned" || b.state(started[i]) != b.reversed {
			t.Fatalf("%s: %s/%s, bank %s", b.name, s, r, b.state(started[i]))
		}
	}
	if _, refunded := p.settle(); refunded != 0 {
		t.Fatalf("returned again: %d", refunded)
	}
	p.mustHold(0, 0)
}
