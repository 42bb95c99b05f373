package httpapi

import (
	"cmp"
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auth"
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

func (s *Server) checkExist(c *gin.Context) {
	var in struct {
		Username string `json:"username"`
	}
	if !bind(c, &in) {
		return
	}
	exists, err := s.Auth.UsernameTaken(c.Request.Context(), in.Username, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"exists": exists})
}

func (s *Server) register(c *gin.Context) {
	var in account.RegisterInput
	if !bind(c, &in) {
		return
	}
	reg, err := s.Auth.Register(c.Request.Context(), in, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, reg)
}

func (s *Server) verifyRegistration(c *gin.Context) {
	var in struct {
		VerifyToken string `json:"verify_token"`
		Code        string `json:"code"`
		DeviceToken string `json:"device_token"`
	}
	if !bind(c, &in) {
		return
	}
	o, err := s.Auth.VerifyRegistration(c.Request.Context(), in.VerifyToken, in.Code, device(c, in.DeviceToken))
	reply(c, o, err)
}

func (s *Server) login(c *gin.Context) { passwordLogin(c, s.Auth.Login) }

// passwordLogin answers a login {"username", "password", "device_token"} (a
// customer's or a staff member's).
func passwordLogin(c *gin.Context, login func(ctx context.Context, username, pw string, cl auth.Client) (auth.LoginResult, error)) {
	var in struct {
		Username    string `json:"username"`
		Password    string `json:"password"`
		DeviceToken string `json:"device_token"`
	}
	if !bind(c, &in) {
		return
	}
	res, err := login(c.Request.Context(), in.Username, in.Password, device(c, in.DeviceToken))
	reply(c, res, err)
}

func (s *Server) loginByCode(c *gin.Context) {
	var in struct {
		Username    string `json:"username"`
		DeviceToken string `json:"device_token"`
	}
	if !bind(c, &in) {
		return
	}
	res, err := s.Auth.LoginByCode(c.Request.Context(), in.Username, device(c, in.DeviceToken))
	reply(c, res, err)
}

// device is the caller with the device token its browser presented.
func device(c *gin.Context, token string) auth.Client {
	cl := client(c)
	cl.Device = token
	return cl
}

func (s *Server) sendOTP(c *gin.Context) {
	var in struct {
		LoginToken  string `json:"login_token"`
		ResetToken  string `json:"reset_token"`
		VerifyToken string `json:"verify_token"`
		Method      string `json:"method"`
	}
	if !bind(c, &in) {
		return
	}
	token := cmp.Or(in.LoginToken, in.ResetToken, in.VerifyToken)
	after, err := s.Auth.Resend(c.Request.Context(), token, in.Method, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"resend_after": after})
}

func (s *Server) confirmOTP(c *gin.Context) {
	var in struct {
		LoginToken  string `json:"login_token"`
		Code        string `json:"code"`
		DeviceToken string `json:"device_token"`
	}
	if !bind(c, &in) {
		return
	}
	o, err := s.Auth.ConfirmLogin(c.Request.Context(), in.LoginToken, in.Code, device(c, in.DeviceToken))
	reply(c, o, err)
}

func (s *Server) forgotPassword(c *gin.Context) {
	var in struct {
		Username string `json:"username"`
	}
	if !bind(c, &in) {
		return
	}
	res, err := s.Auth.ForgotPassword(c.Request.Context(), in.Username, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, res)
}

func (s *Server) forgotPasswordCheckOTP(c *gin.Context) {
	var in struct {
		ResetToken string `json:"reset_token"`
		Code       string `json:"code"`
	}
	if !bind(c, &in) {
		return
	}
	token, err := s.Auth.CheckResetCode(c.Request.Context(), in.ResetToken, in.Code, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"change_token": token})
}

func (s *Server) changePasswordByToken(c *gin.Context) {
	var in struct {
		ChangeToken          string `json:"change_token"`
		Password             string `json:"password"`
		PasswordConfirmation string `json:"password_confirmation"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Auth.ChangePasswordByToken(c.Request.Context(), in.ChangeToken, in.Password, in.PasswordConfirmation, client(c)); err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"changed": true})
}

func (s *Server) loginSetting(c *gin.Context) {
	ls, err := s.Auth.LoginSetting(c.Request.Context())
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, ls)
}

func (s *Server) logout(c *gin.Context) {
	if err := s.Auth.Logout(c.Request.Context(), c.GetString(ctxToken), who(c), client(c)); err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"logged_out": true})
}

func (s *Server) checkToken(c *gin.Context) {
	id := who(c)
	OK(c, gin.H{"name": id.Name, "user_name": id.Username, "account_id": id.AccountID, "is_owner": id.IsOwner})
}

func (s *Server) twoStepStatus(c *gin.Context) {
	st, err := s.Auth.TwoStep(c.Request.Context(), who(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, st)
}

func (s *Server) showQR(c *gin.Context) {
	qr, err := s.Auth.ShowQR(c.Request.Context(), who(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, qr)
}

func (s *Server) enableTwoStep(c *gin.Context) {
	var in struct {
		Method string `json:"method"`
		Code   string `json:"code"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Auth.EnableTwoStep(c.Request.Context(), who(c), in.Method, in.Code); err != nil {
		Fail(c, err)
		return
	}
	s.twoStepStatus(c)
}

func (s *Server) disableTwoStep(c *gin.Context) {
	var in struct {
		Password string `json:"password"`
	}
	if !bind(c, &in) {
		return
	}
	if err := s.Auth.DisableTwoStep(c.Request.Context(), who(c), in.Password); err != nil {
		Fail(c, err)
		return
	}
	s.twoStepStatus(c)
}

func (s *Server) issueExternalCode(c *gin.Context) {
	var in struct {
		UserID int64 `json:"user_id"`
	}
	if !bind(c, &in) {
		return
	}
	code, err := s.Auth.IssueExternalCode(c.Request.Context(), who(c), in.UserID, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, code)
}

func (s *Server) previewExternalLogin(c *gin.Context) {
	var in struct {
		Code string `json:"code"`
	}
	if !bind(c, &in) {
		return
	}
	acct, err := s.Auth.PreviewExternal(c.Request.Context(), in.Code, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, acct)
}

func (s *Server) externalLogin(c *gin.Context) {
	var in struct {
		Code string `json:"code"`
	}
	if !bind(c, &in) {
		return
	}
	token, err := s.Auth.ExchangeExternal(c.Request.Context(), in.Code, client(c))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, gin.H{"token": token})
}

// liveTicket is POST /v1/api/live/ticket: a single-use ticket, valid for a few
// seconds, that opens the caller's websocket (the session token never goes in a URL).
func (s *Server) liveTicket(c *gin.Context) {
	t, err := s.Auth.IssueTicket(c.Request.Context(), c.GetString(ctxToken))
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, t)
}
