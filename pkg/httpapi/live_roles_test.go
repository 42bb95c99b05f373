package httpapi_test

import (
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/config"
)

// awaitClosed checks the server closes the socket with code within 3 seconds.
func awaitClosed(t *testing.T, ws *websocket.Conn, code int, which string) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		if _, _, err := ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, code) {
				t.Fatalf("%s socket: %v, want closed with %d", which, err, code)
			}
			return
		}
	}
}

// Editing a colleague's role closes their live sockets on every API instance (1012):
// the panel reconnects and receives only what the new role reads (issue 38 item 3).
// Their session stays open; the owner's socket stays.
func TestRoleChangeReopensColleagueSockets(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	e2 := e.Another()
	tok, _ := owner(t, e, "liverole", "09121238851")
	role := makeRole(t, e, tok, "گزارش", acl.ReportView)
	ct := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121238852", role))
	a, b, kept := e.Socket(ct), e2.Socket(ct), e2.Socket(tok)
	for _, ws := range []*websocket.Conn{a, b, kept} {
		awaitOpen(t, ws)
	}
	e.Must(200, "POST", "/v1/api/acl/partner/update_role", map[string]any{"id": role, "name": "پشتیبانی",
		"permissions": []acl.Permission{acl.SupportManage}}, tok)
	awaitClosed(t, a, websocket.CloseServiceRestart, "same instance")
	awaitClosed(t, b, websocket.CloseServiceRestart, "other instance")
	awaitOpen(t, kept)
	e2.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, ct)
	awaitOpen(t, e2.Socket(ct))
}
