package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
)

// assistantRoutes are the AI writing assistant (spec §7 AI assistants,
// docs/assistant.md): what it can do with the model configured and the
// editor's chat, part of composing a send, and the ticket draft, part of
// support. The chat and the draft spend the account's daily quota.
func (s *Server) assistantRoutes() []Route {
	if s.Assistant == nil {
		return nil
	}
	return []Route{
		{http.MethodGet, "/panel/agent", acl.SendCreate, s.assistantCapabilities},
		{http.MethodPost, "/panel/agent", acl.SendCreate, byForm(s.Assistant.Ask, false)},
		{http.MethodPost, "/ticket/ai", acl.SupportManage, byForm(s.Assistant.DraftTicket, false)},
	}
}

// assistantCapabilities answers which quick actions the assistant offers and
// whether it writes freely (the offline model does not).
func (s *Server) assistantCapabilities(c *gin.Context) { reply(c, s.Assistant.Capabilities(), nil) }
