package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// payEnv is an API with a logged-in owner who pays online.
type payEnv struct {
	*apitest.Env
	t     *testing.T
	token string
	acct  int64
}

func newPayEnv(t *testing.T, username, mobile string) *payEnv {
	t.Helper()
	e := apitest.Start(t, nil)
	e.Register(username, pw, mobile)
	p := &payEnv{Env: e, t: t, token: e.Login(username, pw)}
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT account_id FROM users WHERE username = $1`, username).Scan(&p.acct); err != nil {
		t.Fatal(err)
	}
	return p
}

// start asks for a payment link of amount rials.
func (p *payEnv) start(amount string) payment.Started {
	p.t.Helper()
	var st payment.Started
	p.Must(200, "GET", "/v1/api/payment/generate-url?"+url.Values{"amount": {amount},
		"callbackUrl": {"http://panel.example/wallet/payment-result"}, "description": {"شارژ"}}.Encode(), nil, p.token).Decode(p.t, &st)
	return st
}

// noFollow answers a request without following its redirect and returns Location.
func (p *payEnv) noFollow(method, path string, form url.Values) (int, string) {
	p.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var res *http.Response
	var err error
	if method == http.MethodPost {
		res, err = c.PostForm(p.URL+path, form)
	} else {
		res, err = c.Get(p.URL + path)
	}
	if err != nil {
		p.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

// bank chooses on the sandbox bank page and returns the signed callback it redirects to.
func (p *payEnv) bank(st payment.Started, action string) string {
	p.t.Helper()
	code, loc := p.noFollow(http.MethodPost, st.URL, url.Values{"action": {action}})
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, payment.CallbackPath+"?") {
		p.t.Fatalf("bank %s: %d %q", action, code, loc)
	}
	return loc
}

// callback delivers a bank callback and returns where the payer is sent.
func (p *payEnv) callback(loc string) string {
	p.t.Helper()
	code, to := p.noFollow(http.MethodGet, loc, nil)
	if code != http.StatusSeeOther {
		p.t.Fatalf("callback: %d", code)
	}
	return to
}

// money is the wallet balance and the number of ledger rows of the account.
func (p *payEnv) money() (balance, rows int64) {
	p.t.Helper()
	if err := p.DB.Pool.QueryRow(context.Background(), `SELECT coalesce((SELECT balance FROM wallets WHERE account_id = $1), 0),
		(SELECT count(*) FROM ledger WHERE account_id = $1)`, p.acct).Scan(&balance, &rows); err != nil {
		p.t.Fatal(err)
	}
	return balance, rows
}

func (p *payEnv) state(id int64) (state, refund string) {
	p.t.Helper()
	if err := p.DB.Pool.QueryRow(context.Background(), `SELECT state, refund_state FROM payments WHERE id = $1`, id).Scan(&state, &refund); err != nil {
		p.t.Fatal(err)
	}
	return state, refund
}

// age moves a payment and its bank session past the pending window.
func (p *payEnv) age(st payment.Started) {
	p.t.Helper()
	ctx := context.Background()
	for _, q := range []string{`UPDATE payments SET created_at = created_at - interval '16 minutes' WHERE id = $1`,
		`UPDATE sandbox_bank_payments SET created_at = created_at - interval '16 minutes' WHERE authority = (SELECT authority FROM payments WHERE id = $1)`} {
		if _, err := p.DB.Pool.Exec(ctx, q, st.PaymentID); err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *payEnv) bankOf() *sandbox.Bank {
	return p.Deps.Payments.Gateway().(payment.SandboxGateway).Bank
}

// A payment through the bank page credits the amount (not the tax) once; the same
// callback again credits nothing.
func TestPaymentCreditedOnceAndReplay(t *testing.T) {
	p := newPayEnv(t, "payonce", "09121117001")
	st := p.start("2000000")
	if st.Tax != 200_000 || st.Total != 2_200_000 || !strings.HasPrefix(st.URL, sandbox.PathPrefix) {
		t.Fatalf("started %+v", st)
	}
	loc := p.bank(st, "pay")
	to := p.callback(loc)
	want := "/wallet/payment-result?amount=2000000&id=" + strconv.FormatInt(st.PaymentID, 10) + "&status=paid"
	if to != want {
		t.Fatalf("redirect %q, want %q", to, want)
	}
	for range 3 {
		p.callback(loc)
	}
	if b, n := p.money(); b != 2_000_000 || n != 1 {
		t.Fatalf("balance %d with %d ledger rows, want 2000000 in 1", b, n)
	}
	var got payment.Payment
	p.Must(200, "GET", "/v1/api/payment/online/"+strconv.FormatInt(st.PaymentID, 10), nil, p.token).Decode(t, &got)
	if got.State != payment.Paid || got.Message != payment.MsgPaid || got.BankRef == "" {
		t.Fatalf("payment %+v", got)
	}
}

// Forged callbacks credit nothing: a bad signature, a changed amount, and a
// correctly signed callback of another amount. The real one still works after.
func TestPaymentForgedCallback(t *testing.T) {
	p := newPayEnv(t, "payforge", "09121117002")
	st := p.start("1000000")
	loc := p.bank(st, "pay")
	u, _ := url.Parse(loc)
	q := u.Query()
	bad := url.Values{}
	for k, v := range q {
		bad[k] = v
	}
	bad.Set("Sign", strings.Repeat("0", 64))
	changed := url.Values{}
	for k, v := range q {
		changed[k] = v
	}
	changed.Set("Amount", "100000000")
	s, err := p.bankOf().Inquire(context.Background(), q.Get("Authority"))
	if err != nil {
		t.Fatal(err)
	}
	s.Amount = 100_000_000
	otherAmount := p.bankOf().CallbackURL(s)
	for _, forged := range []string{payment.CallbackPath + "?" + bad.Encode(), payment.CallbackPath + "?" + changed.Encode(), otherAmount,
		payment.CallbackPath + "?Authority=nope&Status=OK&Amount=1100000&Sign=x"} {
		if to := p.callback(forged); to != "/wallet/payment-result?status=invalid" {
			t.Fatalf("forged callback sent to %q", to)
		}
	}
	if b, n := p.money(); b != 0 || n != 0 {
		t.Fatalf("forged callbacks credited %d (%d rows)", b, n)
	}
	if s, _ := p.state(st.PaymentID); s != payment.Pending {
		t.Fatalf("state %s after forged callbacks", s)
	}
	p.callback(loc)
	if b, _ := p.money(); b != 1_000_000 {
		t.Fatalf("balance %d after the real callback", b)
	}
}

// Fifty callbacks of one payment at once credit it exactly once.
func TestPaymentConcurrentCallbacks(t *testing.T) {
	p := newPayEnv(t, "payrace", "09121117003")
	st := p.start("1500000")
	loc := p.bank(st, "pay")
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			if res, err := c.Get(p.URL + loc); err == nil {
				res.Body.Close()
			}
		}()
	}
	wg.Wait()
	if b, n := p.money(); b != 1_500_000 || n != 1 {
		t.Fatalf("balance %d in %d rows, want 1500000 in 1", b, n)
	}
}

// The sandbox bank's page is a Persian RTL HTML form without scripts under the
// product's CSP; a decided session shows no form; an unknown one is 404.
func TestSandboxBankPage(t *testing.T) {
	p := newPayEnv(t, "paypage", "09121117008")
	st := p.start("1000000")
	get := func(path string) (int, string, http.Header) {
		res, err := http.Get(p.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	code, body, h := get(st.URL)
	if code != 200 || !strings.Contains(body, `dir="rtl"`) || !strings.Contains(body, "۱٬۱۰۰٬۰۰۰ ریال") ||
		!strings.Contains(body, `method="post"`) || strings.Contains(body, "<script") {
		t.Fatalf("bank page %d:\n%s", code, body)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("headers %v", h)
	}
	p.bank(st, "pay")
	if _, body, _ := get(st.URL); strings.Contains(body, "<form") {
		t.Fatal("a paid session still offers the form")
	}
	if code, _, _ := get(sandbox.PathPrefix + "Anope"); code != 404 {
		t.Fatalf("unknown session: %d", code)
	}
}
