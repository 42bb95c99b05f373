package httpapi_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// from sends a request as if from ip (the test server trusts 127.0.0.1 as a proxy).
func from(ip string) []string { return []string{"X-Forwarded-For", ip} }

func trustLocalProxy(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1"} }

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

// A sign-up's answer asks for the texted code; until it is confirmed the login route
// answers 403 with mobile-unverified; the verify route answers a wrong code 422, the
// right one with a session token, and the used token 401 (the rules are pkg/auth's
// tests).
func TestRegistrationNeedsMobileCode(t *testing.T) {
	e := apitest.Start(t, nil)
	reg := e.RegisterUnverified("pouya", pw, "09121112222")
	if !reg.VerificationRequired || reg.VerifyToken == "" || reg.ResendAfter != 1 {
		t.Fatalf("registration: %+v", reg)
	}
	code := e.LastCode("989121112222")
	r := e.Must(403, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "pouya", "password": pw}, "")
	if r.Meta.MessageCode != auth.CodeMobileUnverified || r.Meta.Message != auth.MsgMobileUnverified {
		t.Fatalf("unverified login: %s", r.Raw)
	}
	e.Must(422, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": wrongCode(code)}, "")
	r = e.Must(200, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": code}, "")
	var tok struct{ Token string }
	r.Decode(t, &tok)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok.Token)
	e.Must(401, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": code}, "")
}

// A sign-up past its address's limit answers 429 with the limit's message and
// Retry-After; the address is the forwarded client's.
func TestSignupPerAddressLimit(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.RegisterPerIPPerHour = 1 })
	body := func(u, m string) map[string]any {
		return map[string]any{"name": "x", "username": u, "mobile": m, "password": pw, "password_confirmation": pw, "accept_rules": true}
	}
	e.Must(201, "POST", "/v1/api/user/register", body("bot1", "09120000001"), "", from("10.1.1.1")...)
	r := e.Must(429, "POST", "/v1/api/user/register", body("bot2", "09120000002"), "", from("10.1.1.1")...)
	if r.Meta.Message != auth.MsgSignupLimit || r.Header.Get("Retry-After") == "" {
		t.Fatalf("sign-up limit: %s", r.Raw)
	}
	e.Must(201, "POST", "/v1/api/user/register", body("bot2", "09120000002"), "", from("10.1.1.2")...)
}

// A number past its day's codes: the login route answers 429 with the cap's code,
// message and Retry-After (the cap is pkg/auth's tests).
func TestCodesPerNumberDailyCap(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.OTPPerNumberPerDay = 2 })
	e.Register("kaveh", pw, "09125550000")                                                                    // code 1
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "kaveh", "password": pw}, "") // code 2
	r := e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "kaveh", "password": pw}, "")
	if r.Meta.MessageCode != auth.CodeNumberCap || r.Meta.Message != auth.MsgNumberCap || r.Header.Get("Retry-After") == "" {
		t.Fatalf("login over the cap: %s", r.Raw)
	}
}

// Forgot-password answers a registered and an unknown username with the same fields
// and values and shows no digit of the mobile (the tokens' likeness is pkg/auth's
// tests).
func TestForgotPasswordUniform(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("leila", pw, "09361234567")
	real := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "leila"}, "")
	fake := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": "nobody"}, "")
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
