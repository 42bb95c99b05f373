package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/predefined"
)

func newGroup(t *testing.T, e *apitest.Env, tok, title string) predefined.Group {
	t.Helper()
	var g predefined.Group
	e.Must(201, "POST", "/v1/api/user/predefined/group", map[string]any{"title": title}, tok).Decode(t, &g)
	return g
}

func newMessage(t *testing.T, e *apitest.Env, tok string, group int64, title, text string) predefined.Message {
	t.Helper()
	var m predefined.Message
	e.Must(201, "POST", "/v1/api/user/predefined", map[string]any{"group_id": group, "title": title, "text": text}, tok).Decode(t, &m)
	return m
}

// fieldError asserts a 422 (or want) whose field carries the Persian message.
func fieldError(t *testing.T, r apitest.Response, want int, field, msg string) {
	t.Helper()
	if r.Status != want || len(r.Meta.Errors[field]) == 0 || r.Meta.Errors[field][0] != msg {
		t.Fatalf("want %d %s=%q, got %d %s", want, field, msg, r.Status, r.Raw)
	}
}

// TestPredefinedCRUD: groups and messages are created, listed with their counts,
// searched, edited, moved and deleted (a group's messages with it), each change
// audited.
func TestPredefinedCRUD(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, acc := owner(t, e, "predef", "09121270000")
	g1, g2 := newGroup(t, e, tok, "تبریک"), newGroup(t, e, tok, "یادآوری")
	newMessage(t, e, tok, g1.ID, "نوروز", "نوروزتان پیروز")
	m2 := newMessage(t, e, tok, g1.ID, "تولد", "تولدتان مبارک")
	newMessage(t, e, tok, g2.ID, "قرار", "فردا ساعت ۱۰ منتظر شما هستیم")

	var groups []predefined.Group
	r := e.Must(200, "GET", "/v1/api/user/predefined/group/list", nil, tok)
	r.Decode(t, &groups)
	if *r.Meta.Total != 2 || len(groups) != 2 || groups[0].Title != "تبریک" || groups[0].Messages != 2 || groups[1].Messages != 1 {
		t.Fatalf("groups: %s", r.Raw)
	}
	var count predefined.Counts
	e.Must(200, "GET", "/v1/api/user/predefined/group/count", nil, tok).Decode(t, &count)
	if count.Groups != 2 || count.Messages != 3 {
		t.Fatalf("count: %+v", count)
	}
	var msgs []predefined.Message
	r = e.Must(200, "GET", fmt.Sprintf("/v1/api/user/predefined/list?group_id=%d&search=مبارک", g1.ID), nil, tok)
	r.Decode(t, &msgs)
	if *r.Meta.Total != 1 || msgs[0].ID != m2.ID || msgs[0].GroupTitle != "تبریک" {
		t.Fatalf("search: %s", r.Raw)
	}
	r = e.Must(200, "GET", "/v1/api/user/predefined/list?limit=2", nil, tok)
	r.Decode(t, &msgs)
	if *r.Meta.Total != 3 || len(msgs) != 2 {
		t.Fatalf("paged list: %s", r.Raw)
	}

	var moved predefined.Message
	e.Must(200, "POST", "/v1/api/user/predefined/update", map[string]any{"id": m2.ID, "group_id": g2.ID, "title": "تولد",
		"text": "تولدت مبارک"}, tok).Decode(t, &moved)
	if moved.GroupID != g2.ID || moved.Text != "تولدت مبارک" {
		t.Fatalf("moved: %+v", moved)
	}
	var renamed predefined.Group
	e.Must(200, "POST", "/v1/api/user/predefined/group/update", map[string]any{"id": g2.ID, "title": "  یادآوری‌ها "}, tok).Decode(t, &renamed)
	if renamed.Title != "یادآوری‌ها" || renamed.Messages != 2 {
		t.Fatalf("renamed: %+v", renamed)
	}
	e.Must(200, "POST", "/v1/api/user/predefined/group/delete", map[string]any{"id": g2.ID}, tok)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/user/predefined/show/%d", m2.ID), nil, tok)
	e.Must(200, "GET", "/v1/api/user/predefined/group/count", nil, tok).Decode(t, &count)
	if count.Groups != 1 || count.Messages != 1 {
		t.Fatalf("count after delete: %+v", count)
	}
	var audited int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action LIKE 'predefined.%'`,
		acc).Scan(&audited); err != nil {
		t.Fatal(err)
	}
	if audited != 8 { // 2 groups + 3 messages created, 1 update, 1 rename, 1 delete
		t.Fatalf("audited %d predefined changes, want 8", audited)
	}
}

// TestPredefinedValidation: bad input gets 422 with Persian field messages.
func TestPredefinedValidation(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "predefval", "09121270010")
	fieldError(t, e.Do("POST", "/v1/api/user/predefined/group", map[string]any{"title": "   "}, tok), 422, "title", predefined.MsgTitle)
	fieldError(t, e.Do("POST", "/v1/api/user/predefined/group", map[string]any{"title": strings.Repeat("ا", 101)}, tok), 422, "title", predefined.MsgTitleLong)
	g := newGroup(t, e, tok, "عمومی")
	fieldError(t, e.Do("POST", "/v1/api/user/predefined/group", map[string]any{"title": "عمومی"}, tok), 409, "title", predefined.MsgGroupExists)
	fieldError(t, e.Do("POST", "/v1/api/user/predefined", map[string]any{"group_id": g.ID, "title": "", "text": "سلام"}, tok), 422, "title", predefined.MsgTitle)
	fieldError(t, e.Do("POST", "/v1/api/user/predefined", map[string]any{"group_id": g.ID, "title": "بلند",
		"text": strings.Repeat("س", predefined.MaxText+1)}, tok), 422, "text", predefined.MsgTextLong)
	fieldError(t, e.Do("POST", "/v1/api/user/predefined", map[string]any{"title": "بی‌گروه", "text": "سلام"}, tok), 422, "group_id", predefined.MsgGroup)
	// 2700 characters is the editor's maximum and is accepted.
	newMessage(t, e, tok, g.ID, "کامل", strings.Repeat("س", predefined.MaxText))
}

// TestPredefinedIsolation: another account neither sees nor touches the groups,
// messages and drafts of this one, nor files a message under its group.
func TestPredefinedIsolation(t *testing.T) {
	e := apitest.Start(t, nil)
	tokA, _ := owner(t, e, "predefa", "09121270020")
	tokB, _ := owner(t, e, "predefb", "09121270021")
	g := newGroup(t, e, tokA, "خصوصی")
	m := newMessage(t, e, tokA, g.ID, "راز", "متن خصوصی")
	var d predefined.Draft
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "quick", "text": "پیش‌نویس آ"}, tokA).Decode(t, &d)

	for _, path := range []string{"/user/predefined/group/list", "/user/predefined/list", "/user/draft/list"} {
		if r := e.Must(200, "GET", "/v1/api"+path, nil, tokB); *r.Meta.Total != 0 {
			t.Errorf("B lists A's rows at %s: %s", path, r.Raw)
		}
	}
	e.Must(404, "GET", fmt.Sprintf("/v1/api/user/predefined/group/show/%d", g.ID), nil, tokB)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/user/predefined/show/%d", m.ID), nil, tokB)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/user/draft/show/%d", d.ID), nil, tokB)
	e.Must(404, "POST", "/v1/api/user/predefined/delete", map[string]any{"id": m.ID}, tokB)
	e.Must(404, "POST", "/v1/api/user/predefined/group/delete", map[string]any{"id": g.ID}, tokB)
	e.Must(404, "POST", "/v1/api/user/draft/delete", map[string]any{"id": d.ID}, tokB)
	e.Must(404, "POST", "/v1/api/user/draft", map[string]any{"id": d.ID, "type": "quick", "text": "ربوده"}, tokB)
	fieldError(t, e.Do("POST", "/v1/api/user/predefined", map[string]any{"group_id": g.ID, "title": "نفوذ", "text": "x"}, tokB),
		422, "group_id", predefined.MsgGroupUnknown)
	gB := newGroup(t, e, tokB, "خصوصی") // the same title is free in another account
	fieldError(t, e.Do("POST", "/v1/api/user/predefined/update", map[string]any{"id": m.ID, "group_id": gB.ID, "title": "راز",
		"text": "x"}, tokA), 422, "group_id", predefined.MsgGroupUnknown)
	var still predefined.Message
	e.Must(200, "GET", fmt.Sprintf("/v1/api/user/predefined/show/%d", m.ID), nil, tokA).Decode(t, &still)
	if still.Text != "متن خصوصی" {
		t.Fatalf("A's message changed: %+v", still)
	}
}

// TestPredefinedPermissions: a colleague with predefined.view reads but cannot
// change; send.create alone gives drafts but not the predefined list.
func TestPredefinedPermissions(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "predefown", "09121270030")
	g := newGroup(t, e, tok, "همه")
	viewer := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121270031", makeRole(t, e, tok, "خواننده", acl.PredefinedView)))
	sender := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121270032", makeRole(t, e, tok, "ارسال‌کننده", acl.SendCreate)))
	e.Must(200, "GET", "/v1/api/user/predefined/list", nil, viewer)
	if r := e.Do("POST", "/v1/api/user/predefined", map[string]any{"group_id": g.ID, "title": "x", "text": "y"}, viewer); r.Status != 403 || r.Meta.MessageCode != "403-8" {
		t.Fatalf("viewer creates: %d %s", r.Status, r.Raw)
	}
	if r := e.Do("GET", "/v1/api/user/draft/list", nil, viewer); r.Status != 403 {
		t.Fatalf("viewer lists drafts: %d", r.Status)
	}
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "quick", "text": "از همکار"}, sender)
	if r := e.Do("GET", "/v1/api/user/predefined/list", nil, sender); r.Status != 403 {
		t.Fatalf("sender lists predefined: %d", r.Status)
	}
	// The owner sees the colleague's draft: drafts belong to the account.
	var drafts []predefined.Draft
	e.Must(200, "GET", "/v1/api/user/draft/list", nil, tok).Decode(t, &drafts)
	if len(drafts) != 1 || drafts[0].CreatedBy == "" || drafts[0].CreatedBy == "predefown" {
		t.Fatalf("owner's view of drafts: %+v", drafts)
	}
}

// TestDrafts: a draft is saved with its method, text and settings, listed (numbers
// counted, not carried), resumed with everything, replaced in place and deleted;
// empty or foreign sources are refused in Persian.
func TestDrafts(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, acc := owner(t, e, "drafter", "09121270040")
	_, accB := owner(t, e, "drafterb", "09121270041")
	form := map[string]any{"type": "quick", "title": "جشنواره", "text": "تخفیف ویژه", "sender": "30001234", "cancel11": true,
		"numbers": []string{"989121111111", "989122222222"}, "send_at": "2030-01-02T08:30:00Z"}
	var d predefined.Draft
	e.Must(200, "POST", "/v1/api/user/draft", form, tok).Decode(t, &d)
	bookForm := map[string]any{"type": "phonebook", "text": "سلام", "phonebook_ids": []int64{phonebookOf(t, e, tok, "مشتریان")}}
	e.Must(200, "POST", "/v1/api/user/draft", bookForm, tok)

	var list []predefined.Draft
	r := e.Must(200, "GET", "/v1/api/user/draft/list?type=quick", nil, tok)
	r.Decode(t, &list)
	if *r.Meta.Total != 1 || list[0].Recipients != 2 || len(list[0].Numbers) != 0 || list[0].Title != "جشنواره" {
		t.Fatalf("list: %s", r.Raw)
	}
	var full predefined.Draft
	e.Must(200, "GET", fmt.Sprintf("/v1/api/user/draft/show/%d", d.ID), nil, tok).Decode(t, &full)
	if len(full.Numbers) != 2 || full.Sender != "30001234" || !full.Cancel11 || full.SendAt == nil || full.SendAt.Year() != 2030 {
		t.Fatalf("resume: %+v", full)
	}
	form["id"], form["text"] = d.ID, "تخفیف ویژه‌تر"
	e.Must(200, "POST", "/v1/api/user/draft", form, tok)
	if r := e.Must(200, "GET", "/v1/api/user/draft/list", nil, tok); *r.Meta.Total != 2 {
		t.Fatalf("an update added a draft: %s", r.Raw)
	}
	fieldError(t, e.Do("POST", "/v1/api/user/draft", map[string]any{"type": "quick"}, tok), 422, "text", predefined.MsgDraftEmpty)
	fieldError(t, e.Do("POST", "/v1/api/user/draft", map[string]any{"type": "fax", "text": "x"}, tok), 422, "type", predefined.MsgDraftType)
	fieldError(t, e.Do("POST", "/v1/api/user/draft", map[string]any{"type": "quick", "text": strings.Repeat("a", predefined.MaxText+1)}, tok),
		422, "text", predefined.MsgTextLong)
	foreignFile := fileFixture(t, e, accB, "send", "ready", []string{"موبایل"}, [][]string{{"09121237777"}})
	fieldError(t, e.Do("POST", "/v1/api/user/draft", map[string]any{"type": "file", "text": "x", "file_id": foreignFile}, tok),
		422, "file_id", predefined.MsgDraftFile)
	ownFile := fileFixture(t, e, acc, "send", "ready", []string{"موبایل"}, [][]string{{"09121237777"}})
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "file", "file_id": ownFile}, tok)
	e.Must(200, "POST", "/v1/api/user/draft/delete", map[string]any{"id": d.ID}, tok)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/user/draft/show/%d", d.ID), nil, tok)
}

// TestTargetedDrafts: a targeted send's wizard is saved with its audience (a map
// circle narrowed by operator, a random count) and resumed with it; the audience
// alone is a draft; another method's draft keeps no audience.
func TestTargetedDrafts(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "tdrafter", "09121270042")
	target := map[string]any{"circle": map[string]any{"lat": 35.7, "lon": 51.4, "radius": 5000}, "operators": []string{"mci"}, "count": 6000}
	var d, full predefined.Draft
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "map", "text": "حراج", "target": target}, tok).Decode(t, &d)
	e.Must(200, "GET", fmt.Sprintf("/v1/api/user/draft/show/%d", d.ID), nil, tok).Decode(t, &full)
	if full.Type != "map" || full.Target == nil || full.Target.Circle == nil || full.Target.Circle.Radius != 5000 ||
		full.Target.Count != 6000 || len(full.Target.Operators) != 1 {
		t.Fatalf("resume: %+v", full)
	}
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "city_province", "target": map[string]any{"provinces": []int{28}}}, tok)
	var q predefined.Draft
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "quick", "text": "x", "target": target}, tok).Decode(t, &q)
	if q.Target != nil {
		t.Fatalf("a quick draft kept an audience: %+v", q.Target)
	}
	fieldError(t, e.Do("POST", "/v1/api/user/draft", map[string]any{"type": "business"}, tok), 422, "text", predefined.MsgDraftEmpty)
}

func phonebookOf(t *testing.T, e *apitest.Env, tok, name string) int64 {
	t.Helper()
	var b struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": name}, tok).Decode(t, &b)
	return b.ID
}
