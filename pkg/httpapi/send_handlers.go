package httpapi

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/send"
)

func (s *Server) credit(c *gin.Context) {
	b, err := s.Wallet.Balance(c.Request.Context(), who(c).AccountID)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"credit": b})
}

func (s *Server) lines(c *gin.Context) {
	ls, err := s.Lines.List(c.Request.Context(), who(c).AccountID)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, ls)
}

func (s *Server) setDefaultLine(c *gin.Context) {
	var in struct {
		ID int64 `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Lines.SetDefault(c.Request.Context(), who(c).AccountID, in.ID); err != nil {
		Fail(c, err)
		return
	}
	s.lines(c)
}

func (s *Server) calculatePrice(c *gin.Context) {
	var in send.Request
	if !bind(c, &in) {
		return
	}
	q, err := s.Sends.Quote(c.Request.Context(), who(c), in)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, q)
}

func (s *Server) createSend(c *gin.Context) {
	var in send.Request
	if !bind(c, &in) {
		return
	}
	a, created, err := s.Sends.Create(c.Request.Context(), who(c), in, c.GetHeader("Idempotency-Key"), c.ClientIP())
	if err != nil {
		Fail(c, err)
		return
	}
	if !created {
		OK(c, a)
		return
	}
	Created(c, a)
}

func (s *Server) cancelSend(c *gin.Context) {
	var in struct {
		ID flexID `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	out, err := s.Sends.Cancel(c.Request.Context(), who(c), int64(in.ID), c.ClientIP())
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, out)
}

// flexID accepts an id as a JSON number or a numeric string.
type flexID int64

func (j *flexID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return apperr.Field("id", "شناسه معتبر نیست")
	}
	*j = flexID(n)
	return nil
}
