package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apitest"
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
