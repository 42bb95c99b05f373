package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/pspfake"
)

// The back office's gateway settings and the top-up through each gateway: staff
// read and set the gateway (ids answered masked, 422 per field, 404 to customers);
// the owner's link then goes to Zarinpal's StartPay or SEP's SendToken, and the
// callback takes Zarinpal's GET and SEP's posted form, each sent on to the paid
// result page.
func TestPaymentGatewaySettingsAndCallbacks(t *testing.T) {
	const merchant, terminal = "5f0c2a9e-1b3d-4c7a-9e8f-0a1b2c3d4e5f", "21436587"
	zp, sep := pspfake.NewZarinpal(merchant), pspfake.NewSEP(terminal)
	zs, ss := httptest.NewServer(zp), httptest.NewServer(sep)
	defer zs.Close()
	defer ss.Close()
	e := apitest.Start(t, func(c *config.Config) { c.PaymentZarinpalURL, c.PaymentSEPURL = zs.URL, ss.URL })
	e.Register("gwowner", pw, "09121117401")
	p := &payEnv{Env: e, t: t, token: e.Login("gwowner", pw)}
	staffTok := p.Staff("gwstaff", "09121117409")

	var v payment.GatewaySettings
	p.Must(200, "GET", "/v1/api/admin/payment-gateway", nil, staffTok).Decode(t, &v)
	if v.Active != "sandbox" || len(v.Gateways) != 3 {
		t.Fatalf("defaults %+v", v)
	}
	p.Must(404, "GET", "/v1/api/admin/payment-gateway", nil, p.token)
	r := p.Must(422, "POST", "/v1/api/admin/payment-gateway", map[string]any{"active": "zarinpal"}, staffTok)
	if r.Meta.Errors["zarinpal_merchant_id"] == nil {
		t.Fatalf("zarinpal without its merchant id: %s", r.Raw)
	}
	r = p.Must(200, "POST", "/v1/api/admin/payment-gateway", map[string]any{"active": "zarinpal",
		"zarinpal_merchant_id": merchant, "sep_terminal_id": terminal}, staffTok)
	if strings.Contains(string(r.Raw), merchant) || strings.Contains(string(r.Raw), terminal) {
		t.Fatalf("an id answered in full: %s", r.Raw)
	}
	r.Decode(t, &v)
	if v.Active != "zarinpal" || v.ZarinpalMerchantID != "••••••••4e5f" || v.SEPTerminalID != "••••6587" {
		t.Fatalf("set %+v", v)
	}

	st := p.start("1000000")
	a, ok := strings.CutPrefix(st.URL, zs.URL+"/pg/StartPay/")
	if !ok {
		t.Fatalf("zarinpal link %q", st.URL)
	}
	loc, err := zp.Pay(a, true)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(loc)
	if to := p.callback(u.RequestURI()); to != "/wallet/payment-result?amount=1000000&id="+itoa(st.PaymentID)+"&status=paid" {
		t.Fatalf("zarinpal callback sent to %q", to)
	}

	p.Must(200, "POST", "/v1/api/admin/payment-gateway", map[string]any{"active": "sep"}, staffTok)
	st = p.start("2000000")
	su, err := url.Parse(st.URL)
	if err != nil || !strings.HasPrefix(st.URL, ss.URL+"/OnlinePG/SendToken?") {
		t.Fatalf("sep link %q", st.URL)
	}
	to, form, err := sep.Pay(su.Query().Get("token"), true)
	if err != nil {
		t.Fatal(err)
	}
	tu, _ := url.Parse(to)
	code, dest := p.noFollow(http.MethodPost, tu.RequestURI(), form)
	if code != http.StatusSeeOther || dest != "/wallet/payment-result?amount=2000000&id="+itoa(st.PaymentID)+"&status=paid" {
		t.Fatalf("sep callback: %d %q", code, dest)
	}
}
