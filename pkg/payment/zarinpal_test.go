package payment_test

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/pspfake"
)

// A Zarinpal payment paid at StartPay is verified with the amount and credited
// once; the same callback again (a reload) verifies nothing more and credits
// nothing more.
func TestZarinpalPaidCreditedOnce(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	st := p.start(2_000_000)
	q := p.zpPay(st, true)
	if q.Get("Status") != "OK" || q.Get(payment.GatewayParam) != p.zpGW.Name() {
		t.Fatalf("callback %v", q)
	}
	got := p.callback(q)
	if got.State != payment.Paid || got.BankRef == "" || got.BankRef == "0" {
		t.Fatalf("paid: %+v", got)
	}
	for range 2 {
		if again := p.callback(q); again.State != payment.Paid || again.BankRef != got.BankRef {
			t.Fatalf("second callback: %+v", again)
		}
	}
	if n := p.zp.Calls("/pg/v4/payment/verify.json"); n != 1 {
		t.Fatalf("verified %d times", n)
	}
	if s := p.zp.Status(p.zpAuthority(st)); s != pspfake.ZPVerified {
		t.Fatalf("bank status %s", s)
	}
	p.mustHold(2_000_000, 1)
}

// A verify call that fails (-52) or never answers (time-out) leaves the payment
// pending; the settle task verifies it later and credits it once.
func TestZarinpalVerifyFailureSettledLater(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	failed, slow := p.start(1_000_000), p.start(3_000_000)
	p.zp.SetFaults(pspfake.Faults{VerifyFail: true})
	if _, err := p.svc.Callback(p.ctx, p.zpPay(failed, true)); err == nil {
		t.Fatal("a failed verify was accepted")
	}
	p.zp.SetFaults(pspfake.Faults{Slow: true})
	p.client.Timeout = 200 * time.Millisecond
	if _, err := p.svc.Callback(p.ctx, p.zpPay(slow, true)); err == nil {
		t.Fatal("a verify that never answered was accepted")
	}
	for _, st := range []payment.Started{failed, slow} {
		if s, _ := p.state(st); s != payment.Pending {
			t.Fatalf("payment %d is %s after the failed verify", st.PaymentID, s)
		}
	}
	p.zp.SetFaults(pspfake.Faults{})
	p.client.Timeout = 30 * time.Second
	p.age(failed, false)
	p.age(slow, false)
	if n, _ := p.settle(); n != 2 {
		t.Fatalf("settled %d, want 2", n)
	}
	p.mustHold(4_000_000, 2)
}

// A Zarinpal that does not answer the payment request leaves nothing to pay: the
// payer is told the gateway is down (503) and the payment is failed.
func TestZarinpalRequestTimeout(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	p.zp.SetFaults(pspfake.Faults{Slow: true})
	p.client.Timeout = 200 * time.Millisecond
	_, err := p.svc.Start(p.ctx, payment.Request{AccountID: p.acct, Amount: 1_000_000})
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Unavailable || e.Message != payment.MsgGatewayDown {
		t.Fatalf("start against a silent bank: %v", err)
	}
	var state string
	if err := p.db.Pool.QueryRow(p.ctx, `SELECT state FROM payments WHERE account_id = $1`, p.acct).Scan(&state); err != nil || state != payment.Failed {
		t.Fatalf("payment %s (%v)", state, err)
	}
}

// The settle task finds a Zarinpal payment whose callback never came: paid ones
// are verified and credited; one still at the bank (IN_BANK) waits, then expires
// after the grace period.
func TestZarinpalSettleWithoutCallback(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	paid, open := p.start(1_000_000), p.start(2_000_000)
	p.zpPay(paid, true) // the browser never came back
	p.age(paid, false)
	p.age(open, false)
	if n, _ := p.settle(); n != 1 {
		t.Fatalf("settled %d, want the paid one", n)
	}
	if s, _ := p.state(open); s != payment.Pending {
		t.Fatalf("a payment still at the bank is %s", s)
	}
	if _, err := p.db.Pool.Exec(p.ctx, `UPDATE payments SET created_at = created_at - interval '10 minutes' WHERE id = $1`, open.PaymentID); err != nil {
		t.Fatal(err)
	}
	if n, _ := p.settle(); n != 1 {
		t.Fatalf("settled %d, want the one past its grace", n)
	}
	if s, _ := p.state(open); s != payment.Expired {
		t.Fatalf("past the grace: %s", s)
	}
	p.mustHold(1_000_000, 1)
}

// Zarinpal's codes map to Persian messages, an unknown one names its code.
func TestZarinpalErrorMessages(t *testing.T) {
	for code, want := range map[int]string{-9: "اطلاعات ارسالی به زرین‌پال معتبر نیست (مرچنت کد، مبلغ، آدرس بازگشت یا توضیحات)",
		-50: "مبلغ پرداخت‌شده با مبلغ تراکنش برابر نیست", -99: "خطای درگاه زرین‌پال (کد -99)"} {
		var pe *payment.PSPError
		if err := error(payment.ZarinpalError(code)); !errors.As(err, &pe) || pe.Message != want || pe.Code != code {
			t.Fatalf("code %d: %v", code, err)
		}
	}
}

// A callback address Zarinpal extended with a second «?» instead of «&» still
// reaches the payment.
func TestZarinpalCallbackWithSecondQuestionMark(t *testing.T) {
	p := newPSPRig(t)
	p.use(p.zpGW)
	st := p.start(1_000_000)
	q := p.zpPay(st, true)
	odd := url.Values{payment.GatewayParam: {q.Get(payment.GatewayParam) + "?" + url.Values{"Authority": {q.Get("Authority")}, "Status": {"OK"}}.Encode()}}
	if got := p.callback(odd); got.State != payment.Paid {
		t.Fatalf("paid: %+v", got)
	}
	p.mustHold(1_000_000, 1)
}
