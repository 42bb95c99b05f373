package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/validate"
)

func (s *Server) staffUsers(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Staff.Users(c.Request.Context(), p)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

func (s *Server) createStaffUser(c *gin.Context) {
	var in staff.UserInput
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.CreateUser(c.Request.Context(), who(c), in, c.ClientIP())
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, u)
}

func (s *Server) setStaffUserStatus(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Status string `json:"status"`
	}
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.SetUserStatus(c.Request.Context(), who(c), id, in.Status, c.ClientIP())
	reply(c, u, err)
}

func (s *Server) setStaffUserOperations(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Operations bool `json:"operations"`
	}
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.SetOperations(c.Request.Context(), who(c), id, in.Operations, c.ClientIP())
	reply(c, u, err)
}

func (s *Server) operationsOverview(c *gin.Context) {
	ov, err := s.Operations.Overview(c.Request.Context())
	reply(c, ov, err)
}
