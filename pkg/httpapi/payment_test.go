package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/apperr"
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

// The payment routes' contract: the link is created (200, the amounts and the bank
// page); the bank page sends the browser to the callback, which sends it on (303)
// to the panel's result page of the payment, or of an invalid payment when the
// callback does not check out; the payment reads back. What the payment does with
// the money is pkg/payment's tests.
func TestPaymentCallbackRedirects(t *testing.T) {
	p := newPayEnv(t, "payonce", "09121117001")
	st := p.start("2000000")
	if st.Tax != 200_000 || st.Total != 2_200_000 || !strings.HasPrefix(st.URL, sandbox.PathPrefix) {
		t.Fatalf("started %+v", st)
	}
	loc := p.bank(st, "pay")
	u, _ := url.Parse(loc)
	forged := u.Query()
	forged.Set("Sign", strings.Repeat("0", 64))
	if to := p.callback(payment.CallbackPath + "?" + forged.Encode()); to != "/wallet/payment-result?status=invalid" {
		t.Fatalf("forged callback sent to %q", to)
	}
	want := "/wallet/payment-result?amount=2000000&id=" + itoa(st.PaymentID) + "&status=paid"
	if to := p.callback(loc); to != want {
		t.Fatalf("redirect %q, want %q", to, want)
	}
	var got payment.Payment
	p.Must(200, "GET", "/v1/api/payment/online/"+itoa(st.PaymentID), nil, p.token).Decode(t, &got)
	if got.State != payment.Paid || got.Message != payment.MsgPaid || got.BankRef == "" {
		t.Fatalf("payment %+v", got)
	}
	p.Must(404, "GET", "/v1/api/payment/online/999999", nil, p.token)
}

// The amount is read from the query with Persian digits and separators, and one
// that is not a number is refused with the minimum's Persian message (422); a
// refused return address names its field; only the owner may pay (403).
func TestPaymentURLAmountAndOwnerOnly(t *testing.T) {
	p := newPayEnv(t, "paymin", "09121117006")
	for _, amount := range []string{"999999", "0", "-5", "abc", ""} {
		r := p.Must(422, "GET", "/v1/api/payment/generate-url?amount="+url.QueryEscape(amount), nil, p.token)
		if r.Meta.Message != payment.MsgMinAmount {
			t.Fatalf("amount %q: message %q", amount, r.Meta.Message)
		}
	}
	for amount, tax := range map[string]int64{"۱۰۰۰۰۰۰": 100_000, "۲٬۰۰۰٬۰۰۰": 200_000, "1,234,567": 123_457} {
		st := p.start(amount)
		if st.Tax != tax || st.Total != st.Amount+tax {
			t.Fatalf("amount %s: %+v, want tax %d", amount, st, tax)
		}
	}
	r := p.Must(422, "GET", "/v1/api/payment/generate-url?amount=1000000&callbackUrl="+url.QueryEscape("javascript:alert(1)"), nil, p.token)
	if r.Meta.Errors["callbackUrl"] == nil {
		t.Fatalf("script return accepted: %s", r.Raw)
	}
	colleague, _ := auditColleague(t, p.Env, p.acct, "paycolleague", "09121117007")
	r = p.Must(403, "GET", "/v1/api/payment/generate-url?amount=1000000", nil, colleague)
	if r.Meta.MessageCode != apperr.CodeForbidden {
		t.Fatalf("colleague: %s", r.Raw)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

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
