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
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/spreadsheet"
)

// reportFixture registers two owners and gives the first one three sends (one in the
// archive) with recipients.
type reportFixture struct {
	e                     *apitest.Env
	tokenA, tokenB        string
	accountA              int64
	recent, older, oldest int64
}

func newReportFixture(t *testing.T) reportFixture {
	t.Helper()
	e := apitest.Start(t, nil)
	e.Register("reza", pw, "09121110001")
	e.Register("mina", pw, "09121110002")
	f := reportFixture{e: e, tokenA: e.Login("reza", pw), tokenB: e.Login("mina", pw)}
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, "reza")
	if err != nil {
		t.Fatal(err)
	}
	f.accountA = u.AccountID
	send := func(created time.Duration, status string) int64 {
		var id int64
		err := e.DB.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, requested, recipients,
			submitted, delivered, undelivered, blacklisted, rejected, parts, total_parts, quote, cost, expanded_at, created_at)
			VALUES ($1, 'quick', '3000', 'سلام دنیا', $2, 12, 12, 9, 6, 2, 1, 1, 1, 12, 3000, 2800, now(), now() - $3::interval)
			RETURNING id`, f.accountA, status, strconv.Itoa(int(created.Seconds()))+" seconds").Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.DB.Pool.Exec(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			SELECT $1, 0, '98912000' || lpad(g::text, 4, '0'), 'mci', 1, 190, g % 5 FROM generate_series(1, 12) g`, id)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	f.recent = send(time.Hour, "sending")
	f.older = send(72*time.Hour, "done")
	f.oldest = send(45*24*time.Hour, "done")
	return f
}

func TestReportRoutes(t *testing.T) {
	f := newReportFixture(t)
	e := f.e
	id := func(n int64) string { return strconv.FormatInt(n, 10) }

	r := e.Must(200, "GET", "/v1/api/report/new_list?limit=1", nil, f.tokenA)
	var rows []report.SendRow
	r.Decode(t, &rows)
	if len(rows) != 1 || rows[0].ID != f.recent || r.Meta.Total == nil || *r.Meta.Total != 2 || r.Meta.Page != 1 || r.Meta.Limit != 1 {
		t.Fatalf("new_list: %s", r.Raw)
	}
	r = e.Must(200, "GET", "/v1/api/report/archive_list", nil, f.tokenA)
	r.Decode(t, &rows)
	if len(rows) != 1 || rows[0].ID != f.oldest {
		t.Fatalf("archive_list: %s", r.Raw)
	}
	r = e.Must(422, "GET", "/v1/api/report/new_list?status=bogus", nil, f.tokenA)
	if len(r.Meta.Errors["status"]) == 0 {
		t.Fatalf("bad status: %s", r.Raw)
	}
	r = e.Must(200, "GET", "/v1/api/report/new_list", nil, f.tokenB)
	if string(r.Data) != "[]" || *r.Meta.Total != 0 {
		t.Fatalf("another account's list: %s", r.Raw)
	}

	r = e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+id(f.recent), nil, f.tokenA)
	var st map[string]any
	r.Decode(t, &st)
	for k, want := range map[string]float64{"requested": 12, "sent": 9, "delivered": 6, "undelivered": 2,
		"blacklisted": 1, "rejected": 1, "pending": 3, "parts": 12, "price": 2800, "refunded": 0} {
		if st[k] != want {
			t.Fatalf("bulk_stats %s = %v, want %v: %s", k, st[k], want, r.Raw)
		}
	}
	e.Must(404, "GET", "/v1/api/report/bulk_stats?id="+id(f.recent), nil, f.tokenB)
	e.Must(422, "GET", "/v1/api/report/bulk_stats?id=x", nil, f.tokenA)
	e.Must(401, "GET", "/v1/api/report/bulk_stats?id="+id(f.recent), nil, "")

	r = e.Must(200, "GET", "/v1/api/report/by_bulk?ids="+id(f.older)+","+id(f.recent), nil, f.tokenA)
	var bulk []report.Stats
	r.Decode(t, &bulk)
	if len(bulk) != 2 || bulk[0].ID != f.older || bulk[1].ID != f.recent {
		t.Fatalf("by_bulk: %s", r.Raw)
	}
	r = e.Must(200, "GET", "/v1/api/report/by_bulk?ids="+id(f.older), nil, f.tokenB)
	if string(r.Data) != "[]" {
		t.Fatalf("another account's by_bulk: %s", r.Raw)
	}

	r = e.Must(200, "GET", "/v1/api/report/recipients?id="+id(f.recent)+"&status=3&limit=2", nil, f.tokenA)
	var recips []report.Recipient
	r.Decode(t, &recips)
	if len(recips) != 2 || *r.Meta.Total != 2 || recips[0].Status != 3 || len(recips[0].Mobile) != 12 {
		t.Fatalf("recipients status 3: %s", r.Raw)
	}
	e.Must(404, "GET", "/v1/api/report/recipients?id="+id(f.recent), nil, f.tokenB)
}

func TestReportDownload(t *testing.T) {
	f := newReportFixture(t)
	get := func(token string) *http.Response {
		req, _ := http.NewRequest("GET", f.e.URL+"/v1/api/report/download_recipients?id="+strconv.FormatInt(f.recent, 10), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := get(f.tokenA)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "recipients-") {
		t.Fatalf("download: %d %v", res.StatusCode, res.Header)
	}
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows("گیرندگان")
	if err != nil || len(rows) != 13 || rows[0][3] != "شماره موبایل" || rows[1][3] != "09120000001" {
		t.Fatalf("xlsx rows: %d %v", len(rows), err)
	}

	res = get(f.tokenB)
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 404 || !bytes.Contains(body, []byte(`"status":404`)) {
		t.Fatalf("another account's download: %d %s", res.StatusCode, body)
	}
}

func TestLiveSocket(t *testing.T) {
	f := newReportFixture(t)
	if _, res, err := websocket.DefaultDialer.Dial(f.e.WSURL("nope"), nil); err == nil || res.StatusCode != 401 {
		t.Fatalf("socket with a bad ticket: %v", err)
	}
	a, b := f.e.Socket(f.tokenA), f.e.Socket(f.tokenB)
	// The "9" answer comes from the socket's writer, which starts once the socket is
	// registered with the hub: after it, events reach the socket.
	for _, ws := range []*websocket.Conn{a, b} {
		if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
			t.Fatal(err)
		}
		_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
		if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
			t.Fatalf("ping answer %q %v", msg, err)
		}
	}
	if err := f.e.Deps.Live.Publisher().Publish(context.Background(), f.accountA, "credit.changed", map[string]int{"credit": 7}); err != nil {
		t.Fatal(err)
	}
	_ = a.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, msg, err := a.ReadMessage()
	var m struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err != nil || json.Unmarshal(msg, &m) != nil || m.Event != "credit.changed" || string(m.Data) != `{"credit":7}` {
		t.Fatalf("event %s %v", msg, err)
	}
	_ = b.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if _, msg, err := b.ReadMessage(); err == nil {
		t.Fatalf("another account got %s", msg)
	}
}
