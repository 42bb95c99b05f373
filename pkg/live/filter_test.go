package live_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/live"
)

// roleServer serves sockets of account 1: the owner's at ?as=owner, else a
// colleague's holding only support.manage.
func roleServer(t *testing.T, hub *live.Hub) string {
	t.Helper()
	r := gin.New()
	r.GET("/v1/ws", func(c *gin.Context) {
		id := acl.Identity{AccountID: 1, UserID: 2, SessionID: 2, Permissions: []acl.Permission{acl.SupportManage}}
		if c.Query("as") == "owner" {
			id = acl.Identity{AccountID: 1, UserID: 1, SessionID: 1, IsOwner: true}
		}
		if err := hub.Serve(c.Writer, c.Request, id); err != nil {
			c.AbortWithStatus(500)
		}
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/ws"
}

// A colleague's socket receives only the events their role reads (issue 38 item 3):
// one limited to support gets ticket updates, never received messages, credit or send
// progress; the owner gets everything. CloseUsers closes a user's sockets (1012) when
// their permissions change, so the panel reconnects under the new ones.
func TestEventsFollowThePermissions(t *testing.T) {
	rdb := testenv.RedisDB(t)
	p := prefix(t)
	hub, _ := startHub(t, rdb, live.HubConfig{Prefix: p})
	url := roleServer(t, hub)
	own, _, err := websocket.DefaultDialer.Dial(url+"?as=owner", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	support, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer support.Close()
	waitClients(t, hub, 1, 2)
	pub := live.NewPublisher(rdb.Client, p)
	events := []string{live.EventInboxReceived, live.EventCreditChanged, live.EventSendProgress, live.EventSendStatus,
		live.EventFileProgress, "unknown.event", live.EventTicketUpdated}
	for _, ev := range events {
		if err := pub.Publish(context.Background(), 1, ev, map[string]string{"text": "کد بانک ۱۲۳۴"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range events {
		if m := next(t, own, 3*time.Second); m.Event != want {
			t.Fatalf("owner got %s, want %s", m.Event, want)
		}
	}
	if m := next(t, support, 3*time.Second); m.Event != live.EventTicketUpdated {
		t.Fatalf("the support colleague's first event is %s %s", m.Event, m.Data)
	}
	hub.CloseUsers(2)
	_ = support.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		if _, _, err := support.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseServiceRestart) {
				t.Fatalf("socket of a changed role: %v, want 1012", err)
			}
			break
		}
	}
	waitClients(t, hub, 1, 1)
}
