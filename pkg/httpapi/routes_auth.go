package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// authRoutes lists the accounts, login, two-step and live-socket routes.
func (s *Server) authRoutes() []Route {
	return []Route{
		// Accounts and login (spec §7 Auth).
		{http.MethodPost, "/user/check_exist", acl.Public, s.checkExist},
		{http.MethodPost, "/user/register", acl.Public, s.register},
		{http.MethodPost, "/user/register/verify", acl.Public, s.verifyRegistration},
		{http.MethodPost, "/acl/auth/login", acl.Public, s.login},
		{http.MethodPost, "/acl/auth/login_otp", acl.Public, s.loginByCode},
		{http.MethodPost, "/acl/auth/send_sms_otp", acl.Public, s.sendOTP},
		{http.MethodPost, "/acl/auth/confirm_otp", acl.Public, s.confirmOTP},
		{http.MethodPost, "/acl/auth/forgot_password", acl.Public, s.forgotPassword},
		{http.MethodPost, "/acl/auth/forgot_password_check_otp", acl.Public, s.forgotPasswordCheckOTP},
		{http.MethodPost, "/acl/auth/change_password_by_token", acl.Public, s.changePasswordByToken},
		{http.MethodGet, "/acl/auth/login_setting", acl.Public, s.loginSetting},
		{http.MethodPost, "/acl/auth/logout", acl.Authenticated, s.logout},
		{http.MethodGet, "/acl/auth/check_token", acl.Authenticated, s.checkToken},
		{http.MethodPost, "/acl/auth/external_login/issue", acl.Authenticated, s.issueExternalCode},
		{http.MethodPost, "/acl/auth/external_login/preview", acl.Public, s.previewExternalLogin},
		{http.MethodPost, "/acl/auth/external_login", acl.Public, s.externalLogin},
		{http.MethodPost, "/live/ticket", acl.Authenticated, s.liveTicket},

		// Two-step login settings (spec §7 Account).
		{http.MethodGet, "/user/2fa", acl.Authenticated, s.twoStepStatus},
		{http.MethodGet, "/user/2fa/show_qr", acl.Authenticated, s.showQR},
		{http.MethodPost, "/user/2fa/enable", acl.Authenticated, s.enableTwoStep},
		{http.MethodPost, "/user/2fa/disable", acl.Authenticated, s.disableTwoStep},
	}
}
