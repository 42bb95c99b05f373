package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/validate"
)

// colleagueRoutes lists the access-role, colleague and access-list routes (spec §6,
// §7 Colleagues).
func (s *Server) colleagueRoutes() []Route {
	return []Route{
		{http.MethodGet, "/acl/list", acl.Authenticated, s.aclList},
		{http.MethodGet, "/acl/partner/permission_list", acl.PartnerManage, s.permissionList},
		{http.MethodGet, "/acl/partner/role_list", acl.PartnerManage, s.roleList},
		{http.MethodGet, "/acl/partner/show_role/:id", acl.PartnerManage, s.roleShow},
		{http.MethodPost, "/acl/partner/create_role", acl.PartnerManage, s.roleCreate},
		{http.MethodPost, "/acl/partner/update_role", acl.PartnerManage, s.roleUpdate},
		{http.MethodPost, "/acl/partner/delete_role", acl.PartnerManage, byBodyID(s.Colleagues.DeleteRole)},
		{http.MethodPost, "/acl/partner/copy_role", acl.PartnerManage, s.roleCopy},
		{http.MethodGet, "/user/partner/list", acl.PartnerManage, s.partnerList},
		{http.MethodGet, "/user/partner/show/:id", acl.PartnerManage, s.partnerShow},
		{http.MethodPost, "/user/partner/create", acl.PartnerManage, s.partnerCreate},
		{http.MethodPost, "/user/partner/update", acl.PartnerManage, s.partnerUpdate},
		{http.MethodPost, "/user/partner/deactive", acl.PartnerManage, byBodyID(s.Colleagues.Deactivate)},
		{http.MethodPost, "/user/partner/active", acl.PartnerManage, byBodyID(s.Colleagues.Activate)},
		{http.MethodPost, "/user/partner/resend_invite", acl.PartnerManage, byBodyID(s.Colleagues.ResendInvite)},
		{http.MethodPost, "/user/partner/accept_invite", acl.Public, s.acceptInvite},
	}
}

func (s *Server) aclList(c *gin.Context) {
	out, err := s.Colleagues.ACL(c.Request.Context(), who(c), validate.ToLatinDigits(c.Query("reseller_id")))
	reply(c, out, err)
}

func (s *Server) permissionList(c *gin.Context) {
	out := make([]gin.H, 0, len(acl.All))
	for _, p := range acl.All {
		g, _ := acl.GroupOf(p)
		out = append(out, gin.H{"key": p, "title": acl.Titles[p], "group": g.Key, "group_title": g.Title})
	}
	OK(c, out)
}

func (s *Server) roleList(c *gin.Context) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := s.Colleagues.Roles(c.Request.Context(), who(c), validate.Paging{Page: page, Limit: limit})
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
}

func (s *Server) roleShow(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	r, err := s.Colleagues.Role(c.Request.Context(), who(c), id)
	reply(c, r, err)
}

func (s *Server) roleCreate(c *gin.Context) {
	var in colleague.RoleInput
	if !bind(c, &in) {
		return
	}
	v, err := s.Colleagues.CreateRole(c.Request.Context(), who(c), in, c.ClientIP())
	replyCreated(c, v, err)
}

func (s *Server) roleUpdate(c *gin.Context) {
	var in colleague.RoleInput
	if !bind(c, &in) {
		return
	}
	r, err := s.Colleagues.UpdateRole(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, r, err)
}

func (s *Server) roleCopy(c *gin.Context) {
	var in idBody
	if !bind(c, &in) {
		return
	}
	v, err := s.Colleagues.CopyRole(c.Request.Context(), who(c), in.ID, c.ClientIP())
	replyCreated(c, v, err)
}

func (s *Server) partnerList(c *gin.Context) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := s.Colleagues.List(c.Request.Context(), who(c), validate.Paging{Page: page, Limit: limit})
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
}

func (s *Server) partnerShow(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	m, err := s.Colleagues.Show(c.Request.Context(), who(c), id)
	reply(c, m, err)
}

func (s *Server) partnerCreate(c *gin.Context) {
	var in colleague.Input
	if !bind(c, &in) {
		return
	}
	v, err := s.Colleagues.Create(c.Request.Context(), who(c), in, c.ClientIP())
	replyCreated(c, v, err)
}

func (s *Server) partnerUpdate(c *gin.Context) {
	var in colleague.Input
	if !bind(c, &in) {
		return
	}
	m, err := s.Colleagues.Update(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, m, err)
}

func (s *Server) acceptInvite(c *gin.Context) {
	var in colleague.AcceptInput
	if !bind(c, &in) {
		return
	}
	reply(c, gin.H{"username": in.Username}, s.Colleagues.AcceptInvite(c.Request.Context(), in, c.ClientIP()))
}
