package live_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/report"
)

// prefix is a channel prefix of this test alone: pub/sub channels are shared by
// every logical database of the Redis server.
func prefix(t *testing.T) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "test" + hex.EncodeToString(b) + ":events:"
}

// liveServer runs a hub behind a gin route that takes the account from ?account=
// and the session from ?session= (the API takes both from the ticket) and returns
// its URL.
func liveServer(t *testing.T, hub *live.Hub) string {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/v1/ws", func(c *gin.Context) {
		account, _ := strconv.ParseInt(c.Query("account"), 10, 64)
		session, _ := strconv.ParseInt(c.Query("session"), 10, 64)
		if err := hub.Serve(c.Writer, c.Request, acl.Identity{AccountID: account, SessionID: session, IsOwner: true}); err != nil {
			status := http.StatusInternalServerError
			if errors.Is(err, context.Canceled) {
				status = http.StatusServiceUnavailable
			} else if e, ok := apperr.As(err); ok && e.Kind == apperr.RateLimited {
				status = http.StatusTooManyRequests
			} else if ok && e.Kind == apperr.Unauthorized {
				status = http.StatusUnauthorized
			}
			c.AbortWithStatus(status)
		}
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/ws"
}

// startHub runs a hub until the test ends and waits for its subscription.
func startHub(t *testing.T, rdb testenv.Redis, cfg live.HubConfig) (*live.Hub, context.CancelFunc) {
	t.Helper()
	hub := live.NewHub(rdb.Client, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hub.Run(ctx); err != nil {
			t.Errorf("hub: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-hub.Ready():
	case <-time.After(5 * time.Second):
		t.Fatal("hub did not subscribe")
	}
	return hub, cancel
}

func dial(t *testing.T, url string, account int64, header http.Header) *websocket.Conn {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(url+"?account="+strconv.FormatInt(account, 10), header)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial account %d: %v (status %d)", account, err, status)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// waitClients waits until the hub counts n sockets of the account.
func waitClients(t *testing.T, hub *live.Hub, account int64, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a safety net for a busy machine
	for hub.Clients(account) != n {
		if time.Now().After(deadline) {
			t.Fatalf("account %d has %d sockets, want %d", account, hub.Clients(account), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type received struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// next reads the next event, skipping "9" answers.
func next(t *testing.T, ws *websocket.Conn, within time.Duration) received {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(within))
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if string(msg) == "9" {
			continue
		}
		var m received
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatalf("not an event: %q", msg)
		}
		return m
	}
}

func TestHubFansOutPerAccount(t *testing.T) {
	rdb := testenv.RedisDB(t)
	p := prefix(t)
	hub, stop := startHub(t, rdb, live.HubConfig{Prefix: p})
	url := liveServer(t, hub)
	a1 := dial(t, url, 1, nil)
	a2 := dial(t, url, 1, http.Header{"Origin": {"http://" + strings.TrimPrefix(strings.Split(url, "/v1")[0], "ws://")}})
	b := dial(t, url, 2, nil)
	waitClients(t, hub, 1, 2)
	waitClients(t, hub, 2, 1)

	ctx := context.Background()
	pub := live.NewPublisher(rdb.Client, p)
	if err := pub.Publish(ctx, 1, live.EventCreditChanged, map[string]int64{"credit": 5000}); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish(ctx, 2, live.EventInboxReceived, map[string]string{"sender": "989121112233"}); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []*websocket.Conn{a1, a2} {
		m := next(t, ws, 3*time.Second)
		if m.Event != live.EventCreditChanged || string(m.Data) != `{"credit":5000}` {
			t.Fatalf("account 1 got %s %s", m.Event, m.Data)
		}
	}
	// B's first event is its own: it never saw account 1's.
	if m := next(t, b, 3*time.Second); m.Event != live.EventInboxReceived {
		t.Fatalf("account 2 got %s %s", m.Event, m.Data)
	}
	// And account 1 does not get account 2's: the next thing a1 sees is the marker.
	if err := pub.PublishMany(ctx, []live.Event{{AccountID: 1, Event: "marker", Data: 1}}); err != nil {
		t.Fatal(err)
	}
	if m := next(t, a1, 3*time.Second); m.Event != "marker" {
		t.Fatalf("account 1 then got %s %s", m.Event, m.Data)
	}

	// A browser on another site is refused.
	_, res, err := websocket.DefaultDialer.Dial(url+"?account=1", http.Header{"Origin": {"https://evil.example"}})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin socket: %v %v", err, res)
	}

	// Shutting down closes every socket with 1001 and refuses new ones.
	stop()
	_ = b.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		if _, _, err := b.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Fatalf("socket closed with %v, want 1001", err)
			}
			break
		}
	}
	_, res, err = websocket.DefaultDialer.Dial(url+"?account=1", nil)
	if err == nil || res == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("socket after shutdown: %v %v", err, res)
	}
}

func TestPingKeepsSocketOpen(t *testing.T) {
	rdb := testenv.RedisDB(t)
	p := prefix(t)
	hub, _ := startHub(t, rdb, live.HubConfig{Prefix: p, ReadTimeout: 3 * time.Second})
	url := liveServer(t, hub)
	pinger := dial(t, url, 7, nil)
	silent := dial(t, url, 7, nil)
	waitClients(t, hub, 7, 2)

	// Neither client reads (so neither answers the server's ping frames); only one
	// sends the panel's "9" keep-alive, every 250 ms (a twelfth of the read
	// timeout, so a busy machine's late ping still comes in time), until the
	// server has closed the silent one after its read timeout.
	for i := 0; hub.Clients(7) != 1; i++ {
		if err := pinger.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
			t.Fatalf("ping %d: %v", i, err)
		}
		if i > 240 { // a minute: a safety net
			t.Fatalf("the silent socket is still open after %d pings", i)
		}
		time.Sleep(250 * time.Millisecond)
	}
	_ = silent.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		if _, _, err := silent.ReadMessage(); err != nil {
			break // closed by the server after its read timeout
		}
	}
	// The pinger got its "9" answers and still receives events.
	_ = pinger.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, msg, err := pinger.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("answer to the ping: %q %v", msg, err)
	}
	if err := live.NewPublisher(rdb.Client, p).Publish(context.Background(), 7, live.EventTicketUpdated, map[string]int{"id": 1}); err != nil {
		t.Fatal(err)
	}
	if m := next(t, pinger, 30*time.Second); m.Event != live.EventTicketUpdated {
		t.Fatalf("after pinging: %s", m.Event)
	}
}

func TestProgressPump(t *testing.T) {
	ctx := context.Background()
	db := testenv.Postgres(t)
	rdb := testenv.RedisDB(t)
	p := prefix(t)
	var account, send int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('pump') RETURNING id`).Scan(&account); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, requested, recipients,
		submitted, delivered, undelivered, blacklisted, rejected, parts, total_parts, quote, cost, expanded_at)
		VALUES ($1, 'quick', '3000', 'سلام', 'sending', 100, 98, 60, 40, 5, 2, 1, 1, 98, 23000, 22000, now())
		RETURNING id`, account).Scan(&send); err != nil {
		t.Fatal(err)
	}
	hub, _ := startHub(t, rdb, live.HubConfig{Prefix: p})
	ws := dial(t, liveServer(t, hub), account, nil)
	waitClients(t, hub, account, 1)

	reports := report.New(db.Pool)
	pub := live.NewPublisher(rdb.Client, p)
	pump := live.NewProgressPump(rdb.Client, reports, pub, live.PumpConfig{Interval: 50 * time.Millisecond})
	marker := func() {
		t.Helper()
		if err := pub.Publish(ctx, account, "marker", nil); err != nil {
			t.Fatal(err)
		}
	}
	drain := func(pp *live.ProgressPump, want int) {
		t.Helper()
		if n, err := pp.Drain(ctx); err != nil || n != want {
			t.Fatalf("drain popped %d, %v; want %d", n, err, want)
		}
	}
	progress := func(wantStatus string) report.Stats {
		t.Helper()
		m := next(t, ws, 3*time.Second)
		if m.Event != live.EventSendProgress {
			t.Fatalf("got %s %s, want send.progress", m.Event, m.Data)
		}
		var st report.Stats
		if err := json.Unmarshal(m.Data, &st); err != nil {
			t.Fatal(err)
		}
		if st.ID != send || st.Status != wantStatus || strings.Contains(string(m.Data), `"text"`) {
			t.Fatalf("progress %s", m.Data)
		}
		return st
	}
	status := func(want string) {
		t.Helper()
		m := next(t, ws, 3*time.Second)
		if m.Event != live.EventSendStatus || string(m.Data) != `{"id":`+strconv.FormatInt(send, 10)+`,"status":"`+want+`"}` {
			t.Fatalf("got %s %s, want send.status %s", m.Event, m.Data, want)
		}
	}
	expectMarker := func() {
		t.Helper()
		if m := next(t, ws, 3*time.Second); m.Event != "marker" {
			t.Fatalf("got %s %s, want nothing before the marker", m.Event, m.Data)
		}
	}

	// A dirty send: progress with the counters, and its status (first seen).
	if err := live.MarkDirty(ctx, rdb.Client, send, send); err != nil {
		t.Fatal(err)
	}
	drain(pump, 1)
	st := progress("sending")
	if st.Requested != 100 || st.Sent != 60 || st.Delivered != 40 || st.Undelivered != 5 || st.Blacklisted != 2 ||
		st.Rejected != 1 || st.Pending != 52 || st.Parts != 98 || st.Price != 22000 {
		t.Fatalf("progress counts %+v", st)
	}
	status("sending")
	drain(pump, 0) // nothing dirty

	// More receipts, same status: progress only.
	if _, err := db.Pool.Exec(ctx, `UPDATE sends SET delivered = 80 WHERE id = $1`, send); err != nil {
		t.Fatal(err)
	}
	_ = live.MarkDirty(ctx, rdb.Client, send)
	drain(pump, 1)
	if st := progress("sending"); st.Delivered != 80 || st.Pending != 12 {
		t.Fatalf("second progress %+v", st)
	}
	marker()
	expectMarker()

	// Done: progress and the status change.
	if _, err := db.Pool.Exec(ctx, `UPDATE sends SET status = 'done', delivered = 90, finished_at = now() WHERE id = $1`, send); err != nil {
		t.Fatal(err)
	}
	_ = live.MarkDirty(ctx, rdb.Client, send)
	drain(pump, 1)
	progress("done")
	status("done")

	// A second worker instance (its own empty cache) does not repeat the status.
	other := live.NewProgressPump(rdb.Client, reports, pub, live.PumpConfig{})
	_ = live.MarkDirty(ctx, rdb.Client, send)
	drain(other, 1)
	progress("done")
	marker()
	expectMarker()

	// Run drains on its own every interval.
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- pump.Run(runCtx) }()
	_ = live.MarkDirty(ctx, rdb.Client, send, 1<<40) // an unknown id is skipped
	progress("done")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n, _ := rdb.Client.SCard(ctx, jobs.DirtySends).Result(); n != 0 {
		t.Fatalf("%d ids left in the dirty set", n)
	}
}

// TestAccountCapIsAtomic opens 30 sockets of one account at once against a cap of
// 20: exactly 20 are accepted (the cap used to be checked before the upgrade and
// counted after it, so concurrent upgrades slipped past it), the rest get 429, and a
// closed socket gives its slot back.
func TestAccountCapIsAtomic(t *testing.T) {
	rdb := testenv.RedisDB(t)
	hub, _ := startHub(t, rdb, live.HubConfig{Prefix: prefix(t), MaxPerAccount: 20})
	url := liveServer(t, hub) + "?account=5"
	type result struct {
		ws     *websocket.Conn
		status int
	}
	results := make(chan result, 30)
	start := make(chan struct{})
	for range 30 {
		go func() {
			<-start
			ws, res, err := websocket.DefaultDialer.Dial(url, nil)
			if err != nil {
				status := 0
				if res != nil {
					status = res.StatusCode
				}
				results <- result{status: status}
				return
			}
			results <- result{ws: ws, status: http.StatusSwitchingProtocols}
		}()
	}
	close(start)
	var open []*websocket.Conn
	for range 30 {
		r := <-results
		switch {
		case r.ws != nil:
			open = append(open, r.ws)
			t.Cleanup(func() { r.ws.Close() })
		case r.status != http.StatusTooManyRequests:
			t.Fatalf("refused socket: status %d, want 429", r.status)
		}
	}
	if len(open) != 20 {
		t.Fatalf("%d sockets accepted, want exactly 20", len(open))
	}
	waitClients(t, hub, 5, 20)
	open[0].Close()
	waitClients(t, hub, 5, 19)
	dial(t, liveServer(t, hub), 5, nil) // the freed slot is usable again
}

// TestCloseSessions closes the sockets of a revoked session only, and refuses that
// session afterwards (a ticket redeemed just before the revocation).
func TestCloseSessions(t *testing.T) {
	rdb := testenv.RedisDB(t)
	hub, _ := startHub(t, rdb, live.HubConfig{Prefix: prefix(t)})
	url := liveServer(t, hub)
	revoked, _, err := websocket.DefaultDialer.Dial(url+"?account=3&session=11", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer revoked.Close()
	other, _, err := websocket.DefaultDialer.Dial(url+"?account=3&session=12", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	waitClients(t, hub, 3, 2)
	hub.CloseSessions(11)
	_ = revoked.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, _, err = revoked.ReadMessage()
	if !websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
		t.Fatalf("revoked socket: %v, want close 1008", err)
	}
	waitClients(t, hub, 3, 1)
	if _, res, err := websocket.DefaultDialer.Dial(url+"?account=3&session=11", nil); err == nil || res.StatusCode != 401 {
		t.Fatalf("revoked session reconnected: %v", err)
	}
	if err := other.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatal(err)
	}
	_ = other.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := other.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("other session's socket: %q %v", msg, err)
	}
}
