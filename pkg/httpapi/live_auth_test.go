package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
)

// dialStatus opens a websocket and returns the handshake's status (101 when it
// opened; the socket is closed again).
func dialStatus(t *testing.T, url string) int {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil {
		ws.Close()
		return http.StatusSwitchingProtocols
	}
	if res == nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	return res.StatusCode
}

// awaitOpen checks the socket is served: its "9" is answered.
func awaitOpen(t *testing.T, ws *websocket.Conn) {
	t.Helper()
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
		t.Fatalf("ping answer %q %v", msg, err)
	}
}

// awaitRevoked checks the server closes the socket as revoked within 3 seconds.
func awaitRevoked(t *testing.T, ws *websocket.Conn, which string) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue // an event sent before the revocation
		}
		if !websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
			t.Fatalf("%s socket: %v, want closed with 1008 (session revoked)", which, err)
		}
		return
	}
}

// TestLogoutClosesSocketsOnEveryInstance: after a logout on one API instance, the
// session's sockets on it and on another instance are closed within seconds, and the
// other instance's warm token cache rejects the token at once (not after
// SESSION_CACHE_TTL); another session of the same user keeps its socket.
func TestLogoutClosesSocketsOnEveryInstance(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	e2 := e.Another()
	e.Register("nima", pw, "09121112233")
	tok, other := e.Login("nima", pw), e.Login("nima", pw)
	a, b, kept := e.Socket(tok), e2.Socket(tok), e2.Socket(other)
	for _, ws := range []*websocket.Conn{a, b, kept} {
		awaitOpen(t, ws)
	}
	e2.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok) // caches the token there
	e.Must(200, "POST", "/v1/api/acl/auth/logout", nil, tok)
	awaitRevoked(t, a, "same instance")
	awaitRevoked(t, b, "other instance")
	e2.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, tok)
	e2.Must(401, "POST", "/v1/api/live/ticket", nil, tok)
	awaitOpen(t, kept)
	e2.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, other)
}

// TestPasswordResetClosesSockets: a password reset revokes every session of the user
// and closes their sockets on every instance.
func TestPasswordResetClosesSockets(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	e2 := e.Another()
	e.Register("leila", pw, "09361234567")
	tok := e.Login("leila", pw)
	a, b := e.Socket(tok), e2.Socket(tok)
	awaitOpen(t, a)
	awaitOpen(t, b)
	e2.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok)
	resetPassword(e, "leila", "989361234567", "Newpass@2025")
	awaitRevoked(t, a, "same instance")
	awaitRevoked(t, b, "other instance")
	e2.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, tok)
}

// TestSessionTokenOnlyInHeader: a session token in ?token= opens nothing, on REST
// routes or the websocket, and neither does a session token in ?ticket=; a ticket is
// no bearer token either.
func TestSessionTokenOnlyInHeader(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("omid", pw, "09121113344")
	tok := e.Login("omid", pw)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token?token="+tok, nil, "")
	e.Must(401, "POST", "/v1/api/live/ticket?token="+tok, nil, "")
	wsBase := "ws" + strings.TrimPrefix(e.URL, "http") + "/v1/ws"
	if s := dialStatus(t, wsBase+"?token="+tok); s != 401 {
		t.Fatalf("socket with ?token=<session>: %d, want 401", s)
	}
	if s := dialStatus(t, e.WSURL(tok)); s != 401 {
		t.Fatalf("socket with the session token as ticket: %d, want 401", s)
	}
	if s := dialStatus(t, wsBase); s != 401 {
		t.Fatalf("socket without a ticket: %d, want 401", s)
	}
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, e.Ticket(tok))
}

// TestTicketOnceAndExpires: a ticket opens one socket, then never again; an unused
// ticket expires after LIVE_TICKET_TTL; a ticket of a session logged out since is
// refused.
func TestTicketOnceAndExpires(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.LiveTicketTTL = time.Second })
	e.Register("reza", pw, "09121115566")
	tok := e.Login("reza", pw)
	ticket := e.Ticket(tok)
	if s := dialStatus(t, e.WSURL(ticket)); s != 101 {
		t.Fatalf("fresh ticket: %d, want 101", s)
	}
	if s := dialStatus(t, e.WSURL(ticket)); s != 401 {
		t.Fatalf("ticket used twice: %d, want 401", s)
	}
	late := e.Ticket(tok)
	time.Sleep(1500 * time.Millisecond)
	if s := dialStatus(t, e.WSURL(late)); s != 401 {
		t.Fatalf("expired ticket: %d, want 401", s)
	}
	orphan := e.Ticket(tok)
	e.Must(200, "POST", "/v1/api/acl/auth/logout", nil, tok)
	if s := dialStatus(t, e.WSURL(orphan)); s != 401 {
		t.Fatalf("ticket of a logged-out session: %d, want 401", s)
	}
}
