package payment_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/pspfake"
)

// Test credentials of the fake banks.
const (
	testMerchant = "0b7e3a52-9c1d-4f6e-8a2b-5d4c3b2a1f00"
	testTerminal = "13579246"
)

// pspRig is the payment service with the fake Zarinpal and SEP beside the sandbox
// bank, each under a name of the test's own.
type pspRig struct {
	*rig
	zp     *pspfake.Zarinpal
	sep    *pspfake.SEP
	zpGW   payment.Zarinpal
	sepGW  payment.SEP
	client *http.Client
}

func newPSPRig(t *testing.T) *pspRig {
	t.Helper()
	p := &pspRig{rig: newRig(t), zp: pspfake.NewZarinpal(testMerchant), sep: pspfake.NewSEP(testTerminal),
		client: &http.Client{Timeout: 30 * time.Second}}
	zs, ss := httptest.NewServer(p.zp), httptest.NewServer(p.sep)
	t.Cleanup(ss.Close)
	t.Cleanup(zs.Close)
	p.zpGW = payment.Zarinpal{BaseURL: zs.URL, Merchant: fixed(testMerchant), Client: p.client, Label: "zarinpal " + t.Name()}
	p.sepGW = payment.SEP{BaseURL: ss.URL, Terminal: fixed(testTerminal), Client: p.client, Label: "sep " + t.Name()}
	p.svc.Add(p.zpGW)
	p.svc.Add(p.sepGW)
	return p
}

// fixed is a credential source answering v.
func fixed(v string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return v, nil }
}

// use sends new payments to gw.
func (p *pspRig) use(gw payment.Gateway) {
	p.svc.Choose = func(context.Context) (string, error) { return gw.Name(), nil }
}

// zpAuthority is the Zarinpal authority of a started payment, from its StartPay URL.
func (p *pspRig) zpAuthority(st payment.Started) string {
	p.t.Helper()
	_, a, ok := strings.Cut(st.URL, "/pg/StartPay/")
	if !ok || !strings.HasPrefix(st.URL, p.zpGW.BaseURL) {
		p.t.Fatalf("not a Zarinpal StartPay URL: %q", st.URL)
	}
	return a
}

// zpPay is the payer at Zarinpal paying (ok) or cancelling; it returns the
// callback's query (GET) as the browser brings it.
func (p *pspRig) zpPay(st payment.Started, ok bool) url.Values {
	p.t.Helper()
	loc, err := p.zp.Pay(p.zpAuthority(st), ok)
	if err != nil {
		p.t.Fatal(err)
	}
	return callbackQuery(p.t, loc)
}

// sepToken is the SEP token of a started payment, from its SendToken URL.
func (p *pspRig) sepToken(st payment.Started) string {
	p.t.Helper()
	u, err := url.Parse(st.URL)
	if err != nil || u.Path != "/OnlinePG/SendToken" || u.Query().Get("token") == "" || !strings.HasPrefix(st.URL, p.sepGW.BaseURL) {
		p.t.Fatalf("not a SEP SendToken URL: %q", st.URL)
	}
	return u.Query().Get("token")
}

// sepPay is the payer at SEP paying (ok) or cancelling; it returns the callback's
// form merged with its URL's query, as the API reads a posted form.
func (p *pspRig) sepPay(st payment.Started, ok bool) url.Values {
	p.t.Helper()
	to, form, err := p.sep.Pay(p.sepToken(st), ok)
	if err != nil {
		p.t.Fatal(err)
	}
	q := callbackQuery(p.t, to)
	for k, v := range form {
		q[k] = v
	}
	return q
}

// state is a payment's state and refund state.
func (p *pspRig) state(st payment.Started) (string, string) {
	p.t.Helper()
	got := p.get(st.PaymentID)
	return got.State, got.RefundState
}

// bank is one fake protocol as a test drives it.
type bank struct {
	name     string
	gw       payment.Gateway
	pay      func(st payment.Started, ok bool) url.Values
	faults   func(pspfake.Faults)
	state    func(st payment.Started) string
	reversed string
}

// banks are the rig's two fake protocols.
func (p *pspRig) banks() []bank {
	return []bank{
		{"zarinpal", p.zpGW, p.zpPay, p.zp.SetFaults, func(st payment.Started) string { return p.zp.Status(p.zpAuthority(st)) }, pspfake.ZPReversed},
		{"sep", p.sepGW, p.sepPay, p.sep.SetFaults, func(st payment.Started) string { return p.sep.State(p.sepToken(st)) }, pspfake.SEPReversed},
	}
}
