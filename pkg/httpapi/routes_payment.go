package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/payment/offline"
)

// paymentRoutes lists the online payment routes. Paying is owner-only (spec §6);
// the bank's callback is public and checked by its signature and a verify call.
// Offline reports and package purchases pay (wallet.pay); the rest read (wallet.view).
func (s *Server) paymentRoutes() []Route {
	return []Route{
		{http.MethodGet, "/payment/generate-url", acl.WalletPay, s.paymentURL},
		{http.MethodGet, "/payment/online/:id", acl.WalletView, s.paymentGet},
		{http.MethodGet, "/payment/callback", acl.Public, s.paymentCallback},
		{http.MethodPost, "/payment/callback", acl.Public, s.paymentCallback},

		// Offline payments (reviewed before crediting), charge packages and the today gift.
		{http.MethodPost, "/payment/offline/card-to-card-create", acl.WalletPay, s.offlineCreate(offline.Card)},
		{http.MethodPost, "/payment/offline/bank-pay-create", acl.WalletPay, s.offlineCreate(offline.Bank)},
		{http.MethodGet, "/payment/offline/list", acl.WalletView, s.offlineList},
		{http.MethodGet, "/payment/offline/card-owner", acl.WalletView, s.cardOwner},
		{http.MethodGet, "/user/setting/payment_method_list", acl.WalletView, s.paymentMethods},
		{http.MethodGet, "/user/setting/parent_account_contact", acl.WalletView, s.parentAccountContact},
		{http.MethodGet, "/payment/charge-packages/dynamics", acl.WalletView, s.chargePackages},
		{http.MethodPost, "/payment/charge-packages/select", acl.WalletPay, s.selectPackage},
		{http.MethodGet, "/payment/promotion/today-charge", acl.WalletView, s.todayCharge},

		// The back office's view of an offline payment under review.
		{http.MethodGet, "/admin/offline-payments/:id", acl.Staff, s.adminOfflinePayment},
		{http.MethodGet, "/admin/offline-payments/:id/receipt", acl.Staff, s.adminOfflineReceipt},
	}
}
