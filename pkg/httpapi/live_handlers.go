package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/live"
)

// liveSocket is GET /v1/ws?token=: the caller's websocket of live events. It runs
// behind the auth guard (the guard reads ?token=), so the identity is set; errors
// before the upgrade (hub shutting down, too many sockets) get the usual envelope.
func liveSocket(hub *live.Hub) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := hub.Serve(c.Writer, c.Request, who(c).AccountID); err != nil {
			Fail(c, err)
		}
	}
}
