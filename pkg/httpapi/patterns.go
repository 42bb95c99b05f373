package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/pattern"
)

// patternRoutes lists the pattern routes (spec §7 Patterns: /patterns,
// /patterns/normal; docs/patterns.md): the account's patterns, the systemic ones,
// pattern sends, and the back office's systemic patterns and version view.
func (s *Server) patternRoutes() []Route {
	return []Route{
		{http.MethodGet, "/patterns", acl.SendCreate, s.patternList(pattern.Filter{})},
		{http.MethodGet, "/patterns/normal", acl.SendCreate, s.patternList(pattern.Filter{Sendable: true})},
		{http.MethodGet, "/patterns/systemic", acl.SendCreate, s.patternList(pattern.Filter{Systemic: true})},
		{http.MethodGet, "/patterns/systemic/:id", acl.SendCreate, s.systemicPattern},
		{http.MethodGet, "/patterns/brand", acl.SendCreate, s.patternBrand},
		{http.MethodGet, "/patterns/:id", acl.SendCreate, s.patternShow},
		{http.MethodPost, "/patterns", acl.PatternManage, s.patternCreate},
		{http.MethodPut, "/patterns/:id", acl.PatternManage, s.patternUpdate},
		{http.MethodPost, "/patterns/send", acl.SendCreate, s.patternSend},

		{http.MethodGet, "/admin/patterns/systemic", acl.Staff, s.patternList(pattern.Filter{Systemic: true})},
		{http.MethodPost, "/admin/patterns/systemic", acl.Staff, s.systemicSave},
		{http.MethodPut, "/admin/patterns/systemic/:id", acl.Staff, s.systemicSave},
		{http.MethodGet, "/admin/patterns/versions/:id", acl.Staff, s.patternVersionReview},
	}
}

// patternList serves a list with the query's filters over base.
func (s *Server) patternList(base pattern.Filter) gin.HandlerFunc {
	return func(c *gin.Context) {
		page, limit, ok := pageOf(c)
		if !ok {
			return
		}
		f := base
		f.Status, f.Kind, f.Search = c.Query("status"), c.Query("kind"), c.Query("q")
		f.Page.Page, f.Page.Limit = page, limit
		rows, total, err := s.Patterns.List(c.Request.Context(), who(c), f)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
	}
}

func (s *Server) patternBrand(c *gin.Context) {
	b, err := s.Patterns.Brand(c.Request.Context(), who(c).AccountID)
	reply(c, gin.H{"brand": b}, err)
}

func (s *Server) patternShow(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Patterns.Get(c.Request.Context(), who(c), id) })
}

func (s *Server) systemicPattern(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Patterns.Systemic(c.Request.Context(), id) })
}

func (s *Server) patternVersionReview(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Patterns.ReviewView(c.Request.Context(), id) })
}

func (s *Server) patternCreate(c *gin.Context) {
	var in pattern.Input
	if !bind(c, &in) {
		return
	}
	p, err := s.Patterns.Create(c.Request.Context(), who(c), in, c.ClientIP())
	replyCreated(c, p, err)
}

func (s *Server) patternUpdate(c *gin.Context) {
	var in pattern.Input
	if !bind(c, &in) {
		return
	}
	withID(c, func(id int64) (any, error) {
		return s.Patterns.Update(c.Request.Context(), who(c), id, in, c.ClientIP())
	})
}

func (s *Server) systemicSave(c *gin.Context) {
	var in pattern.Input
	if !bind(c, &in) {
		return
	}
	var id int64
	if c.Param("id") != "" {
		var err error
		if id, err = pathID(c); err != nil {
			Fail(c, err)
			return
		}
	}
	p, err := s.Patterns.SaveSystemic(c.Request.Context(), who(c), id, in)
	if err == nil && id != 0 {
		OK(c, p)
		return
	}
	replyCreated(c, p, err)
}

func (s *Server) patternSend(c *gin.Context) {
	var in pattern.SendRequest
	if !bind(c, &in) {
		return
	}
	a, created, err := s.Patterns.Send(c.Request.Context(), who(c), in, c.GetHeader("Idempotency-Key"), c.ClientIP())
	replyOnce(c, a, created, err)
}
