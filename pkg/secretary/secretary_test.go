package secretary_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/secretary"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

const base = "/v1/api/phonebooks/advanced-services/advanced-reader"

type fixture struct {
	e     *enginetest.Engine
	token string
	acct  int64
	line  string
}

func start(t *testing.T, user, mobile, line string) *fixture {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account(user, mobile, line, "service", 50_000_000)
	// Secretaries and keyword readers come with the pro plan.
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE accounts SET plan = 'pro' WHERE id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	return &fixture{e: e, token: token, acct: acct, line: line}
}

// create makes a reader through the API and approves it as staff.
func (f *fixture) create(t *testing.T, in map[string]any) secretary.Reader {
	t.Helper()
	in["line"] = f.line
	var r secretary.Reader
	f.e.Must(201, "POST", base, in, f.token).Decode(t, &r)
	if r.Status != secretary.StatusPending {
		t.Fatalf("new reader status %q", r.Status)
	}
	var item int64
	if err := f.e.DB.Pool.QueryRow(context.Background(), `SELECT id FROM review_items WHERE kind = 'reader' AND subject_id = $1
		AND status = 'pending'`, r.ID).Scan(&item); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.Deps.Reviews.Decide(context.Background(), item, review.Decision{Approve: true, Staff: acl.Identity{Username: "staff"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

func (f *fixture) mo(t *testing.T, from, text string) {
	t.Helper()
	if _, err := f.e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: f.line, Text: text}); err != nil {
		t.Fatal(err)
	}
}

// replies waits until the handset has n messages and returns their texts.
func (f *fixture) replies(t *testing.T, to string, n int) []string {
	t.Helper()
	f.e.Wait(fmt.Sprintf("%d replies at %s", n, to), 30*time.Second, func() bool { return len(f.e.Sim.Messages(to)) >= n })
	var out []string
	for _, m := range f.e.Sim.Messages(to) {
		out = append(out, m.Text)
	}
	return out
}

// download fetches an Excel export and returns its first sheet's rows.
func (f *fixture) download(t *testing.T, path string) [][]string {
	t.Helper()
	req, _ := http.NewRequest("GET", f.e.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("%s: %d %s", path, res.StatusCode, body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func (f *fixture) entries(t *testing.T, readerID int64) int {
	var n int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM reader_entries WHERE reader_id = $1`, readerID).Scan(&n)
	return n
}

func (f *fixture) sendTypes(t *testing.T) string {
	var types string
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(DISTINCT type, ','), '') FROM sends WHERE account_id = $1`, f.acct).Scan(&types)
	return types
}

// A poll: votes by number and by keyword (Arabic letters normalised), a vote
// changed, an unknown option; live counts; replies charged as «polls» sends.
func TestPoll(t *testing.T) {
	f := start(t, "pollster", "09121110081", "30008181")
	r := f.create(t, map[string]any{"kind": "poll", "title": "رنگ محبوب", "keywords": []string{"نظر"}, "changeable": true,
		"reply": "رأی شما به {option} ثبت شد", "reply_wrong": "گزینه نامعتبر",
		"options": []map[string]any{{"title": "قرمز", "keywords": []string{"قرمز"}}, {"title": "آبی", "keywords": []string{"آبی", "blue"}}}})
	f.mo(t, "989121000101", "نظر ۱")
	f.mo(t, "989121000102", "نظر آبي") // Arabic yeh
	f.mo(t, "989121000103", "نظر 7")
	if got := f.replies(t, "989121000101", 1); got[0] != "رأی شما به قرمز ثبت شد" {
		t.Fatalf("vote reply %q", got)
	}
	f.mo(t, "989121000101", "  نظر   BLUE ")
	if got := f.replies(t, "989121000101", 2); got[1] != "رأی شما به آبی ثبت شد" {
		t.Fatalf("changed vote reply %q", got)
	}
	if got := f.replies(t, "989121000103", 1); got[0] != "گزینه نامعتبر" {
		t.Fatalf("invalid option reply %q", got)
	}
	var st secretary.Stats
	f.e.Must(200, "GET", fmt.Sprintf("%s/%d/results", base, r.ID), nil, f.token).Decode(t, &st)
	if len(st.Votes) != 2 || st.Votes[0].Votes != 0 || st.Votes[1].Votes != 2 || st.Outcomes[secretary.OutChanged] != 1 {
		t.Fatalf("results %+v", st)
	}
	if types := f.sendTypes(t); types != "polls" {
		t.Fatalf("send types %q", types)
	}
	if rows := f.download(t, fmt.Sprintf("/v1/api/phonebooks/advanced-services/module-inboxes-list/export?reader_id=%d", r.ID)); len(rows) != 5 {
		t.Fatalf("entries export: %d rows, want header and 4", len(rows))
	}
}

// A contest: correct, wrong and repeated answers get their replies; a seeded draw
// of the correct entrants repeats with its seed.
func TestContest(t *testing.T) {
	f := start(t, "quizmaster", "09121110082", "30008282")
	r := f.create(t, map[string]any{"kind": "contest", "title": "مسابقه شب", "keywords": []string{"مسابقه"}, "answer": "۴",
		"reply": "آفرین {mobile}", "reply_wrong": "پاسخ نادرست", "reply_repeat": "قبلا شرکت کرده‌اید"})
	for i := range 5 {
		f.mo(t, fmt.Sprintf("98912100020%d", i), "مسابقه 4")
	}
	f.mo(t, "989121000210", "مسابقه ۵")
	if got := f.replies(t, "989121000200", 1); got[0] != "آفرین 09121000200" {
		t.Fatalf("correct reply %q", got)
	}
	f.mo(t, "989121000200", "مسابقه 4")
	if got := f.replies(t, "989121000200", 2); got[1] != "قبلا شرکت کرده‌اید" {
		t.Fatalf("repeat reply %q", got)
	}
	if got := f.replies(t, "989121000210", 1); got[0] != "پاسخ نادرست" {
		t.Fatalf("wrong reply %q", got)
	}
	var d1, d2 secretary.Draw
	f.e.Must(200, "POST", fmt.Sprintf("%s/%d/draw", base, r.ID), map[string]any{"winners": 2}, f.token).Decode(t, &d1)
	f.e.Must(200, "POST", fmt.Sprintf("%s/%d/draw", base, r.ID), map[string]any{"winners": 2, "seed": d1.Seed}, f.token).Decode(t, &d2)
	if d1.Entrants != 5 || len(d1.Winners) != 2 || fmt.Sprint(d1.Winners) != fmt.Sprint(d2.Winners) {
		t.Fatalf("draws %+v %+v", d1, d2)
	}
	for _, w := range d1.Winners {
		if w == "989121000210" {
			t.Fatal("a wrong answer won")
		}
	}
	if types := f.sendTypes(t); types != "matches" {
		t.Fatalf("send types %q", types)
	}
}

// Gift codes: 50 senders at once (and repeats) for 40 codes: every code goes to
// one sender, no sender gets two, the rest hear the codes ran out.
func TestGiftConcurrent(t *testing.T) {
	f := start(t, "giver", "09121110083", "30008383")
	r := f.create(t, map[string]any{"kind": "gift", "title": "هدیه", "keywords": []string{"هدیه"},
		"reply": "کد شما {code}", "reply_wrong": "کدها تمام شد", "reply_repeat": "کد شما قبلا {code} بود"})
	var codes []string
	for i := range 40 {
		codes = append(codes, fmt.Sprintf("GIFT-%03d", i))
	}
	var added map[string]int
	f.e.Must(200, "POST", fmt.Sprintf("%s/%d/codes", base, r.ID), map[string]any{"codes": strings.Join(codes, "\n")}, f.token).Decode(t, &added)
	if added["added"] != 40 {
		t.Fatalf("added %v", added)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			from := fmt.Sprintf("9891210003%02d", i)
			_, _ = f.e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: f.line, Text: "هديه"})
			if i < 5 {
				_, _ = f.e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: f.line, Text: "هدیه"})
			}
		})
	}
	wg.Wait()
	f.e.Wait("55 entries", 30*time.Second, func() bool { return f.entries(t, r.ID) == 55 })
	given := map[string]string{}
	dbRows, err := f.e.DB.Pool.Query(context.Background(), `SELECT code, sender FROM reader_codes WHERE reader_id = $1 AND sender IS NOT NULL`, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for dbRows.Next() {
		var code, sender string
		_ = dbRows.Scan(&code, &sender)
		if prev, dup := given[sender]; dup {
			t.Fatalf("%s got %s and %s", sender, prev, code)
		}
		given[sender] = code
	}
	dbRows.Close()
	if len(given) != 40 {
		t.Fatalf("%d codes given", len(given))
	}
	var nocode int
	_ = f.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM reader_entries WHERE reader_id = $1 AND outcome = 'nocode'`, r.ID).Scan(&nocode)
	// The 10 who came after the 40 codes are told they ran out; one of the five
	// who wrote twice may be among them (the injections race), and is told twice.
	want := 10
	for i := range 5 {
		if _, ok := given[fmt.Sprintf("9891210003%02d", i)]; !ok {
			want++
		}
	}
	if nocode != want {
		t.Fatalf("%d told the codes ran out, want %d", nocode, want)
	}
	for sender, code := range given {
		if got := f.replies(t, sender, 1); got[0] != "کد شما "+code {
			t.Fatalf("%s heard %q, was given %s", sender, got, code)
		}
	}
	rows := f.download(t, fmt.Sprintf("%s/%d/export-codes", base, r.ID))
	if len(rows) != 41 {
		t.Fatalf("codes export: %d rows", len(rows))
	}
	for _, row := range rows[1:] {
		if len(row) < 2 || given[row[1]] != row[0] {
			t.Fatalf("codes export row %v", row)
		}
	}
}

// The received-message secretary answers every message, adds the sender to its
// phonebook, counts visits per sender; once expired it answers nothing more; a
// sender on the receive blacklist is never answered.
func TestSecretaryExpiryBlacklistVisit(t *testing.T) {
	f := start(t, "secretary", "09121110084", "30008484")
	ctx := context.Background()
	var pb int64
	if err := f.e.DB.Pool.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'مشتریان', 'c1') RETURNING id`, f.acct).Scan(&pb); err != nil {
		t.Fatal(err)
	}
	visit := f.create(t, map[string]any{"kind": "visit", "title": "مراجعه", "keywords": []string{"ورود"}, "reply": "مراجعه شماره {count}"})
	sec := f.create(t, map[string]any{"kind": "secretary", "title": "منشی", "reply": "پیام شما رسید", "phonebook_id": pb})
	f.mo(t, "989121000401", "سلام")
	f.mo(t, "989121000402", "ورود")
	if got := f.replies(t, "989121000401", 1); got[0] != "پیام شما رسید" {
		t.Fatalf("secretary reply %q", got)
	}
	// Each visit's reply is its own send, so two may reach the carrier in either
	// order: the second visit comes once the first is answered.
	if got := f.replies(t, "989121000402", 1); got[0] != "مراجعه شماره 1" {
		t.Fatalf("first visit reply %q", got)
	}
	f.mo(t, "989121000402", "ورود")
	if got := f.replies(t, "989121000402", 2); got[0] != "مراجعه شماره 1" || got[1] != "مراجعه شماره 2" {
		t.Fatalf("visit replies %q", got)
	}
	var members int
	_ = f.e.DB.Pool.QueryRow(ctx, `SELECT members FROM phonebooks WHERE id = $1`, pb).Scan(&members)
	if members != 1 {
		t.Fatalf("phonebook members %d", members)
	}
	if _, err := f.e.DB.Pool.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile) VALUES ($1, 'receive', '989121000403')`, f.acct); err != nil {
		t.Fatal(err)
	}
	f.mo(t, "989121000403", "سلام")
	if _, err := f.e.DB.Pool.Exec(ctx, `UPDATE readers SET expires_at = now() - interval '1 second' WHERE id = $1`, sec.ID); err != nil {
		t.Fatal(err)
	}
	f.mo(t, "989121000404", "سلام")
	f.e.Wait("the late message stored", 10*time.Second, func() bool {
		var n int
		_ = f.e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM inbox WHERE account_id = $1 AND sender = '989121000404'`, f.acct).Scan(&n)
		return n == 1
	})
	time.Sleep(time.Second)
	if n := f.entries(t, sec.ID); n != 1 {
		t.Fatalf("secretary answered %d messages, want 1 (blacklisted and expired ones unanswered)", n)
	}
	if m := f.e.Sim.Messages("989121000404"); len(m) != 0 {
		t.Fatalf("expired secretary replied: %+v", m)
	}
	if m := f.e.Sim.Messages("989121000403"); len(m) != 0 {
		t.Fatalf("blacklisted sender answered: %+v", m)
	}
	if types := f.sendTypes(t); !strings.Contains(types, "secretary") || !strings.Contains(types, "reader") {
		t.Fatalf("send types %q", types)
	}
	_ = visit
}

// A secretary answering a number of the bank the account reached through a targeted
// send: the reply reaches it, but the number is not added to the phonebook, the
// secretary's inbox shows it masked and the reply send's report is masked.
func TestSecretaryMasksBankNumbers(t *testing.T) {
	f := start(t, "bankreader", "09121110085", "30008585")
	ctx := context.Background()
	const reached = "989121000501"
	var pb int64
	if err := f.e.DB.Pool.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'مشتریان', 'c1') RETURNING id`, f.acct).Scan(&pb); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.DB.Pool.Exec(ctx, `INSERT INTO bank_reached (account_id, mobile) VALUES ($1, $2)`, f.acct, reached); err != nil {
		t.Fatal(err)
	}
	sec := f.create(t, map[string]any{"kind": "secretary", "title": "منشی", "reply": "پیام {mobile} رسید", "phonebook_id": pb})
	f.mo(t, reached, "سلام")
	if got := f.replies(t, reached, 1); got[0] != "پیام 0912*****01 رسید" {
		t.Fatalf("secretary reply %q: {mobile} of a bank number is masked (the account reads the reply)", got)
	}
	var members, masked int
	_ = f.e.DB.Pool.QueryRow(ctx, `SELECT members FROM phonebooks WHERE id = $1`, pb).Scan(&members)
	if members != 0 {
		t.Fatalf("a bank number joined the phonebook (%d members)", members)
	}
	var entries []secretary.Entry
	f.e.Must(200, "GET", fmt.Sprintf("/v1/api/phonebooks/advanced-services/module-inboxes-list?reader_id=%d", sec.ID), nil, f.token).Decode(t, &entries)
	if len(entries) != 1 || entries[0].Sender != "0912*****01" || strings.Contains(entries[0].Reply, "1000501") {
		t.Fatalf("the secretary's inbox: %+v", entries)
	}
	f.e.Wait("the reply send recorded", 10*time.Second, func() bool {
		_ = f.e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM sends WHERE account_id = $1 AND masked`, f.acct).Scan(&masked)
		return masked == 1
	})
}

// TestBankReachKeepsWholeSendersWhole: a number the account has already seen whole
// (a secretary's entry, an inbox message) stays whole after a bank send of the
// account reaches it, in the old rows and in its next message: a sender turning
// masked would tell that the send reached the number.
func TestBankReachKeepsWholeSendersWhole(t *testing.T) {
	f := start(t, "wholereader", "09121110086", "30008686")
	ctx := context.Background()
	const known = "989121000502"
	sec := f.create(t, map[string]any{"kind": "secretary", "title": "منشی", "reply": "پیام شما رسید"})
	list := func() []secretary.Entry {
		var entries []secretary.Entry
		f.e.Must(200, "GET", fmt.Sprintf("/v1/api/phonebooks/advanced-services/module-inboxes-list?reader_id=%d", sec.ID), nil, f.token).
			Decode(t, &entries)
		return entries
	}
	f.mo(t, known, "سلام")
	f.replies(t, known, 1)
	if got := list(); len(got) != 1 || got[0].Sender != known {
		t.Fatalf("before the bank send: %+v", got)
	}
	if _, err := f.e.DB.Pool.Exec(ctx, `INSERT INTO bank_reached (account_id, mobile) VALUES ($1, $2)`, f.acct, known); err != nil {
		t.Fatal(err)
	}
	f.mo(t, known, "دوباره سلام")
	f.replies(t, known, 2)
	got := list()
	if len(got) != 2 || got[0].Sender != known || got[1].Sender != known {
		t.Fatalf("a sender seen whole turned masked after a bank send reached it: %+v", got)
	}
	var masked int
	if err := f.e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM inbox WHERE account_id = $1 AND masked`, f.acct).Scan(&masked); err != nil || masked != 0 {
		t.Fatalf("%d inbox messages masked (%v)", masked, err)
	}
}
