package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// routes is the route table: every route declares its permission.
func (s *Server) routes() []Route {
	return []Route{
		// Accounts and login (spec §7 Auth).
		{http.MethodPost, "/user/check_exist", acl.Public, s.checkExist},
		{http.MethodPost, "/user/register", acl.Public, s.register},
		{http.MethodPost, "/acl/auth/login", acl.Public, s.login},
		{http.MethodPost, "/acl/auth/send_sms_otp", acl.Public, s.sendOTP},
		{http.MethodPost, "/acl/auth/confirm_otp", acl.Public, s.confirmOTP},
		{http.MethodPost, "/acl/auth/forgot_password", acl.Public, s.forgotPassword},
		{http.MethodPost, "/acl/auth/forgot_password_check_otp", acl.Public, s.forgotPasswordCheckOTP},
		{http.MethodPost, "/acl/auth/change_password_by_token", acl.Public, s.changePasswordByToken},
		{http.MethodGet, "/acl/auth/login_setting", acl.Public, s.loginSetting},
		{http.MethodPost, "/acl/auth/logout", acl.Authenticated, s.logout},
		{http.MethodGet, "/acl/auth/check_token", acl.Authenticated, s.checkToken},

		// Two-step login settings (spec §7 Account).
		{http.MethodGet, "/user/2fa", acl.Authenticated, s.twoStepStatus},
		{http.MethodGet, "/user/2fa/show_qr", acl.Authenticated, s.showQR},
		{http.MethodPost, "/user/2fa/enable", acl.Authenticated, s.enableTwoStep},
		{http.MethodPost, "/user/2fa/disable", acl.Authenticated, s.disableTwoStep},

		// Money and sender lines.
		{http.MethodGet, "/payment/credit/mine", acl.WalletView, s.credit},
		{http.MethodGet, "/number/numbers", acl.NumberView, s.lines},
		{http.MethodPost, "/numbers/defaults/upsert", acl.NumberManage, s.setDefaultLine},

		// Sending (api-contract.md "Sending").
		{http.MethodPost, "/send/calculate-price", acl.SendCreate, s.calculatePrice},
		{http.MethodPost, "/send", acl.SendCreate, s.createSend},
		{http.MethodPost, "/send/cancel", acl.SendCancel, s.cancelSend},

		// Reports (spec §7 Reports).
		{http.MethodGet, "/report/new_list", acl.ReportView, reportList(s.Reports, false)},
		{http.MethodGet, "/report/archive_list", acl.ReportView, reportList(s.Reports, true)},
		{http.MethodGet, "/report/bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/archive_bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/by_bulk", acl.ReportView, reportByBulk(s.Reports)},
		{http.MethodGet, "/report/recipients", acl.ReportView, reportRecipients(s.Reports)},
		{http.MethodGet, "/report/download_recipients", acl.ReportView, reportDownloadRecipients(s.Reports)},

		// Colleagues and roles (spec §6).
		{http.MethodGet, "/acl/partner/permission_list", acl.PartnerManage, s.permissionList},
	}
}
