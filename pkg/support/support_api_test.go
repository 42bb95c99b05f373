package support_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/support"
)

// Minimal files of each kind, as their bytes begin.
var (
	pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)
	pdfBytes = []byte("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")
	zipBytes = append([]byte("PK\x03\x04"), bytes.Repeat([]byte{1}, 64)...)
	exeBytes = append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00"), bytes.Repeat([]byte{0}, 200)...)
)

type part struct {
	name string
	data []byte
}

// form posts a multipart support form with fields and attachments.
func form(e *apitest.Env, path, token string, fields map[string]string, files ...part) apitest.Response {
	e.T.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	for _, f := range files {
		fw, _ := w.CreateFormFile("attachments", f.name)
		_, _ = fw.Write(f.data)
	}
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, e.URL+path, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := apitest.Response{Status: res.StatusCode, Raw: raw}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(raw, &env)
	out.Data = env.Data
	return out
}

// user registers a customer and returns its token.
func user(e *apitest.Env, name, mobile string) string {
	e.T.Helper()
	e.Register(name, "Secret@1234", mobile)
	return e.Login(name, "Secret@1234")
}

func firstCategory(e *apitest.Env, token string) (cat, sub int64) {
	e.T.Helper()
	var cats, subs []support.Category
	e.Must(200, "GET", "/v1/api/ticket/category", nil, token).Decode(e.T, &cats)
	if len(cats) < 2 {
		e.T.Fatalf("seeded categories: %+v", cats)
	}
	e.Must(200, "GET", fmt.Sprintf("/v1/api/ticket/sub_category?category_id=%d", cats[0].ID), nil, token).Decode(e.T, &subs)
	if len(subs) == 0 {
		e.T.Fatal("no sub-categories")
	}
	return cats[0].ID, subs[0].ID
}

// open creates a ticket and returns it.
func open(e *apitest.Env, token string, files ...part) support.Detail {
	e.T.Helper()
	cat, sub := firstCategory(e, token)
	r := form(e, "/v1/api/ticket", token, map[string]string{"category_id": fmt.Sprint(cat), "sub_category_id": fmt.Sprint(sub),
		"title": "ارسال نشدن پیامک", "text": "پیامک‌های دیروز به مشترکان ایرانسل نرسیده است."}, files...)
	if r.Status != 201 {
		e.T.Fatalf("create ticket: %d %s", r.Status, r.Raw)
	}
	var d support.Detail
	r.Decode(e.T, &d)
	return d
}

func staffAnswer(e *apitest.Env, staff string, id int64, action string) apitest.Response {
	e.T.Helper()
	return form(e, fmt.Sprintf("/v1/api/admin/support/tickets/%d/answer", id), staff,
		map[string]string{"text": "بررسی شد؛ مشکل برطرف شده است.", "action": action}, part{"log.pdf", pdfBytes})
}

// TestTicketLifecycleThroughTheAPI walks the states over the API: allowed moves and
// refused ones, for the customer and staff.
func TestTicketLifecycleThroughTheAPI(t *testing.T) {
	e := apitest.Start(t, nil)
	tok := user(e, "ticketer", "09120000101")
	staff := e.Staff("agent1", "09120000191")
	d := open(e, tok, part{"shot.png", pngBytes})
	if d.State != support.WaitingSupport || d.Number < 100001 || len(d.Interactions) != 1 || len(d.Interactions[0].Attachments) != 1 {
		t.Fatalf("created %+v", d)
	}
	step := func(r apitest.Response, want support.State) {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("status %d: %s", r.Status, r.Raw)
		}
		var got support.Detail
		r.Decode(t, &got)
		if got.State != want {
			t.Fatalf("state %d, want %d", got.State, want)
		}
	}
	path := func(s string) string { return fmt.Sprintf("/v1/api/admin/support/tickets/%d/%s", d.ID, s) }
	step(staffAnswer(e, staff, d.ID, "staff_ask"), support.WaitingCustomer)
	step(form(e, "/v1/api/ticket/interaction", tok, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "این هم گزارش"}), support.WaitingSupport)
	step(e.Do("POST", path("state"), map[string]int{"state": 5}, staff), support.ReferredReview)
	e.Must(409, "POST", path("state"), map[string]int{"state": 5}, staff)
	step(e.Do("POST", path("state"), map[string]int{"state": 6}, staff), support.ReferredUnit)
	e.Must(409, "POST", path("state"), map[string]int{"state": 6}, staff)
	e.Must(409, "POST", path("state"), map[string]int{"state": 2}, staff)
	step(staffAnswer(e, staff, d.ID, ""), support.Answered)
	step(e.Do("POST", "/v1/api/ticket/close", map[string]int64{"id": d.ID}, tok), support.Closed)
	// Closed: nothing moves it, and it says so.
	r := form(e, "/v1/api/ticket/interaction", tok, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "باز هم"})
	if r.Status != 409 || !strings.Contains(string(r.Raw), support.MsgClosed) {
		t.Fatalf("reply to closed: %d %s", r.Status, r.Raw)
	}
	if r := staffAnswer(e, staff, d.ID, ""); r.Status != 409 {
		t.Fatalf("answer to closed: %d", r.Status)
	}
	e.Must(409, "POST", path("state"), map[string]int{"state": 5}, staff)
	e.Must(409, "POST", "/v1/api/ticket/close", map[string]int64{"id": d.ID}, tok)
	var shown support.Detail
	e.Must(200, "GET", fmt.Sprintf("/v1/api/ticket/show/%d", d.ID), nil, tok).Decode(t, &shown)
	if shown.Notice != support.MsgClosed || len(shown.Interactions) != 4 || shown.ClosedAt == nil {
		t.Fatalf("closed ticket %+v", shown)
	}
	// The refused reply stored nothing.
	var files int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM ticket_attachments`).Scan(&files)
	if files != 3 {
		t.Fatalf("%d attachments stored, want 3", files)
	}
	// Customers cannot reach the staff routes.
	e.Must(404, "POST", path("state"), map[string]int{"state": 5}, tok)
}

// TestAttachmentsCheckedByContent: the allowed kinds pass; a renamed .exe, a wrong
// extension, an empty file, more than 10 MB and more than five files are refused
// with nothing written.
func TestAttachmentsCheckedByContent(t *testing.T) {
	e := apitest.Start(t, nil)
	tok := user(e, "attacher", "09120000102")
	d := open(e, tok, part{"a.png", pngBytes}, part{"b.pdf", pdfBytes}, part{"c.zip", zipBytes}, part{"d.JPG", jpegBytes()})
	if n := len(d.Interactions[0].Attachments); n != 4 {
		t.Fatalf("%d attachments", n)
	}
	big := append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte("x"), support.MaxAttachment)...)
	cases := []struct {
		name  string
		files []part
	}{
		{"renamed exe", []part{{"invoice.pdf", exeBytes}}},
		{"exe", []part{{"setup.exe", exeBytes}}},
		{"png named zip", []part{{"a.zip", pngBytes}}},
		{"empty", []part{{"a.png", nil}}},
		{"over 10 MB", []part{{"big.pdf", big}}},
		{"six files", []part{{"1.png", pngBytes}, {"2.png", pngBytes}, {"3.png", pngBytes}, {"4.png", pngBytes}, {"5.png", pngBytes}, {"6.png", pngBytes}}},
		{"one good one bad", []part{{"ok.png", pngBytes}, {"bad.pdf", exeBytes}}},
	}
	for _, c := range cases {
		r := form(e, "/v1/api/ticket/interaction", tok, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "پیوست"}, c.files...)
		if r.Status != 422 || !strings.Contains(string(r.Raw), "attachments") {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
		}
	}
	var interactions, files int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM ticket_interactions), (SELECT count(*) FROM ticket_attachments)`).
		Scan(&interactions, &files)
	if interactions != 1 || files != 4 {
		t.Fatalf("after refusals: %d interactions, %d attachments", interactions, files)
	}
	// The stored file comes back byte for byte.
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/v1/api/ticket/attachment/%d", e.URL, d.Interactions[0].Attachments[1].ID), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, pdfBytes) || res.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("download %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

func jpegBytes() []byte {
	return append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), bytes.Repeat([]byte{0}, 64)...)
}

// TestRatings: only staff answers, once each, 1–5; the ticket only once it is closed.
func TestRatings(t *testing.T) {
	e := apitest.Start(t, nil)
	tok := user(e, "rater", "09120000103")
	staff := e.Staff("agent2", "09120000192")
	d := open(e, tok)
	var answered support.Detail
	r := staffAnswer(e, staff, d.ID, "")
	if r.Status != 200 {
		t.Fatalf("answer: %d %s", r.Status, r.Raw)
	}
	r.Decode(t, &answered)
	own, reply := answered.Interactions[0].ID, answered.Interactions[1].ID
	if !answered.Interactions[1].Staff {
		t.Fatalf("%+v", answered.Interactions)
	}
	e.Must(409, "POST", "/v1/api/interaction/rate", map[string]any{"id": own, "rating": 5}, tok)
	for _, bad := range []int{0, 6, -1} {
		e.Must(422, "POST", "/v1/api/interaction/rate", map[string]any{"id": reply, "rating": bad}, tok)
	}
	var rated support.Detail
	e.Must(200, "POST", "/v1/api/interaction/rate", map[string]any{"id": reply, "rating": 4}, tok).Decode(t, &rated)
	if r := rated.Interactions[1].Rating; r == nil || *r != 4 {
		t.Fatalf("rating %v", r)
	}
	e.Must(409, "POST", "/v1/api/interaction/rate", map[string]any{"id": reply, "rating": 5}, tok)
	e.Must(409, "POST", "/v1/api/ticket/rate", map[string]any{"id": d.ID, "rating": 5}, tok)
	e.Must(200, "POST", "/v1/api/ticket/close", map[string]int64{"id": d.ID}, tok)
	e.Must(422, "POST", "/v1/api/ticket/rate", map[string]any{"id": d.ID, "rating": 9}, tok)
	e.Must(200, "POST", "/v1/api/ticket/rate", map[string]any{"id": d.ID, "rating": 5, "comment": "سریع و دقیق"}, tok)
	e.Must(409, "POST", "/v1/api/ticket/rate", map[string]any{"id": d.ID, "rating": 1}, tok)
	other := user(e, "rater2", "09120000104")
	e.Must(404, "POST", "/v1/api/interaction/rate", map[string]any{"id": reply, "rating": 5}, other)
}

// TestAccountIsolation: another account's request is 404 everywhere and in no list.
func TestAccountIsolation(t *testing.T) {
	e := apitest.Start(t, nil)
	a := user(e, "owner_a", "09120000105")
	b := user(e, "owner_b", "09120000106")
	d := open(e, a, part{"a.png", pngBytes})
	e.Must(404, "GET", fmt.Sprintf("/v1/api/ticket/show/%d", d.ID), nil, b)
	e.Must(404, "POST", "/v1/api/ticket/close", map[string]int64{"id": d.ID}, b)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/ticket/attachment/%d", d.Interactions[0].Attachments[0].ID), nil, b)
	if r := form(e, "/v1/api/ticket/interaction", b, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "x"}); r.Status != 404 {
		t.Fatalf("reply to another's: %d", r.Status)
	}
	var rows []support.Ticket
	e.Must(200, "GET", "/v1/api/ticket", nil, b).Decode(t, &rows)
	if len(rows) != 0 {
		t.Fatalf("b sees %+v", rows)
	}
	e.Must(200, "GET", "/v1/api/ticket", nil, a).Decode(t, &rows)
	if len(rows) != 1 || rows[0].ID != d.ID {
		t.Fatalf("a sees %+v", rows)
	}
}

// TestFAQAndContact: the seeded FAQ is searchable, staff edits show to customers, the
// contact info is served.
func TestFAQAndContact(t *testing.T) {
	e := apitest.Start(t, nil)
	tok := user(e, "reader", "09120000107")
	staff := e.Staff("agent3", "09120000193")
	var cats []support.FAQCategory
	e.Must(200, "GET", "/v1/api/faq/category", nil, tok).Decode(t, &cats)
	if len(cats) < 3 {
		t.Fatalf("categories %+v", cats)
	}
	var faqs []support.FAQ
	e.Must(200, "GET", "/v1/api/faq/list?search="+urlq("لغو۱۱"), nil, tok).Decode(t, &faqs)
	if len(faqs) != 1 {
		t.Fatalf("search: %+v", faqs)
	}
	var saved support.FAQ
	e.Must(200, "POST", "/v1/api/admin/support/faq", map[string]any{"category_id": cats[0].ID, "question": "پرسش تازه زرافه",
		"answer": "پاسخ", "active": true}, staff).Decode(t, &saved)
	e.Must(200, "GET", "/v1/api/faq/list?search="+urlq("زرافه"), nil, tok).Decode(t, &faqs)
	if len(faqs) != 1 || faqs[0].ID != saved.ID {
		t.Fatalf("new question: %+v", faqs)
	}
	e.Must(422, "POST", "/v1/api/admin/support/faq", map[string]any{"category_id": 0, "question": ""}, staff)
	e.Must(404, "POST", "/v1/api/admin/support/faq", map[string]any{"category_id": cats[0].ID, "question": "x", "answer": "y"}, tok)
	var contact []map[string]any
	e.Must(200, "GET", "/v1/api/panel/contact_info", nil, tok).Decode(t, &contact)
	if len(contact) == 0 {
		t.Fatal("no contact info")
	}
	e.Must(201, "POST", "/v1/api/ticket/feedback", map[string]any{"rating": 4, "text": "پنل خوبی است"}, tok)
	e.Must(422, "POST", "/v1/api/ticket/feedback", map[string]any{"rating": 0}, tok)
}

func urlq(s string) string { return url.QueryEscape(s) }

// TestStaffQueueAndCanned: the queue filters by state, account and assignment; canned
// answers are staff's own list.
func TestStaffQueueAndCanned(t *testing.T) {
	e := apitest.Start(t, nil)
	a := user(e, "queue_a", "09120000108")
	b := user(e, "queue_b", "09120000109")
	staff := e.Staff("agent4", "09120000194")
	da, db := open(e, a), open(e, b)
	var me struct {
		ID int64 `json:"id"`
	}
	e.Must(200, "GET", "/v1/api/admin/me", nil, staff).Decode(t, &me)
	var rows []support.Ticket
	list := func(q string) []support.Ticket {
		t.Helper()
		e.Must(200, "GET", "/v1/api/admin/support/tickets?"+q, nil, staff).Decode(t, &rows)
		return rows
	}
	if got := list(""); len(got) != 2 {
		t.Fatalf("queue %+v", got)
	}
	if got := list(fmt.Sprintf("account_id=%d", da.AccountID)); len(got) != 1 || got[0].ID != da.ID {
		t.Fatalf("by account %+v", got)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/support/tickets/%d/assign", db.ID), map[string]int64{"staff_id": me.ID}, staff)
	e.Must(422, "POST", fmt.Sprintf("/v1/api/admin/support/tickets/%d/assign", db.ID), map[string]int64{"staff_id": 999999}, staff)
	if got := list(fmt.Sprintf("assigned_to=%d", me.ID)); len(got) != 1 || got[0].ID != db.ID || got[0].AssignedName == "" {
		t.Fatalf("assigned %+v", got)
	}
	if got := list("assigned_to=none"); len(got) != 1 || got[0].ID != da.ID {
		t.Fatalf("unassigned %+v", got)
	}
	staffAnswer(e, staff, da.ID, "")
	if got := list("state=3"); len(got) != 1 || got[0].ID != da.ID {
		t.Fatalf("answered %+v", got)
	}
	if got := list("from=1400-01-01&to=1401-01-01"); len(got) != 0 {
		t.Fatalf("old dates %+v", got)
	}
	e.Must(422, "GET", "/v1/api/admin/support/tickets?from=notadate", nil, staff)
	var c support.Canned
	e.Must(200, "POST", "/v1/api/admin/support/canned", map[string]string{"title": "سلام", "text": "سلام، وقت بخیر"}, staff).Decode(t, &c)
	var all []support.Canned
	e.Must(200, "GET", "/v1/api/admin/support/canned", nil, staff).Decode(t, &all)
	if len(all) < 5 {
		t.Fatalf("canned %+v", all)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/support/canned/%d/delete", c.ID), nil, staff)
	e.Must(404, "POST", fmt.Sprintf("/v1/api/admin/support/canned/%d/delete", c.ID), nil, staff)
	e.Must(404, "GET", "/v1/api/admin/support/canned", nil, a)
}

// TestMessageRate: an account's new requests and replies are bounded per hour (429
// with Retry-After); another account is not affected.
func TestMessageRate(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Deps.Support.PerHour = 3
	tok := user(e, "hasty", "09120000110")
	d := open(e, tok)
	for i := 0; i < 2; i++ {
		if r := form(e, "/v1/api/ticket/interaction", tok, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "باز هم"}); r.Status != 200 {
			t.Fatalf("reply %d: %d", i, r.Status)
		}
	}
	r := form(e, "/v1/api/ticket/interaction", tok, map[string]string{"ticket_id": fmt.Sprint(d.ID), "text": "یک بار دیگر"})
	if r.Status != 429 {
		t.Fatalf("fourth message: %d %s", r.Status, r.Raw)
	}
	open(e, user(e, "calm", "09120000111"))
}

// TestAttachmentsInFileManagement: ticket attachments are listed in the file
// management under their own category, download through it byte for byte, are
// not deletable on their own, and are the owner's only.
func TestAttachmentsInFileManagement(t *testing.T) {
	e := apitest.Start(t, nil)
	tok := user(e, "filer", "09120000112")
	other := user(e, "snoop", "09120000113")
	open(e, tok, part{"scan.pdf", pdfBytes})
	var list struct {
		Items []struct {
			ID        int64  `json:"id"`
			Name      string `json:"name"`
			Deletable bool   `json:"deletable"`
			Download  string `json:"download"`
		}
	}
	r := e.Must(200, "GET", "/v1/api/user/files?category="+support.CategoryAttachment, nil, tok)
	r.Decode(t, &list.Items)
	if len(list.Items) != 1 || list.Items[0].Name != "scan.pdf" || list.Items[0].Deletable || list.Items[0].Download == "" {
		t.Fatalf("listed %s", r.Raw)
	}
	get := func(token string) (int, []byte) {
		req, _ := http.NewRequest("GET", e.URL+"/v1/api"+list.Items[0].Download, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	if st, b := get(tok); st != 200 || !bytes.Equal(b, pdfBytes) {
		t.Fatalf("download %d", st)
	}
	if st, _ := get(other); st != 404 {
		t.Fatalf("another account's download %d", st)
	}
	if r := e.Must(200, "GET", "/v1/api/user/files?category="+support.CategoryAttachment, nil, other); strings.Contains(string(r.Raw), "scan.pdf") {
		t.Fatalf("listed to another account: %s", r.Raw)
	}
}
