package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/send"
)

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
