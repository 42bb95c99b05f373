package httpapi

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
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
	s.acceptSend(c, in)
}

// testSend is POST /send/test: the text to the caller's own mobile (202).
func (s *Server) testSend(c *gin.Context) {
	var in send.TestRequest
	if !bind(c, &in) {
		return
	}
	a, err := s.Sends.SendTest(c.Request.Context(), who(c), in, c.ClientIP())
	if err != nil {
		Fail(c, err)
		return
	}
	Accepted(c, a)
}

// acceptSend creates a send: 201, or 200 with the first send for a repeated
// Idempotency-Key.
func (s *Server) acceptSend(c *gin.Context, in send.Request) {
	a, created, err := s.Sends.Create(c.Request.Context(), who(c), in, c.GetHeader("Idempotency-Key"), c.ClientIP())
	replyOnce(c, a, created, err)
}

func (s *Server) cancelSend(c *gin.Context) {
	s.controlSend(c, func(id acl.Identity, sendID int64) (send.Stopped, error) {
		return s.Sends.Cancel(c.Request.Context(), id, sendID, c.ClientIP())
	})
}

func (s *Server) pauseSend(c *gin.Context) {
	s.controlSend(c, func(id acl.Identity, sendID int64) (send.Stopped, error) {
		return s.Sends.Pause(c.Request.Context(), id, sendID)
	})
}

func (s *Server) resumeSend(c *gin.Context) {
	s.controlSend(c, func(id acl.Identity, sendID int64) (send.Stopped, error) {
		return s.Sends.Resume(c.Request.Context(), id, sendID)
	})
}

// controlSend binds {"id"} and applies a stop, pause or resume.
func (s *Server) controlSend(c *gin.Context, do func(acl.Identity, int64) (send.Stopped, error)) {
	var in struct {
		ID flexID `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	out, err := do(who(c), int64(in.ID))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, out)
}

func (s *Server) scheduledSends(c *gin.Context) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := s.Sends.Scheduled(c.Request.Context(), who(c).AccountID, page, limit)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
}

func (s *Server) rescheduleSend(c *gin.Context) {
	var in struct {
		ID     flexID     `json:"id"`
		SendAt *time.Time `json:"send_at"`
		Text   *string    `json:"text"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Sends.Reschedule(c.Request.Context(), who(c), int64(in.ID), in.SendAt, in.Text); err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"id": int64(in.ID), "send_at": in.SendAt})
}
