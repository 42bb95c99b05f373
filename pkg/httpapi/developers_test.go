package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// sendKey creates a key of the line owner that may send, read reports, credit and lines.
func sendKey(t *testing.T, e *apitest.Env, token, mobile string) string {
	t.Helper()
	return newKey(t, e, token, mobile, map[string]any{"title": "فروشگاه",
		"scopes": []acl.Permission{acl.SendCreate, acl.SendCancel, acl.ReportView, acl.WalletView, acl.NumberView}}).Secret
}

type statusOut struct {
	report.Stats
	LocalID string `json:"local_id"`
}

// A send made with an API key carries the client's local_id: its status is found
// by our id or by the local_id; a local_id is unique per account (409), checked
// (422), and another account's is not found.
func TestSendLocalID(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acct := lineOwner(t, e, "localid", "09121261001", 1_000_000)
	key := sendKey(t, e, tok, "09121261001")
	form := map[string]any{"text": "سفارش شما ثبت شد", "numbers": []string{"09121234001"}, "local_id": "order-77"}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", form, "", "apikey", key).Decode(t, &a)
	var byID, byLocal statusOut
	e.Must(200, "GET", "/v1/api/send/status?id="+strconv.FormatInt(a.ID, 10), nil, key).Decode(t, &byID)
	e.Must(200, "GET", "/v1/api/send/status?local_id=order-77", nil, key).Decode(t, &byLocal)
	if byID.ID != a.ID || byLocal.ID != a.ID || byLocal.LocalID != "order-77" || byLocal.Requested != 1 {
		t.Fatalf("by id %+v, by local id %+v", byID, byLocal)
	}
	r := e.Do("POST", "/v1/api/send", form, key)
	if r.Status != 409 || r.Meta.MessageCode != send.CodeLocalIDTaken || r.Meta.Message != send.MsgLocalIDTaken {
		t.Fatalf("local_id again: %d %s", r.Status, r.Raw)
	}
	if n := countSends(t, e, acct); n != 1 {
		t.Fatalf("%d sends after a refused local_id", n)
	}
	form["local_id"] = "سفارش ۷۷"
	if r := e.Do("POST", "/v1/api/send", form, key); r.Status != 422 || r.Meta.Errors["local_id"][0] != send.MsgLocalIDChars {
		t.Fatalf("bad local_id: %d %s", r.Status, r.Raw)
	}
	e.Must(422, "GET", "/v1/api/send/status", nil, key)
	e.Must(404, "GET", "/v1/api/send/status?local_id=order-78", nil, key)
	other, otherAcct := owner(t, e, "localid2", "09121261002")
	if _, err := e.Deps.Lines.Add(context.Background(), otherAcct, "30004042", line.KindService, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(context.Background(), wallet.Entry{AccountID: otherAcct, Kind: wallet.AdminCredit, Amount: 100_000}); err != nil {
		t.Fatal(err)
	}
	e.Must(404, "GET", "/v1/api/send/status?local_id=order-77", nil, other)
	e.Must(404, "GET", "/v1/api/send/status?id="+strconv.FormatInt(a.ID, 10), nil, other)
	// The same local_id in another account is that account's own.
	delete(form, "local_id")
	form["local_id"] = "order-77"
	e.Must(201, "POST", "/v1/api/send", form, other)
}

// Credit and lines answer an API key, with the rate-limit headers.
func TestPublicSetWithKey(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := lineOwner(t, e, "pubset", "09121261003", 500_000)
	key := sendKey(t, e, tok, "09121261003")
	var credit struct {
		Credit int64 `json:"credit"`
	}
	r := e.Must(200, "GET", "/v1/api/payment/credit/mine", nil, "", "apikey", key)
	r.Decode(t, &credit)
	if credit.Credit != 500_000 || r.Header.Get("X-RateLimit-Limit") == "" || r.Header.Get("X-RateLimit-Remaining") == "" {
		t.Fatalf("credit %d, headers %v", credit.Credit, r.Header)
	}
	var lines []line.Line
	e.Must(200, "GET", "/v1/api/number/numbers", nil, key).Decode(t, &lines)
	if len(lines) != 2 || lines[0].Number != "30004040" || !lines[0].IsDefault {
		t.Fatalf("lines %+v", lines)
	}
}

// get calls a URL and returns its status and body.
func get(t *testing.T, u string) (int, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// The HTTP-GET send: the key in the query sends (JSON or plain text), a bad key is
// 401, a bad number 422, no credit 402; a session token in the query is not taken;
// the key never reaches the log.
func TestSimpleSend(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acct := lineOwner(t, e, "simple", "09121261004", 1_000_000)
	key := sendKey(t, e, tok, "09121261004")
	var buf bytes.Buffer
	deps := httpapi.Wire(e.Config, slog.New(slog.NewTextHandler(&buf, nil)), e.DB.Pool, e.Redis.Client, e.Queue, nil)
	srv := httptest.NewServer(httpapi.New(deps))
	defer srv.Close()
	q := url.Values{"apikey": {key}, "to": {"09121234001,09121234002"}, "text": {"سلام"}, "from": {"30004040"}}
	simple := func(v url.Values) (int, string) { return get(t, srv.URL+"/v1/api/send/simple?"+v.Encode()) }

	st, body := simple(q)
	if st != 201 || !strings.Contains(body, `"status":"queued"`) {
		t.Fatalf("json send: %d %s", st, body)
	}
	q.Set("format", "text")
	st, body = simple(q)
	id, err := strconv.ParseInt(body, 10, 64)
	if st != 201 || err != nil || id <= 0 {
		t.Fatalf("text send: %d %q", st, body)
	}
	if n := countSends(t, e, acct); n != 2 {
		t.Fatalf("%d sends", n)
	}
	bad := url.Values{"apikey": {key[:len(key)-2] + "xx"}, "to": {"09121234001"}, "text": {"x"}, "format": {"text"}}
	if st, body := simple(bad); st != 401 || !strings.HasPrefix(body, "ERROR 401") {
		t.Fatalf("bad key: %d %s", st, body)
	}
	bad.Set("apikey", tok) // a session token is never read from the URL
	if st, _ := simple(bad); st != 401 {
		t.Fatalf("session token in the query: %d", st)
	}
	q.Set("to", "0912")
	if st, body := simple(q); st != 422 || !strings.Contains(body, send.MsgBadNumbers) {
		t.Fatalf("bad number: %d %s", st, body)
	}
	poor, poorAcct := owner(t, e, "simplepoor", "09121261005")
	if _, err := e.Deps.Lines.Add(context.Background(), poorAcct, "30004041", line.KindService, true); err != nil {
		t.Fatal(err)
	}
	pkey := sendKey(t, e, poor, "09121261005")
	q.Set("apikey", pkey)
	q.Set("from", "30004041")
	q.Set("to", "09121234001")
	q.Del("format")
	if st, body := simple(q); st != 402 || !strings.Contains(body, "low-credit") {
		t.Fatalf("no credit: %d %s", st, body)
	}
	srv.Close()
	if out := buf.String(); strings.Contains(out, key[len("chp_live_"):]) || strings.Contains(out, "apikey=") || !strings.Contains(out, "/v1/api/send/simple") {
		t.Fatalf("access log: %s", out)
	}
}

// The public POSTs that create take an Idempotency-Key: a retry answers the first
// result without a second phonebook; the key with another body is refused.
func TestIdempotencyKeyOnPhonebooks(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acct := owner(t, e, "idempb", "09121261006")
	key := newKey(t, e, tok, "09121261006", map[string]any{"title": "crm",
		"scopes": []acl.Permission{acl.PhonebookManage, acl.PhonebookView}}).Secret
	var a, b struct {
		ID int64 `json:"id"`
	}
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, key, "Idempotency-Key", "pb-1").Decode(t, &a)
	r := e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, key, "Idempotency-Key", "pb-1")
	r.Decode(t, &b)
	if a.ID == 0 || b.ID != a.ID || r.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d, retry %d %v", a.ID, b.ID, r.Header)
	}
	r = e.Do("POST", "/v1/api/phonebooks", map[string]any{"name": "دیگر"}, key, "Idempotency-Key", "pb-1")
	if r.Status != 422 || r.Meta.MessageCode != send.CodeIdempotencyReused {
		t.Fatalf("key reused: %d %s", r.Status, r.Raw)
	}
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "دیگر"}, key, "Idempotency-Key", "pb-2")
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM phonebooks WHERE account_id = $1 AND name IN ('مشتریان', 'دیگر')`, acct).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d phonebooks (%v)", n, err)
	}
}

// A sandbox key (one per account) sends without charge and without reaching a
// carrier: the send is stored done and marked, no ledger row, no recipient, no
// task; every answer to the key is marked (header and meta), a live key's is not.
func TestSandboxKey(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acct := lineOwner(t, e, "sandbox", "09121261007", 1_000_000)
	scopes := []acl.Permission{acl.SendCreate, acl.ReportView, acl.WalletView}
	sb := newKey(t, e, tok, "09121261007", map[string]any{"title": "آزمایشی", "scopes": scopes, "sandbox": true})
	if !sb.Sandbox {
		t.Fatalf("created %+v", sb.Key)
	}
	var otp struct {
		OTPToken string `json:"otp_token"`
	}
	e.Must(200, "POST", "/v1/api/acl/api_key/otp", nil, tok).Decode(t, &otp)
	again := map[string]any{"title": "دومی", "scopes": scopes, "sandbox": true, "otp_token": otp.OTPToken, "code": e.LastCode("989121261007")}
	if r := e.Do("POST", "/v1/api/acl/api_key/create", again, tok); r.Status != 409 {
		t.Fatalf("second sandbox key: %d %s", r.Status, r.Raw)
	}
	before, _ := e.Deps.Wallet.Balance(context.Background(), acct)
	form := map[string]any{"text": "آزمایش", "numbers": []string{"09121234001", "09351234002"}, "local_id": "sb-1"}
	r := e.Must(201, "POST", "/v1/api/send", form, sb.Secret)
	var a send.Accepted
	r.Decode(t, &a)
	if !a.Sandbox || a.Price != 0 || a.Status != send.StatusQueued || !r.Meta.Sandbox || r.Header.Get("X-Chapar-Sandbox") != "1" {
		t.Fatalf("sandbox send: %s %v", r.Raw, r.Header)
	}
	// Accepted like any send, with nothing held: the pipeline (and the simulator's
	// sandbox route) is enginetest's TestSandboxKeyThroughSimulator.
	var st statusOut
	r = e.Must(200, "GET", "/v1/api/send/status?local_id=sb-1", nil, sb.Secret)
	r.Decode(t, &st)
	if st.Price != 0 || !st.Sandbox || st.Status != send.StatusQueued || !r.Meta.Sandbox {
		t.Fatalf("sandbox status %+v", st)
	}
	if after, _ := e.Deps.Wallet.Balance(context.Background(), acct); after != before {
		t.Fatalf("balance %d -> %d", before, after)
	}
	var ledger int
	ctx := context.Background()
	_ = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM ledger WHERE send_id = $1`, a.ID).Scan(&ledger)
	if ledger != 0 {
		t.Fatalf("sandbox send: %d ledger rows", ledger)
	}
	if _, err := e.Inspector.GetTaskInfo(jobs.QueueDefault, "expand:"+strconv.FormatInt(a.ID, 10)); err != nil {
		t.Fatalf("no expand task for the sandbox send: %v", err)
	}
	if r := e.Must(401, "GET", "/v1/api/payment/credit/mine", nil, sb.Secret+"x"); r.Meta.Sandbox {
		t.Fatal("a refused key's answer marked sandbox")
	}
	live := sendKey(t, e, tok, "09121261007")
	if r := e.Must(200, "GET", "/v1/api/payment/credit/mine", nil, live); r.Meta.Sandbox || r.Header.Get("X-Chapar-Sandbox") != "" {
		t.Fatalf("live key marked: %s", r.Raw)
	}
}

// The HTTP-GET send counts against the key's rate limit like any key call: past it
// 429 with Retry-After (and the plain-text line when asked).
func TestSimpleSendRateLimited(t *testing.T) {
	e := keyEnv(t, func(c *config.Config) { c.APIKeyPerMin = 2 })
	tok, _ := lineOwner(t, e, "simplerl", "09121261008", 1_000_000)
	key := sendKey(t, e, tok, "09121261008")
	q := url.Values{"apikey": {key}, "to": {"09121234001"}, "text": {"سلام"}, "format": {"text"}}
	for i := range 2 {
		if st, body := get(t, e.URL+"/v1/api/send/simple?"+q.Encode()); st != 201 {
			t.Fatalf("call %d: %d %s", i, st, body)
		}
	}
	res, err := http.Get(e.URL + "/v1/api/send/simple?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || res.Header.Get("X-RateLimit-Remaining") != "0" || !strings.HasPrefix(string(b), "ERROR 429") {
		t.Fatalf("past the limit: %d %v %s", res.StatusCode, res.Header, b)
	}
}

// GET /send/status with &mobile= carries that recipient's status (the status of
// one message); a number the send did not have is not found, a malformed one 422,
// and another account never sees it.
func TestSendStatusOneRecipient(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := lineOwner(t, e, "onercpt", "09121261011", 1_000_000)
	key := sendKey(t, e, tok, "09121261011")
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121234011", "09121234012"},
		"local_id": "two-1"}, key).Decode(t, &a)
	var out struct {
		statusOut
		Recipient *report.Recipient `json:"recipient"`
	}
	e.Must(200, "GET", "/v1/api/send/status?local_id=two-1&mobile=۰۹۱۲۱۲۳۴۰۱۲", nil, key).Decode(t, &out)
	if out.ID != a.ID || out.Recipient == nil || out.Recipient.Mobile != "989121234012" || out.Recipient.Parts != 1 {
		t.Fatalf("status %+v recipient %+v", out.statusOut, out.Recipient)
	}
	var plain map[string]any
	e.Must(200, "GET", "/v1/api/send/status?id="+strconv.FormatInt(a.ID, 10), nil, key).Decode(t, &plain)
	if _, ok := plain["recipient"]; ok {
		t.Fatalf("recipient without mobile: %v", plain)
	}
	e.Must(404, "GET", "/v1/api/send/status?local_id=two-1&mobile=09121234013", nil, key)
	if r := e.Do("GET", "/v1/api/send/status?local_id=two-1&mobile=123", nil, key); r.Status != 422 || r.Meta.Errors["mobile"] == nil {
		t.Fatalf("bad mobile: %d %s", r.Status, r.Raw)
	}
	other, _ := owner(t, e, "onercpt2", "09121261012")
	e.Must(404, "GET", "/v1/api/send/status?id="+strconv.FormatInt(a.ID, 10)+"&mobile=09121234012", nil, other)
}

// GET /inbox/since gives an API key its account's received messages after an id,
// oldest first and at most limit of them; another account's never show, a bad
// after_id is 422, and a key without the report scope is refused.
func TestInboxSince(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := lineOwner(t, e, "inboxer", "09121261021", 100_000)
	key := sendKey(t, e, tok, "09121261021")
	other, otherAcct := owner(t, e, "inboxer2", "09121261022")
	ctx := context.Background()
	if _, err := e.Deps.Lines.Add(ctx, otherAcct, "30004043", line.KindService, true); err != nil {
		t.Fatal(err)
	}
	var mos []inbox.MO
	for i, ln := range []string{"30004040", "30004043", "30004040", "30004040"} {
		mos = append(mos, inbox.MO{StreamID: "mo-" + strconv.Itoa(i), Operator: "mci", Sender: "0912123450" + strconv.Itoa(i),
			Line: ln, Text: "پیام " + strconv.Itoa(i)})
	}
	if _, err := inbox.New(e.DB.Pool).Apply(ctx, mos); err != nil {
		t.Fatal(err)
	}
	var page1, page2, page3 []inbox.Message
	e.Must(200, "GET", "/v1/api/inbox/since?limit=2", nil, key).Decode(t, &page1)
	if len(page1) != 2 || page1[0].Text != "پیام 0" || page1[1].Text != "پیام 2" || page1[0].Sender != "989121234500" || page1[1].Line != "30004040" {
		t.Fatalf("page 1 %+v", page1)
	}
	e.Must(200, "GET", "/v1/api/inbox/since?after_id="+strconv.FormatInt(page1[1].ID, 10), nil, key).Decode(t, &page2)
	if len(page2) != 1 || page2[0].Text != "پیام 3" {
		t.Fatalf("page 2 %+v", page2)
	}
	r := e.Must(200, "GET", "/v1/api/inbox/since?after_id="+strconv.FormatInt(page2[0].ID, 10), nil, key)
	r.Decode(t, &page3)
	if len(page3) != 0 || !strings.Contains(string(r.Raw), `"data":[]`) {
		t.Fatalf("page 3 %s", r.Raw)
	}
	var theirs []inbox.Message
	e.Must(200, "GET", "/v1/api/inbox/since", nil, other).Decode(t, &theirs)
	if len(theirs) != 1 || theirs[0].Text != "پیام 1" {
		t.Fatalf("other account %+v", theirs)
	}
	if r := e.Do("GET", "/v1/api/inbox/since?after_id=-1", nil, key); r.Status != 422 || r.Meta.Errors["after_id"][0] != inbox.MsgAfterID {
		t.Fatalf("bad after_id: %d %s", r.Status, r.Raw)
	}
	wk := newKey(t, e, tok, "09121261021", walletKey()).Secret
	e.Must(403, "GET", "/v1/api/inbox/since", nil, wk)
}
