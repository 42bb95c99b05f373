package httpapi_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/content"
)

// News read state is per user: an opened item is read for its reader only, «mark all
// read» marks every live item, a new item is unread again, and an unknown or
// inactive item cannot be marked.
func TestNewsReadUnread(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("newsroom", "09120009910")
	e.Register("alice", pw, "09121239010")
	e.Register("bob", pw, "09121239011")
	alice, bob := e.Login("alice", pw), e.Login("bob", pw)
	var ids []int64
	for i, title := range []string{"اول", "دوم", "سوم"} {
		var it content.Item
		e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": title, "active": true, "position": i}, stok).Decode(t, &it)
		ids = append(ids, it.ID)
	}
	var hidden content.Item
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "پیش‌نویس", "active": false}, stok).Decode(t, &hidden)
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "تمام‌شده", "active": true,
		"starts_at": time.Now().Add(-2 * time.Hour), "ends_at": time.Now().Add(-time.Hour)}, stok)

	news := func(tok string) content.NewsList {
		var l content.NewsList
		e.Must(200, "GET", "/v1/api/user/news/user_news_list", nil, tok).Decode(t, &l)
		return l
	}
	if l := news(alice); l.Unread != 3 || len(l.Items) != 3 || l.Items[0].Title != "اول" || l.Items[0].Read {
		t.Fatalf("fresh news %+v", l)
	}
	read := "/v1/api/user/news/" + strconv.FormatInt(ids[1], 10) + "/read"
	e.Must(200, "POST", read, nil, alice)
	e.Must(200, "POST", read, nil, alice) // again: still one read
	if l := news(alice); l.Unread != 2 || !l.Items[1].Read || l.Items[0].Read {
		t.Fatalf("after reading the second %+v", l)
	}
	if l := news(bob); l.Unread != 3 {
		t.Fatalf("alice's read shows for bob: %+v", l)
	}
	e.Must(404, "POST", "/v1/api/user/news/"+strconv.FormatInt(hidden.ID, 10)+"/read", nil, alice)
	e.Must(404, "POST", "/v1/api/user/news/99999999/read", nil, alice)
	e.Must(401, "GET", "/v1/api/user/news/user_news_list", nil, "")

	var marked struct{ Marked int64 }
	e.Must(200, "POST", "/v1/api/user/news/read_all", nil, alice).Decode(t, &marked)
	if l := news(alice); marked.Marked != 2 || l.Unread != 0 {
		t.Fatalf("mark all read marked %d: %+v", marked.Marked, l)
	}
	e.Must(200, "POST", "/v1/api/admin/content", map[string]any{"kind": "news", "title": "تازه", "active": true, "position": 9}, stok)
	if l := news(alice); l.Unread != 1 || l.Items[3].Read {
		t.Fatalf("a new item is not unread: %+v", l)
	}
	if l := news(bob); l.Unread != 4 {
		t.Fatalf("bob %+v", l)
	}
}
