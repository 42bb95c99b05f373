package httpapi_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

func forgot(e *apitest.Env, username string, want int) auth.ResetStart {
	e.T.Helper()
	r := e.Must(want, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": username}, "")
	var rs auth.ResetStart
	if want == 200 {
		r.Decode(e.T, &rs)
	} else if r.Meta.MessageCode != auth.CodeResetLocked || r.Meta.Message != auth.MsgResetLocked {
		e.T.Fatalf("forgot %s: %s", username, r.Raw)
	}
	return rs
}

// resetPassword sets a new password through forgot-password with the texted code.
func resetPassword(e *apitest.Env, username, mobile, password string) {
	e.T.Helper()
	rs := forgot(e, username, 200)
	var ct struct {
		ChangeToken string `json:"change_token"`
	}
	e.Must(200, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken,
		"code": e.LastCode(mobile)}, "").Decode(e.T, &ct)
	e.Must(200, "POST", "/v1/api/acl/auth/change_password_by_token", map[string]string{"change_token": ct.ChangeToken,
		"password": password, "password_confirmation": password}, "")
}

func auditCount(e *apitest.Env, action string) int {
	e.T.Helper()
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = $1`, action).Scan(&n); err != nil {
		e.T.Fatal(err)
	}
	return n
}

// The limits and lock-outs of the login routes answer 429 with their code, message
// and Retry-After, each for the client's forwarded address (the rules are pkg/auth's
// tests): a reset locked for the day, at the code and at a new request; a login shut
// for one address, which the owner's device token sent in the body still passes and
// another address does not share; and the sign-up form's name check, whose 429 has no
// data.
func TestLockOutContract(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) {
		trustLocalProxy(c)
		c.ResetFailsPerDay, c.LoginPerUserPerMin, c.CheckExistPerIPPerMin = 1, 1, 1
	})
	e.Register("sahar", pw, "09371234567")
	rs := forgot(e, "sahar", 200)
	code := e.LastCode("989371234567")
	e.Must(422, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": wrongCode(code)}, "")
	r := e.Must(429, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": code}, "")
	if r.Meta.MessageCode != auth.CodeResetLocked || r.Header.Get("Retry-After") == "" {
		t.Fatalf("right code after lock-out: %s", r.Raw)
	}
	forgot(e, "sahar", 429)

	const mobile = "989122223333"
	e.Register("owner", pw, "09122223333")
	_, dev := loginDevice(e, "10.0.0.2", "owner", pw, mobile, "")
	if dev == "" {
		t.Fatal("a login without a device token")
	}
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "owner", "password": "Wrong@1234"}, "", from("10.0.0.1")...)
	passwordLocked(e, "10.0.0.1", "owner", "")
	if tok, again := loginDevice(e, "10.0.0.1", "owner", pw, mobile, dev); tok == "" || again != dev {
		t.Fatalf("the owner's browser at the shut address: token %q, device %q", tok, again)
	}
	loginDevice(e, "10.0.0.3", "owner", pw, mobile, "") // another address is not shut

	r = e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": "owner"}, "", from("10.2.2.2")...)
	if string(r.Data) != `{"exists":true}` {
		t.Fatalf("answer shape: %s", r.Raw)
	}
	r = e.Must(429, "POST", "/v1/api/user/check_exist", map[string]string{"username": "free1"}, "", from("10.2.2.2")...)
	if r.Header.Get("Retry-After") == "" || string(r.Data) != "null" {
		t.Fatalf("throttled: %s", r.Raw)
	}
	r = e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": "free1"}, "", from("10.2.2.3")...)
	if string(r.Data) != `{"exists":false}` {
		t.Fatalf("answer shape: %s", r.Raw)
	}
}

// passwordLocked asserts that the right password is refused with login-locked.
func passwordLocked(e *apitest.Env, ip, name, device string) {
	e.T.Helper()
	r := e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": name, "password": pw, "device_token": device},
		"", from(ip)...)
	if r.Meta.MessageCode != auth.CodeLoginLocked || r.Meta.Message != auth.MsgLoginLocked || r.Header.Get("Retry-After") == "" {
		e.T.Fatalf("%s from %s: %s", name, ip, r.Raw)
	}
}
