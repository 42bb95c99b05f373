package payment_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// offer saves a live charge package or today gift as staff would, and removes it
// when the test ends (offers are read by every payment of the database).
func (r *rig) offer(it content.Item) content.Item {
	r.t.Helper()
	if r.svc.Offers == nil {
		r.svc.Offers = content.New(r.db.Pool)
	}
	it.Active = true
	saved, err := r.svc.Offers.Save(r.ctx, acl.Identity{}, it, "")
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		if err := r.svc.Offers.Delete(r.ctx, acl.Identity{}, saved.ID, ""); err != nil {
			r.t.Error(err)
		}
	})
	return saved
}

// A charge package bought online credits its amount and then its bonus, as two
// ledger entries with their own references; a replayed callback adds nothing. An
// unknown package is refused.
func TestChargePackageBonus(t *testing.T) {
	r := newRig(t)
	r.offer(content.Item{Kind: payment.KindPackage, Title: "بسته نقره‌ای", Amount: 5_000_000, Bonus: 750_000})
	pk := r.offer(content.Item{Kind: payment.KindPackage, Title: "بسته طلایی", Amount: 2_000_000, Bonus: 300_000, Position: -1})
	pkgs, err := r.svc.Packages(r.ctx)
	if err != nil || len(pkgs) != 2 || pkgs[0].ID != pk.ID || pkgs[0].Bonus != 300_000 || pkgs[0].Tax != 200_000 || pkgs[0].Total != 2_200_000 {
		t.Fatalf("packages %+v %v", pkgs, err)
	}
	req := payment.Request{AccountID: r.acct}
	if _, err := r.svc.StartPackage(r.ctx, req, 999_999); !hasField(err, "package_id", payment.MsgNoPackage) {
		t.Fatalf("unknown package: %v", err)
	}
	st, err := r.svc.StartPackage(r.ctx, req, pk.ID)
	if err != nil || st.Amount != 2_000_000 || st.Bonus != 300_000 || st.Total != 2_200_000 {
		t.Fatalf("started %+v %v", st, err)
	}
	q := r.decide(st, sandbox.Paid)
	r.callback(q)
	r.callback(q)
	id := strconv.FormatInt(st.PaymentID, 10)
	want := []ledgerRow{{kind: "deposit", ref: "payment:" + id + ":credit", amount: 2_000_000},
		{kind: "gift", ref: "payment:" + id + ":package-bonus", amount: 300_000}}
	if b, l := r.wallet(); b != 2_300_000 || len(l) != 2 || l[0] != want[0] || l[1] != want[1] {
		t.Fatalf("balance %d, ledger %+v", b, l)
	}
}

// The today gift is paid once per account: with the first paid payment, not with a
// second payment the same day, even one started before the first was paid.
func TestTodayGiftOncePerAccount(t *testing.T) {
	r := newRig(t)
	now := time.Now()
	start, end := now.Add(-time.Hour), now.Add(12*time.Hour)
	gift := r.offer(content.Item{Kind: payment.KindTodayGift, Title: "هدیه شارژ امروز", Amount: 400_000, StartsAt: &start, EndsAt: &end})
	if g, err := r.svc.TodayGift(r.ctx, r.acct); err != nil || !g.Available || g.ID != gift.ID || g.Amount != 400_000 {
		t.Fatalf("today gift %+v %v", g, err)
	}
	first, second := r.start(1_000_000), r.start(3_000_000)
	if first.Gift != 400_000 || second.Gift != 400_000 {
		t.Fatalf("gift not offered: %+v %+v", first, second)
	}
	r.callback(r.decide(second, sandbox.Paid))
	r.callback(r.decide(first, sandbox.Paid))
	third := r.start(1_000_000)
	if third.Gift != 0 {
		t.Fatalf("gift offered again: %+v", third)
	}
	r.callback(r.decide(third, sandbox.Paid))
	gifts := 0
	b, l := r.wallet()
	for _, row := range l {
		if row.kind == "gift" {
			gifts++
			if row.amount != 400_000 || row.ref != "payment:"+strconv.FormatInt(second.PaymentID, 10)+":today-gift" {
				t.Fatalf("gift row %+v", row)
			}
		}
	}
	if gifts != 1 || b != 5_400_000 {
		t.Fatalf("%d gifts, balance %d", gifts, b)
	}
	if g, err := r.svc.TodayGift(r.ctx, r.acct); err != nil || g.Available || !g.Received {
		t.Fatalf("today gift after use %+v %v", g, err)
	}
}
