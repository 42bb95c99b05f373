package httpapi

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/sendrules"
	"github.com/chapar/chapar/pkg/staff"
)

// sendHoursRoutes lists the sending hours (docs/sending-rules.md): the
// operators' windows staff set, an account's own hours, and the kinds of an
// account's lines in the back office.
func (s *Server) sendHoursRoutes() []Route {
	return []Route{
		{http.MethodGet, "/send/hours", acl.SendCreate, s.accountSendHours},
		{http.MethodPost, "/send/hours", acl.ProfileManage, s.setAccountSendHours},

		{http.MethodGet, "/admin/send-hours", acl.Staff, s.staffSendHours},
		{http.MethodPost, "/admin/send-hours", acl.Staff, s.setStaffSendHours},
		{http.MethodPost, "/admin/send-hours/delete", acl.Staff, s.deleteStaffSendHours},
		{http.MethodGet, "/admin/accounts/:id/lines", acl.Staff, s.accountLines},
		{http.MethodPost, "/admin/accounts/:id/lines/kind", acl.Staff, s.setLineKind},
	}
}

// accountHoursView is what the panel shows: the operators' advertising windows
// and the account's own hours (null: none).
type accountHoursView struct {
	Operators []sendrules.Rule `json:"operators"`
	Own       *sendrules.Hours `json:"own"`
	Codes     []string         `json:"operator_codes"`
}

func (s *Server) accountSendHours(c *gin.Context) {
	ctx := c.Request.Context()
	rules, err := s.Sends.Rules().Rules(ctx)
	if err != nil {
		Fail(c, err)
		return
	}
	own, err := s.Sends.Rules().AccountHours(ctx, who(c).AccountID)
	v := accountHoursView{Operators: rules, Codes: operator.Codes}
	if own != nil {
		h := sendrules.HoursOf(*own)
		v.Own = &h
	}
	reply(c, v, err)
}

func (s *Server) setAccountSendHours(c *gin.Context) {
	var in struct {
		Own *sendrules.Hours `json:"own"`
	}
	if !bind(c, &in) {
		return
	}
	err := s.Sends.Rules().SetAccountHours(c.Request.Context(), who(c), in.Own, c.ClientIP())
	reply(c, in, err)
}

func (s *Server) staffSendHours(c *gin.Context) {
	v, err := s.Sends.Rules().Rules(c.Request.Context())
	reply(c, gin.H{"rules": v, "operator_codes": operator.Codes}, err)
}

func (s *Server) setStaffSendHours(c *gin.Context) {
	var in sendrules.Rule
	if !bind(c, &in) {
		return
	}
	v, err := s.Sends.Rules().SetRule(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, v, err)
}

func (s *Server) deleteStaffSendHours(c *gin.Context) {
	var in sendrules.Rule
	if !bind(c, &in) {
		return
	}
	err := s.Sends.Rules().DeleteRule(c.Request.Context(), who(c), in.Operator, in.LineKind, c.ClientIP())
	reply(c, in, err)
}

func (s *Server) accountLines(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Staff.Lines(c.Request.Context(), id) })
}

func (s *Server) setLineKind(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in staff.LineKindInput) (any, error) {
		return s.Staff.SetLineKind(ctx, by, id, in, c.ClientIP())
	})
}
