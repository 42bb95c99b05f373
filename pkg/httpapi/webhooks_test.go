package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/webhook"
)

// receiver is a test webhook receiver: it verifies every POST's signature with
// the endpoint's secret and answers fail (HTTP 500) while fail > 0.
type receiver struct {
	srv      *httptest.Server
	secret   atomic.Value
	fail     atomic.Int32
	mu       sync.Mutex
	bodies   []webhook.Body
	badSig   atomic.Int32
	requests atomic.Int32
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		raw, _ := io.ReadAll(req.Body)
		secret, _ := r.secret.Load().(string)
		if !webhook.Verify(secret, req.Header.Get(webhook.HeaderTimestamp), req.Header.Get(webhook.HeaderSignature), raw,
			time.Now(), 5*time.Minute) {
			r.badSig.Add(1)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if r.fail.Load() > 0 {
			r.fail.Add(-1)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		var b webhook.Body
		if err := json.Unmarshal(raw, &b); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		r.mu.Unlock()
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// hookEnv is an API allowing private webhook addresses, its owner, and a deliverer
// with a short retry window.
func hookEnv(t *testing.T, window time.Duration) (*apitest.Env, string, *webhook.Deliverer) {
	e := apitest.Start(t, func(c *config.Config) { c.WebhookAllowPrivate = true })
	tok, _ := owner(t, e, "hooker", "09121250000")
	d := webhook.NewDeliverer(e.DB.Pool, webhook.Guard{AllowPrivate: true}, webhook.Settings{
		RetryBase: 20 * time.Millisecond, RetryMax: 100 * time.Millisecond, Window: window, Timeout: 2 * time.Second},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	return e, tok, d
}

// deliveries lists the account's deliveries.
func deliveries(t *testing.T, e *apitest.Env, tok string) []webhook.Delivery {
	var out []webhook.Delivery
	e.Must(200, "GET", "/v1/api/developers/webhooks/deliveries", nil, tok).Decode(t, &out)
	return out
}

// stepUntil runs delivery steps until the newest delivery has status want.
func stepUntil(t *testing.T, e *apitest.Env, tok string, d *webhook.Deliverer, want string) webhook.Delivery {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a safety net for a busy machine
	for time.Now().Before(deadline) {
		if _, err := d.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
		if ds := deliveries(t, e, tok); len(ds) > 0 && ds[0].Status == want {
			return ds[0]
		}
	}
	t.Fatalf("no delivery reached %s: %+v", want, deliveries(t, e, tok))
	return webhook.Delivery{}
}

// TestWebhookDeliveryLifecycle: a test event is signed and verified by the
// receiver, retried after 500s, dead-lettered once the retry window is over, and
// delivered again when replayed.
func TestWebhookDeliveryLifecycle(t *testing.T) {
	e, tok, d := hookEnv(t, 700*time.Millisecond)
	rc := newReceiver(t)
	var created webhook.Created
	e.Must(201, "POST", "/v1/api/developers/webhooks", map[string]any{"url": rc.srv.URL + "/hook",
		"events": []string{webhook.EventDelivery, webhook.EventSend}}, tok).Decode(t, &created)
	if !strings.HasPrefix(created.Secret, webhook.SecretPrefix) {
		t.Fatalf("secret not shown at creation: %+v", created)
	}
	raw := e.Must(200, "GET", "/v1/api/developers/webhooks", nil, tok).Raw
	if strings.Contains(string(raw), created.Secret) {
		t.Fatal("the list shows the secret again")
	}
	rc.secret.Store(created.Secret)

	// Retried after two 500s, then delivered.
	rc.fail.Store(2)
	e.Must(200, "POST", "/v1/api/developers/webhooks/test", map[string]any{"id": created.ID}, tok)
	got := stepUntil(t, e, tok, d, webhook.StatusDelivered)
	if got.Attempts != 3 || rc.requests.Load() != 3 || rc.badSig.Load() != 0 {
		t.Fatalf("attempts %d, requests %d, bad signatures %d", got.Attempts, rc.requests.Load(), rc.badSig.Load())
	}
	if len(rc.bodies) != 1 || len(rc.bodies[0].Events) != 1 || rc.bodies[0].Events[0].Type != webhook.EventTest {
		t.Fatalf("bodies %+v", rc.bodies)
	}

	// Failing past the window: dead-lettered.
	rc.fail.Store(1 << 30)
	e.Must(200, "POST", "/v1/api/developers/webhooks/test", map[string]any{"id": created.ID}, tok)
	dead := stepUntil(t, e, tok, d, webhook.StatusDead)
	if dead.LastStatus == nil || *dead.LastStatus != 500 || dead.Attempts < 2 {
		t.Fatalf("dead delivery %+v", dead)
	}
	var list []webhook.Delivery
	e.Must(200, "GET", "/v1/api/developers/webhooks/deliveries?status=dead", nil, tok).Decode(t, &list)
	if len(list) != 1 || list[0].ID != dead.ID {
		t.Fatalf("dead-letter list %+v", list)
	}
	e.Must(422, "POST", "/v1/api/developers/webhooks/replay", map[string]any{"id": got.ID}, tok) // delivered: nothing to replay

	// Replayed: delivered.
	rc.fail.Store(0)
	e.Must(200, "POST", "/v1/api/developers/webhooks/replay", map[string]any{"id": dead.ID}, tok)
	again := stepUntil(t, e, tok, d, webhook.StatusDelivered)
	if again.ID != dead.ID || len(rc.bodies) != 2 {
		t.Fatalf("replay %+v, bodies %d", again, len(rc.bodies))
	}
}

// TestWebhookSSRFRefused: without WEBHOOK_ALLOW_PRIVATE private, loopback,
// link-local, unique-local and reserved addresses are refused when saved, and a
// delivery whose host turns out private is refused when connecting.
func TestWebhookSSRFRefused(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "guarded", "09121250001")
	for _, u := range []string{"http://127.0.0.1/h", "http://10.1.2.3/h", "http://169.254.169.254/latest", "http://[::1]/h",
		"http://[fc00::1]/h", "http://[fd12::1]/h", "http://100.64.0.1/h", "http://0.0.0.0/h", "http://[::ffff:127.0.0.1]/h",
		"http://localhost:8080/h", "ftp://example.com/h", "file:///etc/passwd", "http://user:pw@93.184.216.34/"} {
		r := e.Do("POST", "/v1/api/developers/webhooks", map[string]any{"url": u, "events": []string{webhook.EventSend}}, tok)
		if r.Status != 422 {
			t.Errorf("%s: %d %s", u, r.Status, r.Raw)
		}
	}
	// A public literal address is accepted without a lookup.
	var ok webhook.Created
	e.Must(201, "POST", "/v1/api/developers/webhooks", map[string]any{"url": "https://93.184.216.34/hook",
		"events": []string{webhook.EventSend}}, tok).Decode(t, &ok)

	// Dial-time: the endpoint's address changes after it was saved (as DNS rebinding would).
	rc := newReceiver(t)
	rc.secret.Store(ok.Secret)
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE webhook_endpoints SET url = $1 WHERE id = $2`,
		rc.srv.URL, ok.ID); err != nil {
		t.Fatal(err)
	}
	d := webhook.NewDeliverer(e.DB.Pool, webhook.Guard{}, webhook.Settings{RetryBase: time.Hour, Timeout: time.Second},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	e.Must(200, "POST", "/v1/api/developers/webhooks/test", map[string]any{"id": ok.ID}, tok)
	if _, err := d.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a safety net for a busy machine
	for ; time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ds := deliveries(t, e, tok); len(ds) == 1 && ds[0].Attempts == 1 && ds[0].LastError != "" {
			if !strings.Contains(ds[0].LastError, "private or reserved") || rc.requests.Load() != 0 {
				t.Fatalf("dial not refused: %+v, requests %d", ds[0], rc.requests.Load())
			}
			return
		}
	}
	t.Fatalf("no failed attempt recorded: %+v", deliveries(t, e, tok))
}

// TestAPICallLog: calls made with an API key are logged (a refused one too) with
// secrets redacted in the query and body, listed, filtered, shown and exported; a
// session's calls are not logged; calls past 30 days are purged.
func TestAPICallLog(t *testing.T) {
	e := keyEnv(t, nil)
	tok, acc := owner(t, e, "caller", "09121250002")
	k := newKey(t, e, tok, "09121250002", walletKey())
	e.Must(200, "GET", creditPath+"?apikey="+k.Secret+"&page=1", nil, k.Secret)
	e.Must(403, "POST", "/v1/api/send", map[string]any{"text": "سلام", "password": "hunter2", "otp_token": "abc123"}, k.Secret)
	e.Must(200, "GET", creditPath, nil, tok) // a session: not logged

	var rows []apicall.Row
	deadline := time.Now().Add(time.Minute) // a safety net for a busy machine
	for ; len(rows) < 2 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		e.Must(200, "GET", "/v1/api/developers/api-calls", nil, tok).Decode(t, &rows)
	}
	if len(rows) != 2 || rows[0].Status != 403 || rows[1].Status != 200 || rows[0].APIKeyID != k.ID || rows[0].KeyTitle != "فروشگاه" {
		t.Fatalf("rows %+v", rows)
	}
	var post apicall.Detail
	e.Must(200, "GET", "/v1/api/developers/api-calls/"+itoa(rows[0].ID), nil, tok).Decode(t, &post)
	if strings.Contains(post.ReqBody, "hunter2") || strings.Contains(post.ReqBody, "abc123") || !strings.Contains(post.ReqBody, "سلام") ||
		!strings.Contains(post.RespBody, "403") {
		t.Fatalf("request body %q, response %q", post.ReqBody, post.RespBody)
	}
	var get apicall.Detail
	e.Must(200, "GET", "/v1/api/developers/api-calls/"+itoa(rows[1].ID), nil, tok).Decode(t, &get)
	if strings.Contains(get.Query, k.Secret) || !strings.Contains(get.Query, "page=1") || get.Method != "GET" {
		t.Fatalf("query %q", get.Query)
	}
	var leaked int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM api_calls
		WHERE query || req_body || resp_body LIKE '%' || $1 || '%' OR req_body LIKE '%hunter2%'`, k.Secret).Scan(&leaked)
	if leaked != 0 {
		t.Fatal("a secret reached the api_calls table")
	}
	e.Must(200, "GET", "/v1/api/developers/api-calls?status=4xx", nil, tok).Decode(t, &rows)
	if len(rows) != 1 || rows[0].Status != 403 {
		t.Fatalf("status filter %+v", rows)
	}
	e.Must(200, "GET", "/v1/api/developers/api-calls?path=credit&date_from=1400/01/01", nil, tok).Decode(t, &rows)
	if len(rows) != 1 {
		t.Fatalf("path filter %+v", rows)
	}
	e.Must(422, "GET", "/v1/api/developers/api-calls?status=abc", nil, tok)
	exportCalls(t, e, tok)
	// A key may not read the log (apikey.manage is the panel's).
	e.Must(403, "GET", "/v1/api/developers/api-calls", nil, k.Secret)

	// Purge: a call 31 days old goes, today's stay.
	if _, err := e.DB.Pool.Exec(context.Background(), `INSERT INTO api_calls (account_id, api_key_id, method, path, status,
		latency_us, created_at) VALUES ($1, $2, 'GET', '/old', 200, 1, now() - interval '31 days')`, acc, k.ID); err != nil {
		t.Fatal(err)
	}
	n, err := apicall.Purge(context.Background(), e.DB.Pool, 1000)
	if err != nil || n != 1 {
		t.Fatalf("purged %d %v", n, err)
	}
	var left int
	for end := time.Now().Add(time.Minute); time.Now().Before(end) && left != 3; time.Sleep(50 * time.Millisecond) {
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM api_calls WHERE account_id = $1`, acc).Scan(&left)
	}
	if left != 3 { // the two calls and the refused log read
		t.Fatalf("left %d", left)
	}
}

// exportCalls downloads the API-call log and checks its rows.
func exportCalls(t *testing.T, e *apitest.Env, tok string) {
	req, _ := http.NewRequest("GET", e.URL+"/v1/api/developers/api-calls/export", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != spreadsheet.ContentType {
		t.Fatalf("export: %d %.300s", res.StatusCode, body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows("فراخوانی‌های API")
	if err != nil || len(rows) != 3 || rows[1][2] != "POST" || rows[1][6] != "403" || !strings.HasPrefix(rows[1][0], "14") {
		t.Fatalf("rows %q %v", rows, err)
	}
}
