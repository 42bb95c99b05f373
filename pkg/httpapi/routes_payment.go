package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// paymentRoutes lists the online payment routes. Paying is owner-only (spec §6);
// the bank's callback is public and checked by its signature and a verify call.
func (s *Server) paymentRoutes() []Route {
	return []Route{
		{http.MethodGet, "/payment/generate-url", acl.WalletPay, s.paymentURL},
		{http.MethodGet, "/payment/online/:id", acl.WalletView, s.paymentGet},
		{http.MethodGet, "/payment/callback", acl.Public, s.paymentCallback},
		{http.MethodPost, "/payment/callback", acl.Public, s.paymentCallback},
	}
}
