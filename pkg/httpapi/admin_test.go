package httpapi_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/staff"
)

// addStaff creates a staff user and logs it in with the second step.
func addStaff(t *testing.T, e *apitest.Env, username string) string {
	t.Helper()
	return e.Staff(username, "09120009901")
}

// Staff always log in with the second step, only at the back office's door; staff
// routes answer customers 404 and customer routes refuse staff sessions.
func TestStaffLoginAndGuards(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support1")
	e.Register("shop", pw, "09121239001")
	ctok := e.Login("shop", pw)

	// The customer door does not know staff; the staff door does not know customers.
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "support1", "password": apitest.StaffPassword}, "")
	e.Must(401, "POST", "/v1/api/admin/auth/login", map[string]string{"username": "shop", "password": pw}, "")

	for _, path := range []string{"/v1/api/admin/me", "/v1/api/admin/reviews", "/v1/api/admin/accounts"} {
		e.Must(404, "GET", path, nil, ctok)
		e.Must(404, "GET", path, nil, "")
		e.Must(404, "GET", path, nil, "garbage")
		e.Must(200, "GET", path, nil, stok)
	}
	e.Must(404, "POST", "/v1/api/admin/accounts/1/credit", map[string]any{"amount": 1, "reason": "x"}, ctok)
	for _, path := range []string{"/v1/api/acl/auth/check_token", "/v1/api/report/new_list", "/v1/api/user/2fa"} {
		e.Must(401, "GET", path, nil, stok)
	}
	e.Must(401, "POST", "/v1/api/send", map[string]any{"text": "x", "numbers": []string{"09121234567"}}, stok)
}

// The account routes (the rules are pkg/staff's tests): search by ?q=, credit
// (422, 200) and the account's balance; suspending closes the customer's sessions and
// refuses their login (403) until the account is reactivated.
func TestStaffAdjustCreditAndSuspend(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support2")
	e.Register("bakery", pw, "09121239002")
	ctok := e.Login("bakery", pw)
	u, _ := e.Accounts.ByUsername(context.Background(), "bakery")
	acct := strconv.FormatInt(u.AccountID, 10)

	var rows []staff.Account
	e.Must(200, "GET", "/v1/api/admin/accounts?q=bake", nil, stok).Decode(t, &rows)
	if len(rows) != 1 || rows[0].ID != u.AccountID {
		t.Fatalf("search: %+v", rows)
	}
	e.Must(422, "POST", "/v1/api/admin/accounts/"+acct+"/credit", map[string]any{"amount": 0, "reason": ""}, stok)
	e.Must(200, "POST", "/v1/api/admin/accounts/"+acct+"/credit", map[string]any{"amount": 70_000, "reason": "جبران"}, stok)
	e.Must(200, "POST", "/v1/api/admin/accounts/"+acct+"/credit", map[string]any{"amount": -20_000, "reason": "اصلاح"}, stok)
	var a staff.Account
	e.Must(200, "GET", "/v1/api/admin/accounts/"+acct, nil, stok).Decode(t, &a)
	if a.Balance != 50_000 {
		t.Fatalf("balance %d", a.Balance)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+acct+"/status", map[string]any{"status": "suspended"}, stok)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, ctok)
	e.Must(403, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "bakery", "password": pw}, "")
	e.Must(200, "POST", "/v1/api/admin/accounts/"+acct+"/status", map[string]any{"status": "active"}, stok)
	e.Login("bakery", pw)
}

// The impersonation route: staff get a one-time external-login code that opens the
// customer's panel once; a customer gets 404 (the audit and the session's staff name
// are pkg/auth's tests).
func TestStaffImpersonation(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support3")
	e.Register("florist", pw, "09121239003")
	u, _ := e.Accounts.ByUsername(context.Background(), "florist")
	var ec auth.ExternalCode
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/impersonate", nil, stok).Decode(t, &ec)
	var got struct{ Token string }
	e.Must(200, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "").Decode(t, &got)
	r := e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, got.Token)
	if !strings.Contains(string(r.Data), `"user_name":"florist"`) {
		t.Fatalf("session of %s", r.Data)
	}
	e.Must(401, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "")
	ctok := e.Login("florist", pw)
	e.Must(404, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/impersonate", nil, ctok)
}

// The line and tariff routes (the rules are pkg/staff's tests): a bad line 422, a
// line 200, another account's number 409; a bad tariff 422, a tariff 200, and the
// account's tariffs show its own.
func TestStaffLinesAndTariffs(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support4")
	e.Register("tailor", pw, "09121239004")
	e.Register("cobbler", pw, "09121239005")
	a, _ := e.Accounts.ByUsername(context.Background(), "tailor")
	b, _ := e.Accounts.ByUsername(context.Background(), "cobbler")
	acct := "/v1/api/admin/accounts/" + strconv.FormatInt(a.AccountID, 10)
	e.Must(422, "POST", acct+"/lines", map[string]any{"number": "12", "kind": "x"}, stok)
	e.Must(200, "POST", acct+"/lines", map[string]any{"number": "30009911", "kind": "service", "default": true}, stok)
	e.Must(409, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(b.AccountID, 10)+"/lines",
		map[string]any{"number": "30009911", "kind": "service"}, stok)
	e.Must(422, "POST", acct+"/tariffs", map[string]any{"operator": "nope", "part_price": 100}, stok)
	e.Must(200, "POST", acct+"/tariffs", map[string]any{"operator": "mci", "part_price": 150, "send_fee": 10}, stok)
	var ts []staff.Tariff
	e.Must(200, "GET", acct+"/tariffs", nil, stok).Decode(t, &ts)
	if i := slices.IndexFunc(ts, func(tr staff.Tariff) bool { return tr.Own }); i < 0 || ts[i].Operator != "mci" || ts[i].PartPrice != 150 {
		t.Fatalf("tariffs %+v", ts)
	}
}

// A customer may cancel a held send: the whole hold comes back and the send leaves
// the review queue, so staff have nothing left to decide.
func TestCustomerCancelsHeldSend(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support5")
	e.Register("grocer", pw, "09121239006")
	ctok := e.Login("grocer", pw)
	u, _ := e.Accounts.ByUsername(context.Background(), "grocer")
	if _, err := e.Deps.Lines.Add(context.Background(), u.AccountID, "30009922", "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/credit",
		map[string]any{"amount": 100_000, "reason": "آزمون"}, stok)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "کازينو", "numbers": []string{"09121234700"}}, ctok).Decode(t, &a)
	if a.Status != send.StatusHeld {
		t.Fatalf("accepted %+v", a)
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items", nil, stok).Decode(t, &items)
	if len(items) != 1 {
		t.Fatalf("queue %+v", items)
	}
	var st send.Stopped
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": a.ID}, ctok).Decode(t, &st)
	if st.Refunded != a.Price {
		t.Fatalf("refunded %d of %d", st.Refunded, a.Price)
	}
	bal, sum, err := e.Deps.Wallet.Check(context.Background(), u.AccountID)
	if err != nil || bal != 100_000 || sum != bal {
		t.Fatalf("wallet %d, ledger %d (%v)", bal, sum, err)
	}
	e.Must(200, "GET", "/v1/api/admin/reviews/items", nil, stok).Decode(t, &items)
	if len(items) != 0 {
		t.Fatalf("cancelled send still in the queue: %+v", items)
	}
	e.Must(404, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(1, 10)+"/approve", map[string]any{}, stok)
}

// A staff decision reaches the customer's open report live: the blocked status is
// published through the progress pump without a reload.
func TestHeldSendDecisionPublishedLive(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support6")
	e.Register("baker", pw, "09121239007")
	ctok := e.Login("baker", pw)
	u, _ := e.Accounts.ByUsername(context.Background(), "baker")
	if _, err := e.Deps.Lines.Add(context.Background(), u.AccountID, "30009933", "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/credit",
		map[string]any{"amount": 100_000, "reason": "آزمون"}, stok)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "www.bet.example", "numbers": []string{"09121234701"}}, ctok).Decode(t, &a)
	ws := e.Socket(ctok)
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("ping answer %q %v", msg, err)
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items", nil, stok).Decode(t, &items)
	e.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(items[0].ID, 10)+"/reject", map[string]any{"reason": "پیوند"}, stok)
	pump := live.NewProgressPump(e.Redis.Client, e.Deps.Reports, e.Deps.Live.Publisher(), live.PumpConfig{})
	if n, err := pump.Drain(context.Background()); err != nil || n != 1 {
		t.Fatalf("drained %d sends: %v", n, err)
	}
	want := `{"id":` + strconv.FormatInt(a.ID, 10) + `,"status":"blocked"}`
	for {
		_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no blocked status event: %v", err)
		}
		var m struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Event == live.EventSendStatus && string(m.Data) == want {
			return
		}
	}
}

// A held send that was scheduled goes back to waiting for its time once approved
// (nothing is expanded early).
func TestApprovedScheduledHeldSendWaits(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support7")
	e.Register("florist2", pw, "09121239009")
	ctok := e.Login("florist2", pw)
	u, _ := e.Accounts.ByUsername(context.Background(), "florist2")
	if _, err := e.Deps.Lines.Add(context.Background(), u.AccountID, "30009944", "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/credit",
		map[string]any{"amount": 100_000, "reason": "آزمون"}, stok)
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "CASINO night", "numbers": []string{"09121234702"}, "send_at": at},
		ctok).Decode(t, &a)
	if a.Status != send.StatusHeld {
		t.Fatalf("accepted %+v", a)
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=send", nil, stok).Decode(t, &items)
	e.Must(200, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(items[0].ID, 10)+"/approve", map[string]any{}, stok)
	var status string
	var expanded bool
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT status, expanded_at IS NOT NULL FROM sends WHERE id = $1`, a.ID).Scan(&status, &expanded)
	if status != send.StatusScheduled || expanded {
		t.Fatalf("approved scheduled send is %s (expanded %v)", status, expanded)
	}
	if info, err := e.Inspector.GetTaskInfo("default", "expand:"+strconv.FormatInt(a.ID, 10)); err == nil {
		t.Fatalf("expansion enqueued early: %+v", info)
	}
}

// Staff edit the moderation rules; the next send is judged by the new ones.
func TestStaffEditModerationRules(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support8")
	e.Register("vendor", pw, "09121239010")
	ctok := e.Login("vendor", pw)
	u, _ := e.Accounts.ByUsername(context.Background(), "vendor")
	if _, err := e.Deps.Lines.Add(context.Background(), u.AccountID, "30009955", "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(u.AccountID, 10)+"/credit",
		map[string]any{"amount": 100_000, "reason": "آزمون"}, stok)
	var v moderation.RulesView
	e.Must(200, "GET", "/v1/api/admin/moderation", nil, stok).Decode(t, &v)
	if !v.Links || len(v.Words) == 0 {
		t.Fatalf("seeded rules %+v", v)
	}
	e.Must(422, "POST", "/v1/api/admin/moderation", map[string]any{"words": []string{}, "new_account_sends": -1}, stok)
	e.Must(404, "POST", "/v1/api/admin/moderation", map[string]any{"words": []string{}}, ctok)
	e.Must(200, "POST", "/v1/api/admin/moderation", map[string]any{"words": []string{" حراج ", "حراج", ""}, "links": false}, stok)
	e.Must(200, "GET", "/v1/api/admin/moderation", nil, stok).Decode(t, &v)
	if v.Links || len(v.Words) != 1 || v.Words[0] != "حراج" {
		t.Fatalf("saved rules %+v", v)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "کازینو https://a.example", "numbers": []string{"09121234703"}}, ctok).Decode(t, &a)
	if a.Status != send.StatusQueued {
		t.Fatalf("old rules still hold: %+v", a)
	}
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "حراج بزرگ", "numbers": []string{"09121234704"}}, ctok).Decode(t, &a)
	if a.Status != send.StatusHeld {
		t.Fatalf("new word not held: %+v", a)
	}
}

// The «old panel» strip is off until staff set its address; a customer cannot
// set it, a non-https address is a field error, and an empty one turns it off again.
func TestStaffSetOldPanel(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := addStaff(t, e, "support9")
	e.Register("oldpanel", pw, "09121239011")
	ctok := e.Login("oldpanel", pw)
	var ls struct {
		OldPanelURL string `json:"old_panel_url"`
	}
	e.Must(200, "GET", "/v1/api/acl/auth/login_setting", nil, "").Decode(t, &ls)
	if ls.OldPanelURL != "" {
		t.Fatalf("the strip is on by default: %q", ls.OldPanelURL)
	}
	e.Must(404, "POST", "/v1/api/admin/old_panel", map[string]any{"url": "https://old.example.ir"}, ctok)
	if r := e.Do("POST", "/v1/api/admin/old_panel", map[string]any{"url": "http://old.example.ir"}, stok); r.Status != 422 || !strings.Contains(string(r.Raw), "url") {
		t.Fatalf("plain http accepted: %d %s", r.Status, r.Raw)
	}
	e.Must(200, "POST", "/v1/api/admin/old_panel", map[string]any{"url": " https://old.example.ir/login "}, stok)
	e.Must(200, "GET", "/v1/api/acl/auth/login_setting", nil, "").Decode(t, &ls)
	if ls.OldPanelURL != "https://old.example.ir/login" {
		t.Fatalf("saved url %q", ls.OldPanelURL)
	}
	e.Must(200, "POST", "/v1/api/admin/old_panel", map[string]any{"url": ""}, stok)
	e.Must(200, "GET", "/v1/api/acl/auth/login_setting", nil, "").Decode(t, &ls)
	if ls.OldPanelURL != "" {
		t.Fatalf("the strip is still on: %q", ls.OldPanelURL)
	}
}
