package httpapi

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/assistant"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/pattern"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/support"
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

// newAssistant builds the assistant: the OpenAI-compatible client when
// ASSISTANT_URL is set, else the offline model; the brand is the account's
// name (as for patterns), a tracked link counts at its sent length and ticket
// drafts use the support categories.
func newAssistant(cfg config.Config, pool *pgxpool.Pool, limiter *ratelimit.Limiter, patterns *pattern.Service,
	tickets *support.Service, links *shortlink.Codec) *assistant.Service {
	var model assistant.Model
	if cfg.AssistantURL != "" {
		model = &assistant.OpenAI{BaseURL: cfg.AssistantURL, Model: cfg.AssistantModel, Key: cfg.AssistantKey,
			Stream: cfg.AssistantStream, Timeout: cfg.AssistantTimeout}
	}
	svc := assistant.New(pool, model, limiter, assistant.Options{DailyQuota: cfg.AssistantDailyQuota, PerMin: cfg.AssistantPerMin})
	svc.Brand = patterns.Brand
	svc.LinkLength = len(links.Sized(shortlink.Marker + "1}"))
	svc.Categories = func(ctx context.Context, parent int64) ([]assistant.Category, error) {
		cs, err := tickets.Categories(ctx, parent)
		out := make([]assistant.Category, len(cs))
		for i, c := range cs {
			out[i] = assistant.Category{ID: c.ID, Title: c.Title}
		}
		return out, err
	}
	return svc
}
