// Package apitest starts the real API over HTTP against a fresh PostgreSQL database
// and a claimed Redis database, for integration tests of any domain. It is imported
// only by _test files.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/validate"
)

// Env is a running API with its stores.
type Env struct {
	T         testing.TB
	URL       string
	Config    config.Config
	DB        testenv.Database
	Redis     testenv.Redis
	Queue     *asynq.Client
	Inspector *asynq.Inspector
	Engine    http.Handler
	Deps      httpapi.Deps
	Accounts  *account.Service
	Auth      *auth.Service
	// Metrics is the instance's Prometheus registry (docs/metrics.md).
	Metrics *prometheus.Registry
	codes   *codeLog
}

// codeLog remembers the verification messages (codes and notices) enqueued for
// each mobile, as the API enqueues them: a worker running beside the API
// (internal/testing/enginetest) may take a task off the queue before a test could read it there.
// It also fails the test when a message is queued for a user no other connection
// can see yet: a worker woken at once would drop it (the invitation of a colleague
// once queued its SMS inside the transaction that created the colleague).
type codeLog struct {
	*asynq.Client
	tb   testing.TB
	pool *pgxpool.Pool
	mu   sync.Mutex
	all  map[string][]jobs.Verification
}

// EnqueueContext records a verification task, then enqueues it.
func (q *codeLog) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	if task.Type() == jobs.TypeVerification {
		var v jobs.Verification
		if err := json.Unmarshal(task.Payload(), &v); err == nil {
			q.committed(ctx, v)
			q.mu.Lock()
			q.all[v.Mobile] = append(q.all[v.Mobile], v)
			q.mu.Unlock()
		}
	}
	return q.Client.EnqueueContext(ctx, task, opts...)
}

// committed fails the test unless the message's user is visible outside the
// caller's transaction.
func (q *codeLog) committed(ctx context.Context, v jobs.Verification) {
	if v.UserID == 0 {
		return
	}
	var seen bool
	if err := q.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)`, v.UserID).Scan(&seen); err != nil {
		q.tb.Errorf("apitest: look up user %d: %v", v.UserID, err)
	} else if !seen {
		q.tb.Errorf("apitest: a %q message for user %d was queued before the user was committed", v.Purpose, v.UserID)
	}
}

func (q *codeLog) get(mobile string) []jobs.Verification {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]jobs.Verification(nil), q.all[mobile]...)
}

// Start builds the API. tweak may adjust the configuration first.
func Start(tb testing.TB, tweak func(*config.Config)) *Env {
	tb.Helper()
	d := testenv.Postgres(tb)
	r := testenv.RedisDB(tb)
	OpenSendHours(tb, d)
	cfg, err := config.Load()
	if err != nil {
		tb.Fatal(err)
	}
	cfg.DatabaseURL, cfg.RedisAddr, cfg.RedisDB = d.URL, r.Addr, r.DB
	cfg.OTPResendAfter = time.Second
	// Every test signs up from 127.0.0.1, some many users and numbers: the sign-up and
	// per-number caps are tested with their own settings.
	cfg.RegisterPerIPPerHour, cfg.OTPPerNumberPerDay = 1000, 1000
	cfg.FilesDir = tb.TempDir() // uploads of the test, removed with it
	if tweak != nil {
		tweak(&cfg)
	}
	return serve(tb, cfg, d, r)
}

// Another starts a second API instance on the same stores, as behind a load
// balancer: its own token cache, live hub and subscriptions.
func (e *Env) Another() *Env {
	e.T.Helper()
	return serve(e.T, e.Config, e.DB, e.Redis)
}

// serve builds one API instance and runs its hub and revocation watcher until the
// test ends.
func serve(tb testing.TB, cfg config.Config, d testenv.Database, r testenv.Redis) *Env {
	tb.Helper()
	opt := asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB}
	queue := asynq.NewClient(opt)
	insp := asynq.NewInspector(opt)
	tb.Cleanup(func() { queue.Close(); insp.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	codes := &codeLog{Client: queue, tb: tb, pool: d.Pool, all: map[string][]jobs.Verification{}}
	deps := httpapi.Wire(cfg, log, d.Pool, r.Client, codes, nil)
	// Pub/sub channels are shared by every Redis database: prefixes of their own.
	deps.Live = live.NewHub(r.Client, live.HubConfig{Prefix: "test:" + d.Name + ":events:", Log: log})
	deps.Auth.UseRedis(r.Client, "test:"+d.Name+":sessions:revoked")
	reg := prometheus.NewRegistry()
	deps.Metrics = reg
	deps.Live.Instrument(reg)
	ctx, stop := context.WithCancel(context.Background())
	hubDone, watchDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(hubDone); _ = deps.Live.Run(ctx) }()
	go func() { defer close(watchDone); _ = deps.Auth.WatchRevocations(ctx, deps.Live.CloseSessions) }()
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		if deps.CallLog != nil {
			deps.CallLog.Run(ctx)
		}
	}()
	tb.Cleanup(func() { stop(); <-hubDone; <-watchDone; <-logDone })
	for _, ready := range []<-chan struct{}{deps.Live.Ready(), deps.Auth.RevocationsReady()} {
		select {
		case <-ready:
		case <-time.After(5 * time.Second):
			tb.Fatal("apitest: the live hub or the revocation watcher did not subscribe")
		}
	}
	engine := httpapi.New(deps)
	srv := httptest.NewServer(engine)
	tb.Cleanup(srv.Close)
	return &Env{T: tb, URL: srv.URL, Config: cfg, DB: d, Redis: r, Queue: queue, Inspector: insp,
		Engine: engine, Deps: deps, Accounts: deps.Accounts, Auth: deps.Auth, Metrics: reg, codes: codes}
}

// Response is a decoded envelope.
type Response struct {
	Status int
	Header http.Header
	Data   json.RawMessage
	Meta   httpapi.Meta
	Raw    []byte
}

// Decode unmarshals the data field.
func (r Response) Decode(tb testing.TB, dst any) {
	tb.Helper()
	if err := json.Unmarshal(r.Data, dst); err != nil {
		tb.Fatalf("decode data %s: %v", r.Data, err)
	}
}

// Do calls the API. body may be nil, a string (sent raw) or a value (sent as JSON).
func (e *Env) Do(method, path string, body any, token string, headers ...string) Response {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	var env struct {
		Data json.RawMessage `json:"data"`
		Meta httpapi.Meta    `json:"meta"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		e.T.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, raw)
	}
	out.Data, out.Meta = env.Data, env.Meta
	return out
}

// Must calls the API and fails the test unless the status is want.
func (e *Env) Must(want int, method, path string, body any, token string, headers ...string) Response {
	e.T.Helper()
	r := e.Do(method, path, body, token, headers...)
	if r.Status != want {
		e.T.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r
}

// LastCode returns the newest one-time code the API enqueued for a mobile, as the
// SMS would carry it.
func (e *Env) LastCode(mobile string) string {
	e.T.Helper()
	all := e.verifications(mobile)
	best := testenv.Newest(all)
	if best.Text == "" {
		e.T.Fatalf("no verification message for %s among %d", mobile, len(all))
	}
	return CodeIn(best.Text)
}

// Notices returns the texts of the security notices queued for a mobile.
func (e *Env) Notices(mobile string) []string {
	e.T.Helper()
	var out []string
	for _, v := range e.verifications(mobile) {
		if v.Purpose == auth.PurposeNotice {
			out = append(out, v.Text)
		}
	}
	return out
}

// Codes returns the one-time-code messages (not the notices) queued for a mobile, in
// order; Voice marks a code read out by a call.
func (e *Env) Codes(mobile string) []jobs.Verification {
	var out []jobs.Verification
	for _, v := range e.verifications(mobile) {
		if v.Purpose != auth.PurposeNotice {
			out = append(out, v)
		}
	}
	return out
}

// Texts returns every text queued for a mobile (codes, invitations, notices), in order.
func (e *Env) Texts(mobile string) []string {
	e.T.Helper()
	var out []string
	for _, v := range e.verifications(mobile) {
		out = append(out, v.Text)
	}
	return out
}

// verifications lists the verification messages the API enqueued for a mobile.
func (e *Env) verifications(mobile string) []jobs.Verification {
	return e.codes.get(mobile)
}

// CodeIn extracts the digits of the first run of 4–8 digits in a message.
func CodeIn(text string) string { return testenv.CodeIn(text) }

// Register signs a user up through the API and proves the mobile with the texted code.
func (e *Env) Register(username, password, mobile string) {
	e.T.Helper()
	reg := e.RegisterUnverified(username, password, mobile)
	intl, _ := validate.NormalizeMobile(mobile)
	e.Must(http.StatusOK, "POST", "/v1/api/user/register/verify", map[string]string{
		"verify_token": reg.VerifyToken, "code": e.LastCode(intl)}, "")
}

// RegisterUnverified signs a user up without confirming the mobile's code.
func (e *Env) RegisterUnverified(username, password, mobile string) auth.Registration {
	e.T.Helper()
	r := e.Must(http.StatusCreated, "POST", "/v1/api/user/register", map[string]any{
		"name": "کاربر " + username, "username": username, "mobile": mobile,
		"password": password, "password_confirmation": password, "accept_rules": true,
	}, "")
	var reg auth.Registration
	r.Decode(e.T, &reg)
	return reg
}

// Login logs in through the API, doing the second step with the queued code, and
// returns the session token.
func (e *Env) Login(username, password string) string {
	e.T.Helper()
	r := e.Must(http.StatusOK, "POST", "/v1/api/acl/auth/login", map[string]string{"username": username, "password": password}, "")
	var res auth.LoginResult
	r.Decode(e.T, &res)
	if res.Token != "" {
		return res.Token
	}
	u, err := e.Accounts.ByUsername(context.Background(), username)
	if err != nil {
		e.T.Fatal(err)
	}
	r = e.Must(http.StatusOK, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{
		"login_token": res.LoginToken, "code": e.LastCode(u.Mobile)}, "")
	var tok struct{ Token string }
	r.Decode(e.T, &tok)
	if tok.Token == "" {
		e.T.Fatal(fmt.Sprintf("no token in %s", r.Raw))
	}
	return tok.Token
}

// WSURL is the URL of the live websocket opened with a ticket.
func (e *Env) WSURL(ticket string) string {
	return "ws" + strings.TrimPrefix(e.URL, "http") + "/v1/ws?ticket=" + url.QueryEscape(ticket)
}

// Ticket fetches a single-use websocket ticket for a session token.
func (e *Env) Ticket(token string) string {
	e.T.Helper()
	var t auth.Ticket
	e.Must(http.StatusOK, "POST", "/v1/api/live/ticket", nil, token).Decode(e.T, &t)
	if t.Ticket == "" {
		e.T.Fatal("apitest: empty websocket ticket")
	}
	return t.Ticket
}

// Socket opens the live websocket of a session with a fresh ticket; the test's end
// closes it.
func (e *Env) Socket(token string) *websocket.Conn {
	e.T.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(e.WSURL(e.Ticket(token)), nil)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		e.T.Fatalf("apitest: open socket: %v (status %d)", err, status)
	}
	e.T.Cleanup(func() { ws.Close() })
	return ws
}

// StaffPassword is the password of the staff users Staff creates.
const StaffPassword = "Staff@12345"

// Staff creates a back-office staff user with the mobile and logs it in through
// the staff login's second step, returning its session token.
func (e *Env) Staff(username, mobile string) string {
	e.T.Helper()
	if _, err := staff.AddUser(context.Background(), e.DB.Pool, staff.NewUser{Username: username, Password: StaffPassword,
		Name: "پشتیبان " + username, Mobile: mobile}); err != nil {
		e.T.Fatal(err)
	}
	return e.StaffLogin(username, StaffPassword, mobile)
}

// StaffLogin logs a staff user in at the back office's door with the second-step
// code texted to mobile, and returns the staff token.
func (e *Env) StaffLogin(username, password, mobile string) string {
	e.T.Helper()
	var res auth.LoginResult
	e.Must(http.StatusOK, "POST", "/v1/api/admin/auth/login", map[string]string{"username": username, "password": password}, "").Decode(e.T, &res)
	if res.Token != "" || !res.OTPRequired || res.LoginToken == "" {
		e.T.Fatalf("apitest: staff login skipped the second step: %+v", res)
	}
	intl, _ := validate.NormalizeMobile(mobile)
	var tok struct{ Token string }
	e.Must(http.StatusOK, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": res.LoginToken,
		"code": e.LastCode(intl)}, "").Decode(e.T, &tok)
	if tok.Token == "" {
		e.T.Fatal("apitest: no staff token")
	}
	return tok.Token
}

// OpenSendHours opens the advertising lines' sending hours all day: tests run at
// any hour of the night. Tests of the sending hours set their own
// (docs/sending-rules.md).
func OpenSendHours(tb testing.TB, d testenv.Database) {
	tb.Helper()
	if _, err := d.Pool.Exec(context.Background(), `UPDATE send_hours SET start_minute = 0, end_minute = 1440`); err != nil {
		tb.Fatal(err)
	}
}
