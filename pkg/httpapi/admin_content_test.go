package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/content"
)

// Staff edit what customers see; customers read only the live items (active and in
// their time window), and bad input is refused field by field with nothing stored.
func TestStaffEditsCustomerContent(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("editor", "09120009908")
	e.Register("reader", pw, "09121239008")
	ctok := e.Login("reader", pw)

	r := e.Must(422, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": " ", "link": "javascript:alert(1)",
		"amount": -1}, stok)
	for _, f := range []string{"title", "link", "amount"} {
		if len(r.Meta.Errors[f]) == 0 {
			t.Fatalf("no %s error: %s", f, r.Raw)
		}
	}
	e.Must(422, "POST", "/v1/api/admin/content", map[string]any{"kind": "ads", "title": "x"}, stok)
	var saved content.Item
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "خط جدید", "body": "متن خبر",
		"active": true, "position": 2}, stok).Decode(t, &saved)
	past := time.Now().Add(-time.Hour)
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "قدیمی", "active": true, "ends_at": past}, stok)
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "پیش‌نویس", "active": false}, stok)
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "today_gift", "title": "هدیه امروز", "amount": 50_000,
		"active": true, "starts_at": past, "ends_at": time.Now().Add(time.Hour)}, stok)

	var live []content.Item
	e.Must(200, "GET", "/v1/api/content/news", nil, ctok).Decode(t, &live)
	if len(live) != 1 || live[0].ID != saved.ID || live[0].Body != "متن خبر" {
		t.Fatalf("live news %+v", live)
	}
	e.Must(200, "GET", "/v1/api/content/today_gift", nil, ctok).Decode(t, &live)
	if len(live) != 1 || live[0].Amount != 50_000 {
		t.Fatalf("today gift %+v", live)
	}
	var all []content.Item
	e.Must(200, "GET", "/v1/api/admin/content?kind=news", nil, stok).Decode(t, &all)
	if len(all) != 3 {
		t.Fatalf("staff see %d news", len(all))
	}
	e.Must(404, "GET", "/v1/api/content/ads", nil, ctok)
	e.Must(404, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "x"}, ctok)

	saved.Title, saved.Active = "ویرایش‌شده", false
	e.Must(200, "POST", "/v1/api/admin/content", saved, stok)
	e.Must(200, "GET", "/v1/api/content/news", nil, ctok).Decode(t, &live)
	if len(live) != 0 {
		t.Fatalf("deactivated news still live: %+v", live)
	}
	e.Must(200, "POST", "/v1/api/admin/content/"+strconv.FormatInt(saved.ID, 10)+"/delete", nil, stok)
	e.Must(404, "POST", "/v1/api/admin/content/"+strconv.FormatInt(saved.ID, 10)+"/delete", nil, stok)
	var audited int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action IN ('staff.content_saved', 'staff.content_deleted')`).Scan(&audited)
	if audited != 6 {
		t.Fatalf("audited %d content changes", audited)
	}
}

// The dashboard's content in one answer: live banners (with placement and click
// action), news and quick access in display order; a staff change shows at once
// (the cache is dropped), a banner outside its window does not, and every
// authenticated customer may read it while visitors may not.
func TestDashboardContent(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("editor2", "09120009909")
	e.Register("viewer", pw, "09121239009")
	ctok := e.Login("viewer", pw)
	var b content.Board
	e.Must(200, "GET", "/v1/api/content/dashboard", nil, ctok).Decode(t, &b)
	if len(b.Banners)+len(b.News)+len(b.QuickAccess) != 0 || b.Banners == nil {
		t.Fatalf("empty board %+v", b)
	}
	e.Must(401, "GET", "/v1/api/content/dashboard", nil, "")
	r := e.Must(422, "POST", "/v1/api/admin/content", map[string]any{"kind": "banner", "title": "x", "placement": "side", "action": "x"}, stok)
	if len(r.Meta.Errors["placement"]) == 0 || len(r.Meta.Errors["action"]) == 0 {
		t.Fatalf("bad banner: %s", r.Raw)
	}
	soon, past := time.Now().Add(time.Hour), time.Now().Add(-time.Hour)
	for _, it := range []map[string]any{
		{"kind": "banner", "title": "دوم", "position": 2, "active": true, "placement": "carousel", "action": "popup", "body": "جزئیات"},
		{"kind": "banner", "title": "اول", "position": 1, "active": true, "placement": "strip", "action": "same_window", "link": "/wallet/credit"},
		{"kind": "banner", "title": "آینده", "active": true, "starts_at": soon},
		{"kind": "banner", "title": "گذشته", "active": true, "starts_at": past.Add(-time.Hour), "ends_at": past},
		{"kind": "news", "title": "خبر", "active": true},
		{"kind": "quick_access", "title": "ارسال سریع", "link": "/send-sms/quick", "active": true},
		{"kind": "faq", "title": "پرسش", "active": true},
	} {
		e.Must(200, "POST", "/v1/api/admin/content", it, stok)
	}
	e.Must(200, "GET", "/v1/api/content/dashboard", nil, ctok).Decode(t, &b)
	if len(b.Banners) != 2 || b.Banners[0].Title != "اول" || b.Banners[0].Placement != content.PlaceStrip ||
		b.Banners[0].Action != content.ActSame || b.Banners[1].Action != content.ActPopup || b.Banners[1].Placement != content.PlaceCarousel {
		t.Fatalf("banners %+v", b.Banners)
	}
	if len(b.News) != 1 || len(b.QuickAccess) != 1 || b.QuickAccess[0].Link != "/send-sms/quick" {
		t.Fatalf("board %+v", b)
	}
	// The spec's Home calls serve the same parts on their own.
	var banners, quick []content.Item
	e.Must(200, "GET", "/v1/api/panel/banners", nil, ctok).Decode(t, &banners)
	e.Must(200, "GET", "/v1/api/panel/quick_access", nil, ctok).Decode(t, &quick)
	if len(banners) != 2 || banners[0].Title != "اول" || len(quick) != 1 || quick[0].Title != "ارسال سریع" {
		t.Fatalf("/panel/banners %+v, /panel/quick_access %+v", banners, quick)
	}
	var news []content.Item
	e.Must(200, "GET", "/v1/api/admin/content?kind=news", nil, stok).Decode(t, &news)
	news[0].Title, news[0].Active = "خبر ویرایش‌شده", true
	e.Must(200, "POST", "/v1/api/admin/content", news[0], stok)
	e.Must(200, "GET", "/v1/api/content/dashboard", nil, ctok).Decode(t, &b)
	if len(b.News) != 1 || b.News[0].Title != "خبر ویرایش‌شده" {
		t.Fatalf("the edit is not shown at once: %+v", b.News)
	}
	e.Must(200, "POST", "/v1/api/admin/content/"+strconv.FormatInt(news[0].ID, 10)+"/delete", nil, stok)
	e.Must(200, "GET", "/v1/api/content/dashboard", nil, ctok).Decode(t, &b)
	if len(b.News) != 0 {
		t.Fatalf("deleted news still shown: %+v", b.News)
	}
}
