package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/predefined"
	"github.com/chapar/chapar/pkg/validate"
)

// predefinedRoutes lists the predefined messages, their groups and the send
// wizards' drafts (spec §7 "Predefined messages", docs/predefined-messages.md).
// Drafts are part of sending: they take send.create.
func (s *Server) predefinedRoutes() []Route {
	svc := s.Predefined
	return []Route{
		{http.MethodGet, "/user/predefined/group/list", acl.PredefinedView, s.predefinedGroupList},
		{http.MethodGet, "/user/predefined/group/count", acl.PredefinedView, byCaller(svc.Count)},
		{http.MethodGet, "/user/predefined/group/show/:id", acl.PredefinedView, byPathID(svc.Group)},
		{http.MethodPost, "/user/predefined/group", acl.PredefinedManage, byForm(svc.CreateGroup, true)},
		{http.MethodPost, "/user/predefined/group/update", acl.PredefinedManage, byForm(svc.UpdateGroup, false)},
		{http.MethodPost, "/user/predefined/group/delete", acl.PredefinedManage, byBodyID(svc.DeleteGroup)},
		{http.MethodGet, "/user/predefined/list", acl.PredefinedView, s.predefinedList},
		{http.MethodGet, "/user/predefined/show/:id", acl.PredefinedView, byPathID(svc.Message)},
		{http.MethodPost, "/user/predefined", acl.PredefinedManage, byForm(svc.CreateMessage, true)},
		{http.MethodPost, "/user/predefined/update", acl.PredefinedManage, byForm(svc.UpdateMessage, false)},
		{http.MethodPost, "/user/predefined/delete", acl.PredefinedManage, byBodyID(svc.DeleteMessage)},
		{http.MethodPost, "/user/draft", acl.SendCreate, byForm(svc.SaveDraft, false)},
		{http.MethodGet, "/user/draft/list", acl.SendCreate, s.draftList},
		{http.MethodGet, "/user/draft/show/:id", acl.SendCreate, byPathID(svc.Draft)},
		{http.MethodPost, "/user/draft/delete", acl.SendCreate, byBodyID(svc.DeleteDraft)},
	}
}

// predefinedGroupList is GET /user/predefined/group/list?search=&page=&limit=.
func (s *Server) predefinedGroupList(c *gin.Context) {
	pagedList(c, func(p validate.Paging) ([]predefined.Group, int64, error) {
		return s.Predefined.Groups(c.Request.Context(), who(c), c.Query("search"), p)
	})
}

// predefinedList is GET /user/predefined/list?group_id=&search=&page=&limit=.
func (s *Server) predefinedList(c *gin.Context) {
	f := predefined.MessageFilter{Search: c.Query("search")}
	if g := validate.ToLatinDigits(c.Query("group_id")); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil || n <= 0 {
			Fail(c, apperr.Field("group_id", predefined.MsgGroupUnknown))
			return
		}
		f.GroupID = n
	}
	pagedList(c, func(p validate.Paging) ([]predefined.Message, int64, error) {
		return s.Predefined.Messages(c.Request.Context(), who(c), f, p)
	})
}

// draftList is GET /user/draft/list?search=&type=&page=&limit=.
func (s *Server) draftList(c *gin.Context) {
	pagedList(c, func(p validate.Paging) ([]predefined.Draft, int64, error) {
		return s.Predefined.Drafts(c.Request.Context(), who(c), c.Query("search"), c.Query("type"), p)
	})
}
