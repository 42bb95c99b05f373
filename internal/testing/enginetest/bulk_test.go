package enginetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/send"
)

// fileReport is the part of GET /user/files/{id} the tests read.
type fileReport struct {
	ID          int64  `json:"id"`
	Status      string `json:"status"`
	Error       string `json:"error"`
	Records     int    `json:"records"`
	Valid       int    `json:"valid"`
	Invalid     int    `json:"invalid"`
	Duplicates  int    `json:"duplicates"`
	Blacklisted int    `json:"blacklisted"`
}

// upload posts a file through the API and waits for its pre-flight report.
func upload(t *testing.T, e *enginetest.Engine, token, name, purpose string, content []byte) fileReport {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(content)
	_ = mw.WriteField("purpose", purpose)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.URL+"/v1/api/user/files", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var env struct{ Data fileReport }
	if res.StatusCode != 201 || json.Unmarshal(raw, &env) != nil {
		t.Fatalf("upload %s: %d %s", name, res.StatusCode, raw)
	}
	var rep fileReport
	e.Wait("the file parsed", 30*time.Second, func() bool {
		e.Must(200, "GET", fmt.Sprintf("/v1/api/user/files/%d", env.Data.ID), nil, token).Decode(t, &rep)
		return rep.Status != "parsing"
	})
	if rep.Status != "ready" {
		t.Fatalf("file %s: %+v", name, rep)
	}
	return rep
}

func xlsxOf(t *testing.T, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func recipientOf(t *testing.T, e *enginetest.Engine, sendID int64, mobile string) (status, cost int64) {
	t.Helper()
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, cost FROM recipients WHERE send_id = $1 AND mobile = $2`,
		sendID, mobile).Scan(&status, &cost); err != nil {
		t.Fatalf("recipient %s: %v", mobile, err)
	}
	return status, cost
}

// A file send: duplicates, invalid rows, a blacklisted and an opted-out number are
// counted in the pre-flight report and the quote; only the rest is sent and paid.
func TestFileSendCountsAndMoney(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("filer", "09121110010", "30009999", "service", 10_000_000)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{"09121239999"}, "kind": "send"}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{"09351239998"}, "kind": "cancel11"}, token)
	lines := []string{"شماره موبایل,نام"}
	for i := 0; i < 6; i++ {
		lines = append(lines, fmt.Sprintf("0912123%04d,a%d", i, i))
	}
	lines = append(lines,
		"9351234000,numeric-cell", "989201234000,with-98", "۰۹۰۱۲۳۴۵۰۰۰,persian-digits", "+98 990 123 4000,spaced",
		"09121230000,dup", "09121230001,dup",
		"12345,bad", "9.89121E+11,scientific",
		",",
		"09121239999,blacklisted", "09351239998,opted-out")
	rep := upload(t, e, token, "numbers.csv", "send", []byte(strings.Join(lines, "\n")+"\n"))
	if rep.Records != 16 || rep.Valid != 12 || rep.Duplicates != 2 || rep.Invalid != 2 || rep.Blacklisted != 2 {
		t.Fatalf("pre-flight %+v", rep)
	}
	body := map[string]any{"type": "file", "file_id": rep.ID, "text": "جشنواره", "sender": "30009999"}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Recipients != 10 || q.Blacklisted != 2 || q.Duplicates != 2 || q.Invalid != 2 || q.Requested != 16 || len(q.PerOperator) != 3 {
		t.Fatalf("quote %+v", q)
	}
	before := credit(t, e, token)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	if a.Price != q.Price || credit(t, e, token) != before-q.Price {
		t.Fatalf("accepted %+v for quote %d", a, q.Price)
	}
	e.Wait("the file send done", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == 10
	})
	if s := sendStats(t, e, a.ID); s.Recipients != 10 || s.Blacklisted != 2 {
		t.Fatalf("stats %+v", s)
	}
	for _, m := range []string{"989121239999", "989351239998"} {
		if st, cost := recipientOf(t, e, a.ID, m); st != 4 || cost != 0 {
			t.Fatalf("%s: status %d cost %d", m, st, cost)
		}
		if len(e.Sim.Messages(m)) != 0 {
			t.Fatalf("%s received a message", m)
		}
	}
	for _, m := range []string{"989351234000", "989201234000", "989012345000", "989901234000"} {
		if msg, ok := e.Sim.Latest(m); !ok || msg.Text != "جشنواره" {
			t.Fatalf("%s got %+v", m, msg)
		}
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != q.Price || taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d, quoted %d", taken, q.Price)
	}
	// Another account cannot send from this file.
	other, _ := e.Account("thief", "09121110011", "30009998", "service", 1_000_000)
	r := e.Do("POST", "/v1/api/send", map[string]any{"type": "file", "file_id": rep.ID, "text": "x", "sender": "30009998"}, other)
	if r.Status != 422 || r.Meta.Errors["file_id"][0] != send.MsgFileNotFound {
		t.Fatalf("foreign file: %d %+v", r.Status, r.Meta)
	}
}

// Peer-to-peer and keyword sends: every handset receives its own rendered text,
// and each row is priced by its own parts.
func TestPeerToPeerAndKeywordTexts(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("personal", "09121110012", "30001212", "service", 10_000_000)
	long := strings.Repeat("بلند ", 20) // 100 characters: two UCS-2 parts
	p2p := upload(t, e, token, "p2p.xlsx", "peer_to_peer", xlsxOf(t, [][]any{
		{"متن پیام", "شماره موبایل"},
		{"سلام علی", "09121231001"},
		{"Hello Sara", 9351231002},
		{long, "09201231003"},
	}))
	var q send.Quote
	body := map[string]any{"type": "peer_to_peer", "file_id": p2p.ID, "sender": "30001212"}
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Recipients != 3 || q.Parts != 2 || q.TotalParts != 4 {
		t.Fatalf("p2p quote %+v", q)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)

	kw := upload(t, e, token, "keyword.csv", "send", []byte("mobile,name,code\n09121231004,مریم,A-17\n09121231005,رضا,B-42\n"))
	kbody := map[string]any{"type": "keyword", "file_id": kw.ID, "sender": "30001212", "text": "{ex_B} عزیز، کد تخفیف شما {{ex_C}}"}
	var k send.Accepted
	e.Must(201, "POST", "/v1/api/send", kbody, token).Decode(t, &k)
	r := e.Do("POST", "/v1/api/send/calculate-price", map[string]any{"type": "keyword", "file_id": kw.ID, "sender": "30001212", "text": "بدون برچسب"}, token)
	if r.Status != 422 || r.Meta.Errors["text"][0] != send.MsgKeywordNoTag {
		t.Fatalf("keyword without tags: %d %+v", r.Status, r.Meta)
	}
	for _, id := range []int64{a.ID, k.ID} {
		e.Wait("sent", 30*time.Second, func() bool { s := sendStats(t, e, id); return s.Status == "done" })
		if taken := ledgerBalanced(t, e, acct, id); taken != charged(t, e, id) {
			t.Fatalf("send %d: ledger took %d", id, taken)
		}
	}
	want := map[string]string{"989121231001": "سلام علی", "989351231002": "Hello Sara", "989201231003": long,
		"989121231004": "مریم عزیز، کد تخفیف شما A-17", "989121231005": "رضا عزیز، کد تخفیف شما B-42"}
	for m, text := range want {
		if msg, ok := e.Sim.Latest(m); !ok || msg.Text != strings.TrimSpace(text) {
			t.Fatalf("%s got %q, want %q", m, msg.Text, text)
		}
	}
	if st := e.Sim.Stats(); st.Duplicates != 0 {
		t.Fatalf("duplicates %+v", st)
	}
}

// A phonebook send: a number in two phonebooks goes once; the blacklisted and the
// one that just answered «11» get status 4 and cost nothing.
func TestPhonebookSendRespectsLists(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {}})
	token, acct := e.Account("books", "09121110013", "30001313", "advertising", 10_000_000)
	var pb1, pb2 struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, token).Decode(t, &pb1)
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "همکاران"}, token).Decode(t, &pb2)
	contacts := func(nums ...string) []map[string]any {
		var out []map[string]any
		for _, n := range nums {
			out = append(out, map[string]any{"number": n, "name": "x" + n[len(n)-2:]})
		}
		return out
	}
	e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": pb1.ID,
		"contacts": contacts("09121232001", "09121232002", "09121232003", "09121232004")}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": pb2.ID,
		"contacts": contacts("09121232004", "09351232005")}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{"09121232002"}, "kind": "send"}, token)
	if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121232003", To: "30001313", Text: "11"}); err != nil {
		t.Fatal(err)
	}
	e.Wait("the opt-out stored", 10*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM blacklist WHERE account_id = $1 AND kind = 'cancel11'
			AND mobile = '989121232003'`, acct).Scan(&n)
		return n == 1
	})
	r := e.Do("POST", "/v1/api/send/calculate-price", map[string]any{"type": "phonebook", "text": "x", "sender": "30001313"}, token)
	if r.Status != 422 || r.Meta.Errors["phonebook_ids"][0] != send.MsgPhonebookRequired {
		t.Fatalf("no phonebook: %d %+v", r.Status, r.Meta)
	}
	body := map[string]any{"type": "phonebook", "phonebook_ids": []int64{pb1.ID, pb2.ID}, "text": "اطلاعیه", "sender": "30001313"}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Requested != 6 || q.Duplicates != 1 || q.Blacklisted != 2 || q.Recipients != 3 {
		t.Fatalf("quote %+v", q)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Wait("the phonebook send done", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == 3
	})
	for _, m := range []string{"989121232002", "989121232003"} {
		if st, cost := recipientOf(t, e, a.ID, m); st != 4 || cost != 0 {
			t.Fatalf("%s: status %d cost %d", m, st, cost)
		}
	}
	if n := len(e.Sim.Messages("989121232004")); n != 1 {
		t.Fatalf("the number in two phonebooks received %d messages", n)
	}
	if msg, _ := e.Sim.Latest("989351232005"); msg.Text != "اطلاعیه\nلغو۱۱" {
		t.Fatalf("got %q", msg.Text)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != q.Price || taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d, quoted %d", taken, q.Price)
	}
	// Someone else's phonebook cannot be sent to.
	other, _ := e.Account("nosy", "09121110014", "30001314", "service", 1_000_000)
	r = e.Do("POST", "/v1/api/send", map[string]any{"type": "phonebook", "phonebook_ids": []int64{pb1.ID}, "text": "x", "sender": "30001314"}, other)
	if r.Status != 422 || r.Meta.Errors["phonebook_ids"][0] != send.MsgPhonebookNotFound {
		t.Fatalf("foreign phonebook: %d %+v", r.Status, r.Meta)
	}
}
