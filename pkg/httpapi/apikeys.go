package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apikey"
	"github.com/chapar/chapar/pkg/validate"
)

// apiKeyRoutes lists the API key routes (spec §7 Developers): the owner's, or a
// colleague's whose role grants apikey.manage; never an API key's own.
func (s *Server) apiKeyRoutes() []Route {
	return []Route{
		{http.MethodGet, "/acl/api_key/list", acl.APIKeyManage, s.apiKeyList},
		{http.MethodGet, "/acl/api_key/scopes", acl.APIKeyManage, s.apiKeyScopes},
		{http.MethodPost, "/acl/api_key/otp", acl.APIKeyManage, s.apiKeyOTP},
		{http.MethodPost, "/acl/api_key/create", acl.APIKeyManage, s.apiKeyCreate},
		{http.MethodGet, "/acl/api_key/show/:id", acl.APIKeyManage, s.apiKeyShow},
		{http.MethodDelete, "/acl/api_key", acl.APIKeyManage, byBodyID(s.APIKeys.Delete)},
	}
}

func (s *Server) apiKeyList(c *gin.Context) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := s.APIKeys.List(c.Request.Context(), who(c), validate.Paging{Page: page, Limit: limit})
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
}

// apiKeyScopes answers the scopes the caller may give a key.
func (s *Server) apiKeyScopes(c *gin.Context) { OK(c, apikey.Scopes(who(c))) }

func (s *Server) apiKeyOTP(c *gin.Context) {
	v, err := s.APIKeys.SendOTP(c.Request.Context(), who(c), client(c))
	reply(c, v, err)
}

func (s *Server) apiKeyCreate(c *gin.Context) {
	var in apikey.CreateInput
	if !bind(c, &in) {
		return
	}
	v, err := s.APIKeys.Create(c.Request.Context(), who(c), in, client(c))
	replyCreated(c, v, err)
}

func (s *Server) apiKeyShow(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	k, err := s.APIKeys.Show(c.Request.Context(), who(c), id)
	reply(c, k, err)
}
