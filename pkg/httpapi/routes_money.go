package httpapi

import (
	"net/http"

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
