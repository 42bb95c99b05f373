package payment_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/payment"
)

// Staff choose the gateway and enter its ids: the ids are sealed at rest, shown
// masked, kept when left empty, audited masked; an id of the wrong form, a gateway
// without its id and one not offered are refused; new payments go to the choice.
func TestGatewaySettings(t *testing.T) {
	p := newPSPRig(t)
	ctx := p.ctx
	if _, err := p.db.Pool.Exec(ctx, `DELETE FROM settings WHERE key = 'payment_gateway'`); err != nil {
		t.Fatal(err)
	}
	st := payment.NewSettings(p.db.Pool, "settings test secret", "sandbox", []string{"sandbox", "zarinpal", "sep"})
	if v, err := st.View(ctx); err != nil || v.Active != "sandbox" || v.ZarinpalMerchantID != "" || len(v.Gateways) != 3 || v.Gateways[1].Ready {
		t.Fatalf("defaults: %+v %v", v, err)
	}
	by := acl.Identity{Username: "staff-" + t.Name()}
	refused := map[string]payment.GatewayChange{
		"active":               {Active: "mellat"},
		"zarinpal_merchant_id": {Active: "zarinpal"},
		"sep_terminal_id":      {Active: "sandbox", SEPTerminalID: "12ab"},
	}
	for field, in := range refused {
		if _, err := st.Set(ctx, by, in, "127.0.0.1"); !hasField(err, field, "") {
			t.Fatalf("%s: %v", field, err)
		}
	}
	if _, err := st.Set(ctx, by, payment.GatewayChange{Active: "zarinpal", ZarinpalMerchantID: "short"}, ""); !hasField(err, "zarinpal_merchant_id", payment.MsgZarinpalMerchant) {
		t.Fatalf("a short merchant id: %v", err)
	}
	v, err := st.Set(ctx, by, payment.GatewayChange{Active: "zarinpal", ZarinpalMerchantID: testMerchant, SEPTerminalID: "۱۳۵۷۹۲۴۶"}, "127.0.0.1")
	if err != nil || v.Active != "zarinpal" || v.ZarinpalMerchantID != "••••••••1f00" || v.SEPTerminalID != "••••9246" || !v.Gateways[1].Ready {
		t.Fatalf("set: %+v %v", v, err)
	}
	if m, err := st.ZarinpalMerchant(ctx); err != nil || m != testMerchant {
		t.Fatalf("merchant %q %v", m, err)
	}
	if v, err = st.Set(ctx, by, payment.GatewayChange{Active: "sep"}, ""); err != nil || v.SEPTerminalID != "••••9246" {
		t.Fatalf("keep the ids: %+v %v", v, err)
	}
	if term, err := st.SEPTerminal(ctx); err != nil || term != "13579246" {
		t.Fatalf("terminal %q %v", term, err)
	}
	var raw, audited string
	if err := p.db.Pool.QueryRow(ctx, `SELECT value::text FROM settings WHERE key = 'payment_gateway'`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if err := p.db.Pool.QueryRow(ctx, `SELECT coalesce(string_agg(before::text || after::text, ''), '') FROM audit_log
		WHERE action = 'staff.payment_gateway_changed' AND details->>'staff' = $1`, by.Username).Scan(&audited); err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"stored": raw, "audited": audited} {
		if strings.Contains(text, testMerchant) || strings.Contains(text, "13579246") || text == "" {
			t.Fatalf("%s settings hold an id in full: %s", what, text)
		}
	}
	if !strings.Contains(audited, "••••••••1f00") {
		t.Fatalf("audit without the masked id: %s", audited)
	}
	// New payments go to the staff's choice.
	p.svc.Choose = func(ctx2 context.Context) (string, error) {
		name, err := st.Active(ctx2)
		return map[string]string{"sep": p.sepGW.Name(), "zarinpal": p.zpGW.Name()}[name], err
	}
	p.sepToken(p.start(1_000_000))
	if _, err := st.Set(ctx, by, payment.GatewayChange{Active: "zarinpal"}, ""); err != nil {
		t.Fatal(err)
	}
	p.zpAuthority(p.start(1_000_000))
	if _, err := p.db.Pool.Exec(ctx, `DELETE FROM settings WHERE key = 'payment_gateway'`); err != nil {
		t.Fatal(err)
	}
}
