package httpapi

import (
	"github.com/gin-gonic/gin"
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
