package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/payment"
)

// ledgerRow is one ledger entry as the bonus tests read it.
type ledgerRow struct {
	kind, ref, desc string
	amount          int64
}

func (p *payEnv) ledger() []ledgerRow {
	p.t.Helper()
	rows, err := p.DB.Pool.Query(context.Background(), `SELECT kind, ref, description, amount FROM ledger WHERE account_id = $1 ORDER BY id`, p.acct)
	if err != nil {
		p.t.Fatal(err)
	}
	defer rows.Close()
	var out []ledgerRow
	for rows.Next() {
		var r ledgerRow
		if err := rows.Scan(&r.kind, &r.ref, &r.desc, &r.amount); err != nil {
			p.t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// offer saves a live charge package or today gift as staff.
func (p *payEnv) offer(stok string, it content.Item) content.Item {
	p.t.Helper()
	it.Active = true
	var saved content.Item
	p.Must(200, "POST", "/v1/api/admin/content", it, stok).Decode(p.t, &saved)
	return saved
}

// A charge package bought online credits its amount and then its bonus, as two
// ledger entries with their own references; a replayed callback adds nothing.
func TestChargePackageBonus(t *testing.T) {
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
	loc := p.bank(st, "pay")
	p.callback(loc)
	p.callback(loc)
	id := strconv.FormatInt(st.PaymentID, 10)
	got := p.ledger()
	if len(got) != 2 || got[0].amount != 2_000_000 || got[0].ref != "payment:"+id+":credit" ||
		got[1].kind != "gift" || got[1].amount != 300_000 || got[1].ref != "payment:"+id+":package-bonus" || got[1].desc == "" {
		t.Fatalf("ledger %+v", got)
	}
	if b, _ := p.money(); b != 2_300_000 {
		t.Fatalf("balance %d", b)
	}
}

// The today gift is paid once per account: with the first paid payment, not with a
// second payment the same day, even one started before the first was paid.
func TestTodayGiftOncePerAccount(t *testing.T) {
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
	first, second := p.start("1000000"), p.start("3000000")
	if first.Gift != 400_000 || second.Gift != 400_000 {
		t.Fatalf("gift not offered: %+v %+v", first, second)
	}
	p.callback(p.bank(second, "pay"))
	p.callback(p.bank(first, "pay"))
	third := p.start("1000000")
	if third.Gift != 0 {
		t.Fatalf("gift offered again: %+v", third)
	}
	p.callback(p.bank(third, "pay"))
	gifts := 0
	for _, r := range p.ledger() {
		if r.kind == "gift" {
			gifts++
			if r.amount != 400_000 || r.ref != "payment:"+strconv.FormatInt(second.PaymentID, 10)+":today-gift" {
				t.Fatalf("gift row %+v", r)
			}
		}
	}
	if b, _ := p.money(); gifts != 1 || b != 5_400_000 {
		t.Fatalf("%d gifts, balance %d", gifts, b)
	}
	p.Must(200, "GET", "/v1/api/payment/promotion/today-charge", nil, p.token).Decode(t, &g)
	if g.Available || !g.Received {
		t.Fatalf("today gift after use %+v", g)
	}
}
