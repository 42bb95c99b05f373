package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
	"github.com/chapar/chapar/pkg/wallet/transactions"
)

const txAPI = "/v1/api/report/payment/new"

// txPage posts the filters to the transactions list and returns the rows and total.
func txPage(t *testing.T, e *apitest.Env, token string, filters map[string]any) ([]transactions.Row, int64) {
	t.Helper()
	r := e.Must(200, "POST", txAPI, filters, token)
	var rows []transactions.Row
	r.Decode(t, &rows)
	if r.Meta.Total == nil {
		t.Fatalf("no total in %s", r.Raw)
	}
	return rows, *r.Meta.Total
}

// applyEntry moves money as the send engine's worker does (settle rows).
func applyEntry(t *testing.T, e *apitest.Env, en wallet.Entry) {
	t.Helper()
	err := pgx.BeginFunc(context.Background(), e.DB.Pool, func(tx pgx.Tx) error {
		_, _, err := wallet.Apply(context.Background(), tx, en)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func inPersian(s string) bool {
	for _, r := range s {
		if validate.IsPersianOrArabic(r) {
			return true
		}
	}
	return false
}

// Every kind of ledger row (admin credit, gift, online payment, send hold, settle,
// stop refund) is listed with a Persian description and its send; the filters, paging
// and the Excel export read the same rows; another account sees none of them.
func TestTransactionsList(t *testing.T) {
	e := apitest.Start(t, nil)
	ctx := context.Background()
	owner, acct := lineOwner(t, e, "txowner", "09121117001", 1_000_000)
	e.Register("txother", pw, "09121117002")
	other := e.Login("txother", pw)
	if u, err := e.Accounts.ByUsername(ctx, "txother"); err != nil {
		t.Fatal(err)
	} else if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.AdminCredit, Amount: 500_000}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.Gift, Amount: 50_000, Description: "gift"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.Deposit, Amount: 2_000_000}); err != nil {
		t.Fatal(err)
	}
	var a, b send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121234001"}}, owner).Decode(t, &a)
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121234002"},
		"send_at": time.Now().Add(2 * time.Hour).Format(time.RFC3339)}, owner).Decode(t, &b)
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": b.ID}, owner)
	applyEntry(t, e, wallet.Entry{AccountID: acct, Kind: wallet.Release, Amount: 7, SendID: a.ID, Ref: "t:settle"})

	rows, total := txPage(t, e, owner, map[string]any{"limit": 100})
	if total != 7 || len(rows) != 7 {
		t.Fatalf("total %d rows %d: %+v", total, len(rows), rows)
	}
	kinds := map[string]int{}
	for _, r := range rows {
		kinds[r.Kind]++
		if !inPersian(r.Description) || strings.ContainsAny(r.Description, "0123456789") || r.KindTitle == "" || r.Amount <= 0 {
			t.Fatalf("row without a Persian description or amount: %+v", r)
		}
		isSend := r.Kind == wallet.Hold || r.Kind == wallet.Refund || r.Kind == wallet.Release
		if isSend != (r.SendID != nil) || isSend && *r.SendID != a.ID && *r.SendID != b.ID {
			t.Fatalf("send link of %+v", r)
		}
		if (r.Type == transactions.TypeWithdrawal) != (r.Kind == wallet.Hold) {
			t.Fatalf("type of %+v", r)
		}
	}
	if kinds[wallet.AdminCredit] != 1 || kinds[wallet.Gift] != 1 || kinds[wallet.Deposit] != 1 || kinds[wallet.Hold] != 2 ||
		kinds[wallet.Refund] != 1 || kinds[wallet.Release] != 1 {
		t.Fatalf("kinds %v", kinds)
	}
	checkTxFilters(t, e, owner, a)
	// Another account: only its own credit, and nothing of the first account's send.
	if rows, n := txPage(t, e, other, nil); n != 1 || rows[0].Kind != wallet.AdminCredit {
		t.Fatalf("other account sees %d: %+v", n, rows)
	}
	if _, n := txPage(t, e, other, map[string]any{"search": strconv.FormatInt(a.ID, 10)}); n != 0 {
		t.Fatalf("other account found the send: %d", n)
	}
	checkTxExport(t, e, owner)
}

// checkTxFilters narrows the list by type, date, amount and search, pages it, and
// refuses bad filters with Persian messages.
func checkTxFilters(t *testing.T, e *apitest.Env, owner string, a send.Accepted) {
	t.Helper()
	if rows, n := txPage(t, e, owner, map[string]any{"type": "withdrawal"}); n != 2 || rows[0].Type != transactions.TypeWithdrawal {
		t.Fatalf("withdrawals %d %+v", n, rows)
	}
	if _, n := txPage(t, e, owner, map[string]any{"type": "deposit"}); n != 5 {
		t.Fatalf("deposits %d", n)
	}
	// The admin credit is moved to an older day: a date range finds only it.
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE ledger SET created_at = '2025-03-10 10:00+03:30'
		WHERE kind = 'admin_credit' AND account_id = (SELECT account_id FROM users WHERE username = 'txowner')`); err != nil {
		t.Fatal(err)
	}
	if rows, n := txPage(t, e, owner, map[string]any{"date_from": "2025-03-10", "date_to": "2025-03-10"}); n != 1 || rows[0].Kind != wallet.AdminCredit {
		t.Fatalf("date range %d %+v", n, rows)
	}
	if _, n := txPage(t, e, owner, map[string]any{"date_from": "2025-03-11"}); n != 6 {
		t.Fatalf("from a date %d", n)
	}
	if rows, n := txPage(t, e, owner, map[string]any{"amount_from": "۱٬۰۰۰٬۰۰۰", "amount_to": 2_000_000}); n != 2 {
		t.Fatalf("amount range %d %+v", n, rows)
	}
	if rows, n := txPage(t, e, owner, map[string]any{"search": "هدیه"}); n != 1 || rows[0].Kind != wallet.Gift {
		t.Fatalf("search by words %d %+v", n, rows)
	}
	if _, n := txPage(t, e, owner, map[string]any{"search": strconv.FormatInt(a.ID, 10)}); n != 2 {
		t.Fatalf("search by send %d", n)
	}
	all, _ := txPage(t, e, owner, map[string]any{"limit": 100})
	if rows, n := txPage(t, e, owner, map[string]any{"page": 2, "limit": 3}); n != 7 || len(rows) != 3 || rows[0].ID != all[3].ID {
		t.Fatalf("page 2: %d %+v", n, rows)
	}
	for _, bad := range []map[string]any{{"type": "x"}, {"amount_from": "-5"}, {"date_from": "nope"},
		{"amount_from": 5, "amount_to": 1}} {
		if r := e.Do("POST", txAPI, bad, owner); r.Status != 422 || !inPersian(r.Meta.Message) {
			t.Fatalf("bad filter %v: %d %s", bad, r.Status, r.Raw)
		}
	}
}

// checkTxExport downloads the withdrawals and finds the list's rows in the file.
func checkTxExport(t *testing.T, e *apitest.Env, owner string) {
	t.Helper()
	post := func(body string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", e.URL+"/v1/api/report/payment/export/new", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+owner)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res, raw
	}
	res, body := post(`{"export_type":"financial","type":"withdrawal"}`)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("export: %d %s", res.StatusCode, body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	sheet, err := x.GetRows("تراکنش‌ها")
	want, _ := txPage(t, e, owner, map[string]any{"type": "withdrawal"})
	if err != nil || len(sheet) != len(want)+1 {
		t.Fatalf("sheet %v %v", sheet, err)
	}
	for i, r := range want {
		row := sheet[i+1]
		if row[0] != strconv.FormatInt(r.ID, 10) || row[3] != "برداشت" || row[5] != strconv.FormatInt(r.Amount, 10) ||
			row[7] != r.Description || !strings.HasPrefix(row[1], "14") {
			t.Fatalf("row %d %q, want %+v", i, row, r)
		}
	}
	if res, body := post(`{"export_type":"other"}`); res.StatusCode != 422 {
		t.Fatalf("bad export type: %d %s", res.StatusCode, body)
	}
}

// lowBalanceTasks counts the low-balance SMS tasks waiting on the critical queue.
func lowBalanceTasks(t *testing.T, e *apitest.Env) int {
	t.Helper()
	tasks, err := e.Inspector.ListPendingTasks(jobs.QueueCritical)
	if err != nil && !strings.Contains(err.Error(), "not found") {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		var v jobs.Verification
		if task.Type == jobs.TypeVerification && json.Unmarshal(task.Payload, &v) == nil && v.Purpose == wallet.PurposeLowBalance {
			n++
		}
	}
	return n
}

// lowBalanceEvents reads the socket in the background (a gorilla read that timed out
// leaves the socket unusable) and passes on the alert's live events.
func lowBalanceEvents(ws *websocket.Conn) <-chan wallet.LowBalance {
	out := make(chan wallet.LowBalance, 16)
	_ = ws.SetReadDeadline(time.Time{})
	go func() {
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var m struct {
				Event string            `json:"event"`
				Data  wallet.LowBalance `json:"data"`
			}
			if json.Unmarshal(msg, &m) == nil && m.Event == "credit.changed" && m.Data.LowBalance {
				out <- m.Data
			}
		}
	}()
	return out
}

// countWithin counts what arrives on ch during wait.
func countWithin(ch <-chan wallet.LowBalance, wait time.Duration) int {
	n, done := 0, time.After(wait)
	for {
		select {
		case <-ch:
			n++
		case <-done:
			return n
		}
	}
}

// The alert fires once (one SMS task, one live event) when a send takes the balance
// below the threshold, not again on further sends nor after a recharge that stays
// below it, and again after a recharge above it. A threshold under 200,000 rials is
// refused in Persian; colleagues may not set it.
func TestLowBalanceAlert(t *testing.T) {
	e := apitest.Start(t, nil)
	ctx := context.Background()
	owner, acct := lineOwner(t, e, "alertowner", "09121118001", 1_000_000)
	const alertAPI = "/v1/api/user/setting/low_balance"
	r := e.Do("POST", alertAPI, map[string]any{"enabled": true, "threshold": 199_999}, owner)
	if r.Status != 422 || r.Meta.Errors["threshold"][0] != wallet.MsgAlertMin {
		t.Fatalf("threshold below the minimum: %d %s", r.Status, r.Raw)
	}
	var st wallet.AlertSetting
	e.Must(200, "GET", alertAPI, nil, owner).Decode(t, &st)
	if st.Enabled || st.Minimum != wallet.MinAlertThreshold || st.Balance != 1_000_000 {
		t.Fatalf("after the refused threshold: %+v", st)
	}
	colleague, _ := auditColleague(t, e, acct, "alertcolleague", "09121118002")
	e.Must(403, "POST", alertAPI, map[string]any{"enabled": true, "threshold": 300_000}, colleague)

	quick := map[string]any{"text": "سلام", "numbers": []string{"09121234001"}}
	var q struct{ Price int64 }
	e.Must(200, "POST", "/v1/api/send/calculate-price", quick, owner).Decode(t, &q)
	threshold := 1_000_000 - q.Price + 1 // the first send crosses it
	e.Must(200, "POST", alertAPI, map[string]any{"enabled": true, "threshold": threshold}, owner).Decode(t, &st)
	if !st.Enabled || st.Threshold != threshold || st.Below {
		t.Fatalf("setting %+v", st)
	}
	ws := e.Socket(owner)
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("ping answer %q %v", msg, err)
	}
	events := lowBalanceEvents(ws)
	step := func(name string, wantSMS, wantEvents int) {
		t.Helper()
		e.Must(201, "POST", "/v1/api/send", quick, owner)
		wait := time.Second
		if n := countWithin(events, wait); n != wantEvents {
			t.Fatalf("%s: %d live alerts, want %d", name, n, wantEvents)
		}
		if n := lowBalanceTasks(t, e); n != wantSMS {
			t.Fatalf("%s: %d alert SMS tasks, want %d", name, n, wantSMS)
		}
	}
	step("first crossing", 1, 1)
	step("still below", 1, 0)
	credit := func(amount int64) {
		if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.Deposit, Amount: amount}); err != nil {
			t.Fatal(err)
		}
	}
	credit(1) // a recharge that stays below the threshold
	step("recharged below", 1, 0)
	bal, _ := e.Deps.Wallet.Balance(ctx, acct)
	credit(threshold - bal) // back to the threshold
	step("recharged above", 2, 1)
}
