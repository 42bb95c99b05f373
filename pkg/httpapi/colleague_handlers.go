package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/validate"
)

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
