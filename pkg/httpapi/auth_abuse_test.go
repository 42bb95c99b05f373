package httpapi_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// from sends a request as if from ip (the test server trusts 127.0.0.1 as a proxy).
func from(ip string) []string { return []string{"X-Forwarded-For", ip} }

func trustLocalProxy(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1"} }

// loginFrom logs in from ip, doing the second step, and returns the session token.
func loginFrom(e *apitest.Env, ip, username, password, mobile string) string {
	e.T.Helper()
	tok, _ := loginDevice(e, ip, username, password, mobile, "")
	return tok
}

// loginDevice logs in from ip presenting a device token, doing the second step, and
// returns the session token and the device token to keep.
func loginDevice(e *apitest.Env, ip, username, password, mobile, device string) (token, keep string) {
	e.T.Helper()
	r := e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": username, "password": password,
		"device_token": device}, "", from(ip)...)
	var lr auth.LoginResult
	r.Decode(e.T, &lr)
	if lr.Token != "" {
		return lr.Token, lr.DeviceToken
	}
	var o auth.Opened
	e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken, "code": e.LastCode(mobile),
		"device_token": device}, "", from(ip)...).Decode(e.T, &o)
	return o.Token, o.DeviceToken
}

func codesTo(e *apitest.Env, mobile string) int {
	e.T.Helper()
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM challenges ch JOIN users u ON u.id = ch.user_id
		WHERE u.mobile = $1 AND ch.sends > 0`, mobile).Scan(&n); err != nil {
		e.T.Fatal(err)
	}
	return n
}

// A sign-up that never confirms the texted code is no login target: the password alone
// opens nothing and sends no login code; the code proves the mobile and opens a session.
func TestRegistrationNeedsMobileCode(t *testing.T) {
	e := apitest.Start(t, nil)
	reg := e.RegisterUnverified("pouya", pw, "09121112222")
	if !reg.VerificationRequired || reg.VerifyToken == "" || reg.ResendAfter != 1 {
		t.Fatalf("registration: %+v", reg)
	}
	code := e.LastCode("989121112222")
	if len(code) != 6 {
		t.Fatalf("registration code %q", code)
	}
	r := e.Must(403, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "pouya", "password": pw}, "")
	if r.Meta.MessageCode != auth.CodeMobileUnverified || r.Meta.Message != auth.MsgMobileUnverified {
		t.Fatalf("unverified login: %s", r.Raw)
	}
	e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "pouya"}, "")
	if n := codesTo(e, "989121112222"); n != 1 {
		t.Fatalf("an unverified number received %d codes, want only the registration's", n)
	}
	// The registration token is not a login token, and a wrong code proves nothing.
	e.Must(401, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": reg.VerifyToken, "code": code}, "")
	e.Must(422, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": wrongCode(code)}, "")
	r = e.Must(200, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": toPersian(code)}, "")
	var tok struct{ Token string }
	r.Decode(t, &tok)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok.Token)
	e.Must(401, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": code}, "")
	if e.Login("pouya", pw) == "" {
		t.Fatal("login after verification")
	}
}

// Sign-ups are limited per address.
func TestSignupPerAddressLimit(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.RegisterPerIPPerHour = 2 })
	body := func(u, m string) map[string]any {
		return map[string]any{"name": "x", "username": u, "mobile": m, "password": pw, "password_confirmation": pw, "accept_rules": true}
	}
	e.Must(201, "POST", "/v1/api/user/register", body("bot1", "09120000001"), "", from("10.1.1.1")...)
	e.Must(201, "POST", "/v1/api/user/register", body("bot2", "09120000002"), "", from("10.1.1.1")...)
	r := e.Must(429, "POST", "/v1/api/user/register", body("bot3", "09120000003"), "", from("10.1.1.1")...)
	if r.Meta.Message != auth.MsgSignupLimit || r.Header.Get("Retry-After") == "" {
		t.Fatalf("sign-up limit: %s", r.Raw)
	}
	if codesTo(e, "989120000003") != 0 {
		t.Fatal("a refused sign-up texted its number")
	}
	e.Must(201, "POST", "/v1/api/user/register", body("bot3", "09120000003"), "", from("10.1.1.2")...)
}

// One number receives at most OTPPerNumberPerDay codes a day, whatever asks for them.
func TestCodesPerNumberDailyCap(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.OTPPerNumberPerDay = 3 })
	e.Register("kaveh", pw, "09125550000") // code 1
	e.Login("kaveh", pw)                   // code 2
	r := e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "kaveh", "password": pw}, "")
	var lr auth.LoginResult
	r.Decode(t, &lr) // code 3
	time.Sleep(1100 * time.Millisecond)
	r = e.Must(429, "POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"login_token": lr.LoginToken}, "")
	if r.Meta.MessageCode != auth.CodeNumberCap || r.Meta.Message != auth.MsgNumberCap {
		t.Fatalf("resend over the cap: %s", r.Raw)
	}
	e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "kaveh", "password": pw}, "")
	// A new sign-up for the same number is refused before anything is written.
	r = e.Must(429, "POST", "/v1/api/user/register", map[string]any{"name": "x", "username": "kaveh2", "mobile": "09125550000",
		"password": pw, "password_confirmation": pw, "accept_rules": true}, "")
	if r.Meta.MessageCode != auth.CodeNumberCap {
		t.Fatalf("sign-up over the cap: %s", r.Raw)
	}
	if n := codesTo(e, "989125550000"); n != 3 {
		t.Fatalf("%d codes to the number, want 3", n)
	}
	e.Register("other", pw, "09125550001")
}

// Forgot-password answers a registered and an unknown username identically, shows no
// digit of the mobile, and its tokens behave alike.
func TestForgotPasswordUniform(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("leila", pw, "09361234567")
	real := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "leila"}, "")
	fake := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "nobody"}, "")
	if len(e.LastCode("989361234567")) != 6 {
		t.Fatal("reset code is not 6 digits")
	}
	var a, b map[string]any
	r1, r2 := decodeMap(t, real.Data, &a), decodeMap(t, fake.Data, &b)
	if a["message"] != b["message"] || a["resend_after"] != b["resend_after"] || len(a) != len(b) || r1 != r2 {
		t.Fatalf("answers differ: %s vs %s", real.Raw, fake.Raw)
	}
	for _, digits := range []string{"0936", "4567", "936", "mobile"} {
		if strings.Contains(string(real.Raw), digits) {
			t.Fatalf("answer shows the mobile (%s): %s", digits, real.Raw)
		}
	}
	for _, res := range []struct{ tok string }{{a["reset_token"].(string)}, {b["reset_token"].(string)}} {
		r := e.Must(422, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": res.tok, "code": "000001"}, "")
		if !strings.HasPrefix(r.Meta.Errors["code"][0], auth.MsgOTPWrong) {
			t.Fatalf("wrong code answer: %s", r.Raw)
		}
	}
	time.Sleep(1100 * time.Millisecond)
	e.Must(200, "POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"reset_token": a["reset_token"].(string)}, "")
	e.Must(200, "POST", "/v1/api/acl/auth/send_sms_otp", map[string]string{"reset_token": b["reset_token"].(string)}, "")
}

func decodeMap(t *testing.T, raw json.RawMessage, dst *map[string]any) string {
	t.Helper()
	if err := json.Unmarshal(raw, dst); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(*dst))
	for k := range *dst {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

func wrongCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}
