package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
)

// moneyRoutes lists the wallet and sender-line routes.
func (s *Server) moneyRoutes() []Route {
	return []Route{
		// Money and sender lines.
		{http.MethodGet, "/payment/credit/mine", acl.WalletView, s.credit},
		{http.MethodGet, "/number/numbers", acl.NumberView, s.lines},
		{http.MethodPost, "/numbers/defaults/upsert", acl.NumberManage, s.setDefaultLine},
	}
}

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
