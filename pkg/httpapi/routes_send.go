package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
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
