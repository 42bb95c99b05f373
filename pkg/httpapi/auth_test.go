package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

const pw = "Secret@1234"

func TestRegisterLoginOTPLogout(t *testing.T) {
	e := apitest.Start(t, nil)
	r := e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": "sara"}, "")
	if string(r.Data) != `{"exists":false}` {
		t.Fatalf("check_exist before register: %s", r.Data)
	}
	e.Register("sara", pw, "۰۹۱۲۱۲۳۴۵۶۷")
	r = e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": "SARA"}, "")
	if string(r.Data) != `{"exists":true}` {
		t.Fatalf("check_exist after register: %s", r.Data)
	}
	// Registering the same username again is a conflict with a field message.
	r = e.Must(409, "POST", "/v1/api/user/register", map[string]any{"name": "x", "username": "Sara", "mobile": "09121234567",
		"password": pw, "password_confirmation": pw, "accept_rules": true}, "")
	if len(r.Meta.Errors["username"]) == 0 {
		t.Fatalf("conflict without username error: %s", r.Raw)
	}

	// Two-step login is on by default: the code goes out as a verification task.
	r = e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "sara", "password": pw}, "")
	var lr auth.LoginResult
	r.Decode(t, &lr)
	if !lr.OTPRequired || lr.LoginToken == "" || lr.Token != "" || lr.Method != "sms" || lr.ResendAfter != 1 {
		t.Fatalf("login result: %+v", lr)
	}
	code := e.LastCode("989121234567")
	// A check_token with the login token is not a session.
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, lr.LoginToken)
	r = e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": toPersian(code)}, "")
	var tok struct{ Token string }
	r.Decode(t, &tok)
	r = e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok.Token)
	var who struct {
		Name     string `json:"name"`
		UserName string `json:"user_name"`
	}
	r.Decode(t, &who)
	if who.UserName != "sara" || who.Name != "کاربر sara" {
		t.Fatalf("check_token: %+v", who)
	}
	e.Must(200, "POST", "/v1/api/acl/auth/logout", nil, tok.Token)
	r = e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, tok.Token)
	if r.Meta.Message == "" || r.Meta.Status != 401 {
		t.Fatalf("401 envelope: %s", r.Raw)
	}
}

// An early resend answers 429 with the wait's message and Retry-After; after the
// countdown the route sends a new code, which the confirmation takes (the countdown
// and the replaced code are pkg/auth's tests).
func TestResendCountdown(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.OTPResendAfter = time.Minute })
	e.Register("nima", pw, "09351112233")
	r := e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "nima", "password": pw}, "")
	var lr auth.LoginResult
	r.Decode(t, &lr)
	r = e.Must(429, "POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"login_token": lr.LoginToken, "method": "voice"}, "")
	if r.Meta.Message != auth.MsgOTPWait || r.Header.Get("Retry-After") == "" {
		t.Fatalf("early resend: %s", r.Raw)
	}
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE challenges SET resend_at = now() - interval '1 second'
		WHERE subject = 'nima'`); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"login_token": lr.LoginToken, "method": "voice"}, "")
	e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken,
		"code": e.LastCode("989351112233")}, "")
}

// A wrong code answers 422 with the code field's message, and the try that locks
// the login 401 with otp-locked (the counting is pkg/auth's tests).
func TestWrongOTPLocksOut(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.OTPMaxTries = 2 })
	e.Register("reza", pw, "09191234567")
	r := e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "reza", "password": pw}, "")
	var lr auth.LoginResult
	r.Decode(t, &lr)
	wrong := wrongCode(e.LastCode("989191234567"))
	r = e.Must(422, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": wrong}, "")
	if len(r.Meta.Errors["code"]) != 1 || !strings.HasPrefix(r.Meta.Errors["code"][0], auth.MsgOTPWrong) {
		t.Fatalf("wrong code: %s", r.Raw)
	}
	r = e.Must(401, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": wrong}, "")
	if r.Meta.MessageCode != auth.CodeOTPLocked {
		t.Fatalf("lock-out: %s", r.Raw)
	}
}

func TestLoginRateLimit(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.LoginPerUserPerMin = 3 })
	e.Register("ali", pw, "09121110000")
	for i := 0; i < 3; i++ {
		e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "ali", "password": "Wrong@1234"}, "")
	}
	r := e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "ali", "password": pw}, "")
	if r.Meta.Status != 429 || r.Meta.Message == "" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("429 envelope: %s", r.Raw)
	}
}

func TestForgotPasswordFlow(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("leila", pw, "09361234567")
	old := e.Login("leila", pw)
	r := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "leila"}, "")
	var rs auth.ResetStart
	r.Decode(t, &rs)
	code := e.LastCode("989361234567")
	r = e.Must(200, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": code}, "")
	var ct struct {
		ChangeToken string `json:"change_token"`
	}
	r.Decode(t, &ct)
	r = e.Must(422, "POST", "/v1/api/acl/auth/change_password_by_token", map[string]string{"change_token": ct.ChangeToken,
		"password": "short", "password_confirmation": "short"}, "")
	if len(r.Meta.Errors["password"]) == 0 {
		t.Fatalf("weak password: %s", r.Raw)
	}
	e.Must(200, "POST", "/v1/api/acl/auth/change_password_by_token", map[string]string{"change_token": ct.ChangeToken,
		"password": "Newpass@2025", "password_confirmation": "Newpass@2025"}, "")
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, old)
	e.Login("leila", "Newpass@2025")
}

// The two-step settings routes: the QR's payload, enabling the app (422 with a wrong
// code, 200 with its code) and turning the second step off (422 with a wrong
// password, 200 with the right one); the logins that follow are pkg/auth's tests.
func TestAuthenticatorApp(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("omid", pw, "09121231234")
	tok := e.Login("omid", pw)
	r := e.Must(200, "GET", "/v1/api/user/2fa/show_qr", nil, tok)
	var qr auth.QR
	r.Decode(t, &qr)
	if !strings.HasPrefix(qr.OTPAuthURL, "otpauth://totp/Chapar:omid?") || !strings.Contains(qr.OTPAuthURL, "secret="+qr.Secret) {
		t.Fatalf("qr: %+v", qr)
	}
	code, _ := auth.TOTPCode(qr.Secret, time.Now())
	e.Must(422, "POST", "/v1/api/user/2fa/enable", map[string]string{"method": "app", "code": wrongCode(code)}, tok)
	e.Must(200, "POST", "/v1/api/user/2fa/enable", map[string]string{"method": "app", "code": code}, tok)
	e.Must(422, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": "nope"}, tok)
	e.Must(200, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": pw}, tok)
}

func TestEnvelopeShapes(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Engine.(*gin.Engine).GET("/v1/api/test/panic", func(*gin.Context) { panic("boom") })
	e.Register("owner1", pw, "09121000001")
	owner := e.Login("owner1", pw)

	// A colleague whose role lacks the permission gets 403 with code 403-8.
	ctx := context.Background()
	var accountID int64
	if err := e.DB.Pool.QueryRow(ctx, `SELECT account_id FROM users WHERE username = 'owner1'`).Scan(&accountID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO roles (account_id, name, permissions) VALUES ($1, 'reader', '{report.view}')`, accountID); err != nil {
		t.Fatal(err)
	}
	e.Register("colleague1", pw, "09121000002")
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE users SET account_id = $1, is_owner = false,
		role_id = (SELECT id FROM roles WHERE name = 'reader') WHERE username = 'colleague1'`, accountID); err != nil {
		t.Fatal(err)
	}
	colleague := e.Login("colleague1", pw)

	cases := []struct {
		name, method, path string
		body               any
		token              string
		status             int
		code               string
	}{
		{"401 no token", "GET", "/v1/api/acl/auth/check_token", nil, "", 401, "401"},
		{"401 bad token", "GET", "/v1/api/acl/auth/check_token", nil, "nope", 401, "401"},
		{"403 role", "GET", "/v1/api/acl/partner/permission_list", nil, colleague, 403, "403-8"},
		{"200 owner", "GET", "/v1/api/acl/partner/permission_list", nil, owner, 200, ""},
		{"404 api", "GET", "/v1/api/nothing/here", nil, owner, 404, "404"},
		{"405", "GET", "/v1/api/acl/auth/login", nil, "", 405, "405"},
		{"422 fields", "POST", "/v1/api/user/register", map[string]any{"username": "x"}, "", 422, ""},
		{"422 bad json", "POST", "/v1/api/acl/auth/login", "{not json", "", 422, "invalid-json"},
		{"500 panic", "GET", "/v1/api/test/panic", nil, "", 500, "500"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(c.method, c.path, c.body, c.token)
			if r.Status != c.status || r.Meta.Status != c.status {
				t.Fatalf("status %d meta %d want %d: %s", r.Status, r.Meta.Status, c.status, r.Raw)
			}
			if c.code != "" && r.Meta.MessageCode != c.code {
				t.Fatalf("message_code %q want %q", r.Meta.MessageCode, c.code)
			}
			if r.Meta.Message == "" || r.Meta.Errors == nil {
				t.Fatalf("envelope lacks message or errors: %s", r.Raw)
			}
			if !strings.Contains(string(r.Raw), `"data":`) {
				t.Fatalf("envelope lacks data: %s", r.Raw)
			}
		})
	}
	r := e.Must(422, "POST", "/v1/api/user/register", map[string]any{"username": "x", "mobile": "123", "password": "abc"}, "")
	for _, f := range []string{"name", "username", "mobile", "password", "rules"} {
		if len(r.Meta.Errors[f]) == 0 {
			t.Errorf("no error for %s: %s", f, r.Raw)
		}
	}
	if r := e.Must(500, "GET", "/v1/api/test/panic", nil, ""); r.Meta.Message != "خطا در ارسال اطلاعات" {
		t.Fatalf("500 message %q", r.Meta.Message)
	}
	e.Must(200, "GET", "/healthz", nil, "")
	e.Must(200, "GET", "/readyz", nil, "")
	e.Must(200, "GET", "/v1/api/acl/auth/login_setting", nil, "")
	_ = http.StatusOK
}

func toPersian(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune('۰' + (r - '0'))
	}
	return b.String()
}
