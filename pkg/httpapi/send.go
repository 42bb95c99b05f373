package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/send"
)

// sendRoutes lists the send, scheduling and campaign routes.
func (s *Server) sendRoutes() []Route {
	return []Route{
		// Sending (api-contract.md "Sending").
		{http.MethodPost, "/send/calculate-price", acl.SendCreate, s.calculatePrice},
		{http.MethodPost, "/send", acl.SendCreate, s.createSend},
		{http.MethodPost, "/send/test", acl.SendCreate, s.testSend},
		{http.MethodPost, "/send/cancel", acl.SendCancel, s.cancelSend},
		{http.MethodPost, "/send/pause", acl.SendCancel, s.pauseSend},
		{http.MethodPost, "/send/resume", acl.SendCancel, s.resumeSend},
		{http.MethodGet, "/send/scheduled", acl.ReportView, s.scheduledSends},
		{http.MethodPost, "/send/scheduled/update", acl.SendCreate, s.rescheduleSend},

		// Recurring campaigns.
		{http.MethodGet, "/send/campaigns", acl.ReportView, s.campaigns},
		{http.MethodPost, "/send/campaigns", acl.SendCreate, s.createCampaign},
		{http.MethodPost, "/send/campaigns/update", acl.SendCreate, s.updateCampaign},
		{http.MethodPost, "/send/campaigns/toggle", acl.SendCreate, s.toggleCampaign},
		{http.MethodPost, "/send/campaigns/delete", acl.SendCreate, s.deleteCampaign},
		{http.MethodGet, "/send/campaigns/:id/runs", acl.ReportView, s.campaignRuns},

		// Occasion messages (docs/campaigns.md).
		{http.MethodPost, "/send/campaigns/run-today", acl.SendCreate, s.runCampaignToday},
		{http.MethodPost, "/send/occasions/upcoming", acl.SendCreate, s.occasionUpcoming},
	}
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

// The recurring campaign handlers (api-contract "Files and bulk sources").

func (s *Server) campaigns(c *gin.Context) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := s.Campaigns.List(c.Request.Context(), who(c).AccountID, c.Query("kind"), page, limit)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
}

func (s *Server) createCampaign(c *gin.Context) {
	var in campaign.Input
	if !bind(c, &in) {
		return
	}
	out, err := s.Campaigns.Create(c.Request.Context(), who(c), in)
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, out)
}

func (s *Server) updateCampaign(c *gin.Context) {
	var in campaign.Input
	if !bind(c, &in) {
		return
	}
	out, err := s.Campaigns.Update(c.Request.Context(), who(c), in)
	reply(c, out, err)
}

func (s *Server) toggleCampaign(c *gin.Context) {
	var in struct {
		ID      flexID `json:"id"`
		Enabled bool   `json:"enabled"`
	}
	if !bind(c, &in) {
		return
	}
	out, err := s.Campaigns.Toggle(c.Request.Context(), who(c).AccountID, int64(in.ID), in.Enabled)
	reply(c, out, err)
}

func (s *Server) deleteCampaign(c *gin.Context) {
	var in struct {
		ID flexID `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Campaigns.Delete(c.Request.Context(), who(c).AccountID, int64(in.ID)); err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"id": int64(in.ID)})
}

func (s *Server) campaignRuns(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	out, err := s.Campaigns.Runs(c.Request.Context(), who(c).AccountID, id)
	reply(c, out, err)
}

// runCampaignToday sends an occasion campaign's run of today now (docs/campaigns.md).
func (s *Server) runCampaignToday(c *gin.Context) {
	var in struct {
		ID flexID `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	out, err := s.Campaigns.RunToday(c.Request.Context(), who(c), int64(in.ID))
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, out)
}

// occasionUpcoming counts the contacts an occasion reaches on the coming days.
func (s *Server) occasionUpcoming(c *gin.Context) {
	var in send.UpcomingRequest
	if !bind(c, &in) {
		return
	}
	out, err := s.Sends.Upcoming(c.Request.Context(), who(c).AccountID, in)
	reply(c, out, err)
}
