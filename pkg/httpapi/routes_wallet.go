package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// walletRoutes lists the transactions (spec §7 Payment) and low-balance alert routes.
func (s *Server) walletRoutes() []Route {
	svc := s.Transactions
	return []Route{
		{http.MethodPost, "/report/payment/new", acl.WalletView, transactionList(svc)},
		{http.MethodPost, "/report/payment/export/new", acl.WalletView, transactionExport(svc)},
		{http.MethodGet, "/user/setting/low_balance", acl.WalletAlert, lowBalanceGet(s.Alerts)},
		{http.MethodPost, "/user/setting/low_balance", acl.WalletAlert, lowBalanceSet(s.Alerts)},
	}
}
