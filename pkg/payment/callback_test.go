package payment_test

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// A paid payment credits its amount (not the tax) once, as one deposit keyed by the
// payment; the same callback again returns the payment as it is and credits nothing.
func TestPaidCreditedOnceOnReplay(t *testing.T) {
	r := newRig(t)
	st := r.start(2_000_000)
	if st.Tax != 200_000 || st.Total != 2_200_000 || !strings.HasPrefix(st.URL, sandbox.PathPrefix) {
		t.Fatalf("started %+v", st)
	}
	q := r.decide(st, sandbox.Paid)
	p := r.callback(q)
	id := strconv.FormatInt(st.PaymentID, 10)
	if p.State != payment.Paid || p.Message != payment.MsgPaid || p.BankRef == "" ||
		p.Return() != payment.DefaultReturn+"?amount=2000000&id="+id+"&status=paid" {
		t.Fatalf("paid: %+v, return %q", p, p.Return())
	}
	for range 3 {
		if again := r.callback(q); again.State != payment.Paid || again.BankRef != p.BankRef {
			t.Fatalf("replayed callback: %+v", again)
		}
	}
	if b, l := r.wallet(); b != 2_000_000 || len(l) != 1 || l[0] != (ledgerRow{kind: "deposit", ref: "payment:" + id + ":credit", amount: 2_000_000}) {
		t.Fatalf("balance %d, ledger %+v", b, l)
	}
	if got := r.get(st.PaymentID); got.State != payment.Paid || got.BankRef != p.BankRef || got.Total != 2_200_000 {
		t.Fatalf("read back %+v", got)
	}
	if _, err := r.svc.Get(r.ctx, r.account("other"), st.PaymentID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another account reads the payment: %v", err)
	}
}

// Fifty callbacks of one payment at once credit it exactly once.
func TestConcurrentCallbacksCreditOnce(t *testing.T) {
	r := newRig(t)
	st := r.start(1_500_000)
	q := r.decide(st, sandbox.Paid)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.svc.Callback(r.ctx, q); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("callback: %v", err)
	}
	r.mustHold(1_500_000, 1)
}

// Forged callbacks move nothing: a bad signature, a changed amount, a correctly
// signed callback of another amount and a signed one of an unknown session. The
// real one still works after them.
func TestForgedCallbacksMoveNothing(t *testing.T) {
	r := newRig(t)
	st := r.start(1_000_000)
	real := r.decide(st, sandbox.Paid)
	session, err := r.bank.Inquire(r.ctx, r.authority(st))
	if err != nil {
		t.Fatal(err)
	}
	session.Amount = 100_000_000
	unknown := sandbox.Session{Authority: "Anope", Amount: st.Total, State: sandbox.Paid, Callback: payment.CallbackPath}
	forged := map[string]struct {
		q    url.Values
		want error
	}{
		"bad signature":   {with(real, "Sign", strings.Repeat("0", 64)), payment.ErrBadCallback},
		"changed amount":  {with(real, "Amount", "100000000"), payment.ErrBadCallback},
		"unsigned":        {url.Values{"Authority": {"nope"}, "Status": {"OK"}, "Amount": {"1100000"}, "Sign": {"x"}}, payment.ErrBadCallback},
		"another amount":  {callbackQuery(t, r.bank.CallbackURL(session)), payment.ErrAmountMismatch},
		"unknown session": {callbackQuery(t, r.bank.CallbackURL(unknown)), payment.ErrNoPayment},
	}
	for name, f := range forged {
		if _, err := r.svc.Callback(r.ctx, f.q); !errors.Is(err, f.want) {
			t.Errorf("%s: %v, want %v", name, err, f.want)
		}
	}
	r.mustHold(0, 0)
	if p := r.get(st.PaymentID); p.State != payment.Pending {
		t.Fatalf("state %s after forged callbacks", p.State)
	}
	r.callback(real)
	r.mustHold(1_000_000, 1)
}

// with is a copy of q with key set to v.
func with(q url.Values, key, v string) url.Values {
	out := url.Values{}
	for k, vs := range q {
		out[k] = append([]string(nil), vs...)
	}
	out.Set(key, v)
	return out
}

// A failed or canceled payment is failed with nothing to return and nothing
// credited; one whose money the bank took is failed and returned at once.
func TestFailedPaymentsNotCredited(t *testing.T) {
	r := newRig(t)
	for choice, refund := range map[string]string{sandbox.Failed: "", sandbox.Canceled: "", sandbox.Taken: "returned"} {
		st := r.start(1_000_000)
		p := r.callback(r.decide(st, choice))
		want := payment.DefaultReturn + "?id=" + strconv.FormatInt(st.PaymentID, 10) + "&status=failed"
		if p.State != payment.Failed || p.RefundState != refund || p.Message != payment.MsgFailed || p.Return() != want {
			t.Fatalf("%s: %+v, return %q", choice, p, p.Return())
		}
	}
	r.mustHold(0, 0)
}

// The minimum and maximum amounts, the description's length and a return address
// that is not a page of this origin are refused with their fields; the 10% tax is
// computed to the rial (half up); another site's address keeps only its path.
func TestStartChecksAmountTaxAndReturn(t *testing.T) {
	r := newRig(t)
	refused := []struct {
		field string
		req   payment.Request
	}{
		{"amount", payment.Request{Amount: 0}},
		{"amount", payment.Request{Amount: payment.MinAmount - 1}},
		{"amount", payment.Request{Amount: payment.MaxAmount + 1}},
		{"description", payment.Request{Amount: payment.MinAmount, Description: strings.Repeat("ت", 256)}},
		{"callbackUrl", payment.Request{Amount: payment.MinAmount, ReturnTo: "javascript:alert(1)"}},
	}
	for _, c := range refused {
		c.req.AccountID = r.acct
		if _, err := r.svc.Start(r.ctx, c.req); !hasField(err, c.field, "") {
			t.Fatalf("%s %+v: %v", c.field, c.req, err)
		}
	}
	_, err := r.svc.Start(r.ctx, payment.Request{AccountID: r.acct, Amount: payment.MinAmount - 1})
	if !hasField(err, "amount", payment.MsgMinAmount) {
		t.Fatalf("below the minimum: %v", err)
	}
	for amount, tax := range map[int64]int64{1_000_000: 100_000, 2_000_000: 200_000, 1_234_567: 123_457, 1_000_005: 100_001, 1_000_004: 100_000} {
		if st := r.start(amount); st.Tax != tax || st.Total != amount+tax || st.Amount != amount {
			t.Fatalf("amount %d: %+v, want tax %d", amount, st, tax)
		}
	}
	for _, foreign := range []string{"https://evil.example/wallet/payment-result", "//evil.example/wallet/payment-result"} {
		st, err := r.svc.Start(r.ctx, payment.Request{AccountID: r.acct, Amount: payment.MinAmount, ReturnTo: foreign})
		if err != nil {
			t.Fatal(err)
		}
		p := r.callback(r.decide(st, sandbox.Canceled))
		if to := p.Return(); to != "/wallet/payment-result?id="+strconv.FormatInt(st.PaymentID, 10)+"&status=failed" {
			t.Fatalf("return %q sends the payer to %q", foreign, to)
		}
	}
}

// hasField reports whether err is a validation error of field, with message msg
// when msg is not empty.
func hasField(err error, field, msg string) bool {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid || len(e.Fields[field]) == 0 {
		return false
	}
	return msg == "" || e.Fields[field][0] == msg
}
