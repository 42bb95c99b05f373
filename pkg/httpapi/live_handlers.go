package httpapi

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/live"
)

// liveTicket is POST /v1/api/live/ticket: a single-use ticket, valid for a few
// seconds, that opens the caller's websocket (the session token never goes in a URL).
func (s *Server) liveTicket(c *gin.Context) {
	t, err := s.Auth.IssueTicket(c.Request.Context(), c.GetString(ctxToken))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, t)
}

// liveSocket is GET /v1/ws?ticket=: the caller's websocket of live events. The ticket
// is its only credential (no session token, no header); errors before the upgrade
// (bad ticket, hub shutting down, too many sockets) get the usual envelope.
// A user whose role or permissions change (or whose sessions end) has their sockets
// closed on every instance, so the panel reconnects under the new permissions
// (live.Allowed filters each event by them).
func liveSocket(a *auth.Service, hub *live.Hub) gin.HandlerFunc {
	a.OnForget(func(keys []string) { hub.CloseUsers(auth.UsersIn(keys)...) })
	return func(c *gin.Context) {
		id, err := a.RedeemTicket(c.Request.Context(), c.Query("ticket"))
		if err == nil {
			c.Set(ctxIdentity, id)
			setDeadlines(c, time.Time{}) // authenticated: it lives without deadlines (it pings instead)
			err = hub.Serve(c.Writer, c.Request, id)
		}
		if err != nil {
			Fail(c, err)
		}
	}
}
