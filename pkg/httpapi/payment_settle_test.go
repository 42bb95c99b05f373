package httpapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// settle runs the worker's settle task once.
func (p *payEnv) settle() (settled, refunded int) {
	p.t.Helper()
	s, r, err := p.Deps.Payments.Settle(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	return s, r
}

// The settle task resolves payments pending past 15 minutes by asking the bank: a
// paid one whose callback never came is credited, an abandoned one expires, and a
// callback arriving after either changes nothing.
func TestPaymentSettleAfterWindow(t *testing.T) {
	p := newPayEnv(t, "paysettle", "09121117004")
	paid, abandoned, fresh := p.start("1000000"), p.start("3000000"), p.start("4000000")
	late := p.bank(paid, "pay") // the payer paid; the browser never came back
	p.bank(fresh, "pay")        // within the window: the settle task leaves it
	p.age(paid)
	p.age(abandoned)
	if n, _ := p.settle(); n != 2 {
		t.Fatalf("settled %d payments, want 2", n)
	}
	if s, _ := p.state(paid.PaymentID); s != payment.Paid {
		t.Fatalf("paid payment is %s", s)
	}
	if s, _ := p.state(abandoned.PaymentID); s != payment.Expired {
		t.Fatalf("abandoned payment is %s", s)
	}
	if s, _ := p.state(fresh.PaymentID); s != payment.Pending {
		t.Fatalf("fresh payment is %s", s)
	}
	// Too late on the bank page: the bank refuses, its callback says NOK.
	afterExpiry := p.bank(abandoned, "pay")
	for _, loc := range []string{late, afterExpiry} {
		p.callback(loc)
	}
	if n, _ := p.settle(); n != 0 {
		t.Fatalf("second settle resolved %d", n)
	}
	if b, n := p.money(); b != 1_000_000 || n != 1 {
		t.Fatalf("balance %d in %d rows, want 1000000 in 1", b, n)
	}
	if s, _ := p.state(abandoned.PaymentID); s != payment.Expired {
		t.Fatalf("late callback moved the expired payment to %s", s)
	}
}

// A payment the bank failed after taking the money is marked failed with its
// return due, then returned through the bank; nothing reaches the wallet. Both
// ways: the settle task finds it, or the callback reports it.
func TestPaymentTakenButFailedIsReturned(t *testing.T) {
	p := newPayEnv(t, "paytaken", "09121117005")
	bySettle, byCallback := p.start("1000000"), p.start("2000000")
	p.bank(bySettle, "taken")
	to := p.callback(p.bank(byCallback, "taken"))
	if to != "/wallet/payment-result?id="+itoa(byCallback.PaymentID)+"&status=failed" {
		t.Fatalf("redirect %q", to)
	}
	if s, r := p.state(byCallback.PaymentID); s != payment.Failed || r != "due" {
		t.Fatalf("after callback: %s/%s", s, r)
	}
	p.age(bySettle)
	settled, refunded := p.settle()
	if settled != 1 || refunded != 2 {
		t.Fatalf("settled %d, refunded %d; want 1 and 2", settled, refunded)
	}
	ctx := context.Background()
	for _, st := range []payment.Started{bySettle, byCallback} {
		if s, r := p.state(st.PaymentID); s != payment.Failed || r != "returned" {
			t.Fatalf("payment %d: %s/%s", st.PaymentID, s, r)
		}
		var bankState string
		var due, back time.Time
		if err := p.DB.Pool.QueryRow(ctx, `SELECT b.state, p.refund_due_at, p.refunded_at FROM payments p
			JOIN sandbox_bank_payments b ON b.authority = p.authority WHERE p.id = $1`, st.PaymentID).Scan(&bankState, &due, &back); err != nil {
			t.Fatal(err)
		}
		if bankState != sandbox.Reversed || back.After(due) || due.Sub(back) > payment.RefundWindow {
			t.Fatalf("bank %s, due %v, returned %v", bankState, due, back)
		}
	}
	var got payment.Payment
	p.Must(200, "GET", "/v1/api/payment/online/"+itoa(bySettle.PaymentID), nil, p.token).Decode(t, &got)
	if got.Message != payment.MsgFailed {
		t.Fatalf("message %q", got.Message)
	}
	if b, n := p.money(); b != 0 || n != 0 {
		t.Fatalf("a failed payment reached the wallet: %d (%d rows)", b, n)
	}
}

// The minimum online payment is refused with the Persian message; the 10% tax is
// computed to the rial (half up); Persian digits are read; only the owner may pay.
func TestPaymentAmountTaxAndOwnerOnly(t *testing.T) {
	p := newPayEnv(t, "paymin", "09121117006")
	for _, amount := range []string{"999999", "0", "-5", "abc", ""} {
		r := p.Must(422, "GET", "/v1/api/payment/generate-url?amount="+url.QueryEscape(amount), nil, p.token)
		if r.Meta.Message != payment.MsgMinAmount {
			t.Fatalf("amount %q: message %q", amount, r.Meta.Message)
		}
	}
	for amount, tax := range map[string]int64{"۱۰۰۰۰۰۰": 100_000, "۲٬۰۰۰٬۰۰۰": 200_000, "1234567": 123_457, "1000005": 100_001, "1000004": 100_000} {
		st := p.start(amount)
		if st.Tax != tax || st.Total != st.Amount+tax {
			t.Fatalf("amount %s: %+v, want tax %d", amount, st, tax)
		}
	}
	r := p.Must(422, "GET", "/v1/api/payment/generate-url?amount=1000000&callbackUrl="+url.QueryEscape("javascript:alert(1)"), nil, p.token)
	if r.Meta.Errors["callbackUrl"] == nil {
		t.Fatalf("script return accepted: %s", r.Raw)
	}
	// Another site's address keeps only its path: the payer comes back to this origin.
	for _, foreign := range []string{"https://evil.example/wallet/payment-result", "//evil.example/wallet/payment-result"} {
		var st payment.Started
		p.Must(200, "GET", "/v1/api/payment/generate-url?amount=1000000&callbackUrl="+url.QueryEscape(foreign), nil, p.token).Decode(t, &st)
		if to := p.callback(p.bank(st, "cancel")); to != "/wallet/payment-result?id="+itoa(st.PaymentID)+"&status=failed" {
			t.Fatalf("return %q sent the payer to %q", foreign, to)
		}
	}
	colleague, _ := auditColleague(t, p.Env, p.acct, "paycolleague", "09121117007")
	r = p.Must(403, "GET", "/v1/api/payment/generate-url?amount=1000000", nil, colleague)
	if r.Meta.MessageCode != apperr.CodeForbidden {
		t.Fatalf("colleague: %s", r.Raw)
	}
	var count int
	if err := p.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM payments WHERE tax * 10 < amount - 5`).Scan(&count); err != nil || count != 0 {
		t.Fatalf("payments with a short tax: %d %v", count, err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A payment past the window whose bank session is still open is not expired under
// the payer's feet: paying it then still credits it.
func TestPaymentSettleWaitsForOpenBankSession(t *testing.T) {
	p := newPayEnv(t, "payopen", "09121117009")
	st := p.start("1000000")
	if _, err := p.DB.Pool.Exec(context.Background(), `UPDATE payments SET created_at = created_at - interval '16 minutes' WHERE id = $1`, st.PaymentID); err != nil {
		t.Fatal(err)
	}
	if n, _ := p.settle(); n != 0 {
		t.Fatalf("settled %d while the bank session is open", n)
	}
	p.callback(p.bank(st, "pay"))
	if b, _ := p.money(); b != 1_000_000 {
		t.Fatalf("balance %d", b)
	}
}
