package httpapi_test

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/payment"
)

// offer saves a live charge package or today gift as staff.
func (p *payEnv) offer(stok string, it content.Item) content.Item {
	p.t.Helper()
	it.Active = true
	var saved content.Item
	p.Must(200, "POST", "/v1/api/admin/content", it, stok).Decode(p.t, &saved)
	return saved
}

// The charge packages' routes: the live packages with their tax and total, a
// payment started for one (200, its bonus promised) or refused for an unknown one
// (422). What is credited is pkg/payment's tests.
func TestChargePackageRoutes(t *testing.T) {
	p := newPayEnv(t, "pkgbuyer", "09121119001")
	stok := p.Staff("pkgstaff", "09121119901")
	p.offer(stok, content.Item{Kind: payment.KindPackage, Title: "بسته نقره‌ای", Amount: 5_000_000, Bonus: 750_000})
	pk := p.offer(stok, content.Item{Kind: payment.KindPackage, Title: "بسته طلایی", Amount: 2_000_000, Bonus: 300_000, Position: -1})
	var pkgs []payment.Package
	p.Must(200, "GET", "/v1/api/payment/charge-packages/dynamics", nil, p.token).Decode(t, &pkgs)
	if len(pkgs) != 2 || pkgs[0].ID != pk.ID || pkgs[0].Bonus != 300_000 || pkgs[0].Total != 2_200_000 {
		t.Fatalf("packages %+v", pkgs)
	}
	p.Must(422, "POST", "/v1/api/payment/charge-packages/select", map[string]any{"package_id": 999999}, p.token)
	var st payment.Started
	p.Must(200, "POST", "/v1/api/payment/charge-packages/select", map[string]any{"package_id": pk.ID,
		"callbackUrl": "/wallet/payment-result"}, p.token).Decode(t, &st)
	if st.Amount != 2_000_000 || st.Bonus != 300_000 || st.Total != 2_200_000 {
		t.Fatalf("started %+v", st)
	}
	if to := p.callback(p.bank(st, "pay")); to != "/wallet/payment-result?amount=2000000&id="+itoa(st.PaymentID)+"&status=paid" {
		t.Fatalf("redirect %q", to)
	}
}

// The today gift's route answers the live gift, and a payment link promises it.
func TestTodayGiftRoute(t *testing.T) {
	p := newPayEnv(t, "giftbuyer", "09121119002")
	stok := p.Staff("giftstaff", "09121119902")
	now := time.Now()
	start, end := now.Add(-time.Hour), now.Add(12*time.Hour)
	gift := p.offer(stok, content.Item{Kind: payment.KindTodayGift, Title: "هدیه شارژ امروز", Amount: 400_000,
		StartsAt: &start, EndsAt: &end})
	var g payment.TodayGift
	p.Must(200, "GET", "/v1/api/payment/promotion/today-charge", nil, p.token).Decode(t, &g)
	if !g.Available || g.ID != gift.ID || g.Amount != 400_000 {
		t.Fatalf("today gift %+v", g)
	}
	if st := p.start("1000000"); st.Gift != 400_000 {
		t.Fatalf("gift not offered: %+v", st)
	}
}
