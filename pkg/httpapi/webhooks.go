package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/webhook"
)

// webhookRoutes lists the webhook and API-call log routes (docs/webhooks.md):
// like the API keys, the owner's or a colleague's with apikey.manage, never a key's.
func (s *Server) webhookRoutes() []Route {
	calls := s.APICalls
	return []Route{
		{http.MethodGet, "/developers/webhooks", acl.APIKeyManage, s.webhookList},
		{http.MethodPost, "/developers/webhooks", acl.APIKeyManage, s.webhookCreate},
		{http.MethodPost, "/developers/webhooks/update", acl.APIKeyManage, s.webhookUpdate},
		{http.MethodPost, "/developers/webhooks/delete", acl.APIKeyManage, byBodyID(s.Webhooks.Delete)},
		{http.MethodPost, "/developers/webhooks/test", acl.APIKeyManage, byBodyID(s.Webhooks.Test)},
		{http.MethodGet, "/developers/webhooks/deliveries", acl.APIKeyManage, s.webhookDeliveries},
		{http.MethodPost, "/developers/webhooks/replay", acl.APIKeyManage, byBodyID(s.Webhooks.Replay)},
		// ?path=&status=&api_key_id=&date_from=&date_to=&page=&limit=
		{http.MethodGet, "/developers/api-calls", acl.APIKeyManage, filteredList(apicall.ParseFilter, apicall.Filter.PageOf, calls.List)},
		{http.MethodGet, "/developers/api-calls/export", acl.APIKeyManage, filteredExport(apicall.ParseFilter, "api-calls.xlsx", calls.WriteXLSX)},
		{http.MethodGet, "/developers/api-calls/:id", acl.APIKeyManage, getByID(calls.Get)},
	}
}

func (s *Server) webhookList(c *gin.Context) {
	rows, err := s.Webhooks.List(c.Request.Context(), who(c))
	reply(c, gin.H{"endpoints": rows, "events": webhook.Events}, err)
}

func (s *Server) webhookCreate(c *gin.Context) {
	var in webhook.Input
	if !bind(c, &in) {
		return
	}
	v, err := s.Webhooks.Create(c.Request.Context(), who(c), in)
	replyCreated(c, v, err)
}

func (s *Server) webhookUpdate(c *gin.Context) {
	var in webhook.Input
	if !bind(c, &in) {
		return
	}
	v, err := s.Webhooks.Update(c.Request.Context(), who(c), in)
	reply(c, v, err)
}

// webhookDeliveries is GET /developers/webhooks/deliveries?endpoint_id=&status=&page=&limit=.
func (s *Server) webhookDeliveries(c *gin.Context) {
	q := c.Request.URL.Query()
	pg, err := validate.ParsePaging(q, 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	f := webhook.DeliveryFilter{Paging: pg, Status: strings.TrimSpace(q.Get("status"))}
	if v := validate.ToLatinDigits(q.Get("endpoint_id")); v != "" {
		if f.EndpointID, err = strconv.ParseInt(v, 10, 64); err != nil {
			Fail(c, apperr.ErrNotFound)
			return
		}
	}
	switch f.Status {
	case "", webhook.StatusPending, webhook.StatusDelivered, webhook.StatusDead:
	default:
		Fail(c, apperr.Field("status", apperr.MsgInvalid))
		return
	}
	rows, total, err := s.Webhooks.Deliveries(c.Request.Context(), who(c), f)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: pg.Page, Limit: pg.Limit, Total: total})
}
