package httpapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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

// New reset challenges do not renew the guesses: after ResetFailsPerDay wrong codes in
// a day the username and its mobile are locked (even the right code is refused), and
// the owner is told.
func TestResetDailyLockOut(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.ResetFailsPerDay = 7; c.OTPConfirmPerMin = 100 })
	e.Register("sahar", pw, "09371234567")
	e.Register("sahar2", pw, "09371234567") // a second user on the same number
	rs := forgot(e, "sahar", 200)
	code := e.LastCode("989371234567")
	if len(code) != 6 {
		t.Fatalf("reset code %q is not 6 digits", code)
	}
	for i := 0; i < e.Config.OTPMaxTries; i++ {
		e.Do("POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": wrongCode(code)}, "")
	}
	time.Sleep(1100 * time.Millisecond) // the per-username resend countdown
	rs = forgot(e, "sahar", 200)
	code = e.LastCode("989371234567")
	e.Must(422, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": wrongCode(code)}, "")
	e.Must(422, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": wrongCode(code)}, "")
	r := e.Must(429, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": code}, "")
	if r.Meta.MessageCode != auth.CodeResetLocked {
		t.Fatalf("right code after lock-out: %s", r.Raw)
	}
	forgot(e, "sahar", 429)
	forgot(e, "SAHAR2", 429) // the number is locked too
	if n := auditCount(e, "auth.reset_locked"); n != 1 {
		t.Fatalf("reset_locked audit rows %d", n)
	}
	if n := len(e.Notices("989371234567")); n != 1 {
		t.Fatalf("owner notices %d, want 1", n)
	}
	// An unknown username locks alike, so the lock-out tells nothing.
	for i := 0; i < 7; i++ {
		time.Sleep(time.Duration(i/5) * 1100 * time.Millisecond)
		if i%5 == 0 {
			rs = forgot(e, "ghost", 200)
		}
		e.Do("POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken, "code": "123456"}, "")
	}
	forgot(e, "ghost", 429)
	e.Login("sahar", pw) // the lock-out is of the reset, not of the login
}

// A successful reset tells the owner by SMS (and the audit log).
func TestResetSuccessNotifiesOwner(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("babak", pw, "09381234567")
	rs := forgot(e, "babak", 200)
	r := e.Must(200, "POST", "/v1/api/acl/auth/forgot_password_check_otp", map[string]string{"reset_token": rs.ResetToken,
		"code": e.LastCode("989381234567")}, "")
	var ct struct {
		ChangeToken string `json:"change_token"`
	}
	r.Decode(t, &ct)
	if len(e.Notices("989381234567")) != 0 {
		t.Fatal("notice before the change")
	}
	e.Must(200, "POST", "/v1/api/acl/auth/change_password_by_token", map[string]string{"change_token": ct.ChangeToken,
		"password": "Newpass@2025", "password_confirmation": "Newpass@2025"}, "")
	if n := e.Notices("989381234567"); len(n) != 1 || n[0] != auth.MsgNoticeReset {
		t.Fatalf("notices %q", n)
	}
	if auditCount(e, "auth.password_reset") != 1 {
		t.Fatal("no audit record of the reset")
	}
}

// check_exist is throttled per address and answers existing and missing names alike.
func TestCheckExistThrottled(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.CheckExistPerIPPerMin = 3 })
	e.Register("taken", pw, "09121239999")
	for _, name := range []string{"taken", "free1", "free2"} {
		r := e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": name}, "", from("10.2.2.2")...)
		if string(r.Data) != `{"exists":true}` && string(r.Data) != `{"exists":false}` {
			t.Fatalf("answer shape: %s", r.Raw)
		}
	}
	for _, name := range []string{"taken", "free3"} {
		r := e.Must(429, "POST", "/v1/api/user/check_exist", map[string]string{"username": name}, "", from("10.2.2.2")...)
		if r.Header.Get("Retry-After") == "" || string(r.Data) != "null" {
			t.Fatalf("throttled %s: %s", name, r.Raw)
		}
	}
	e.Must(200, "POST", "/v1/api/user/check_exist", map[string]string{"username": "taken"}, "", from("10.2.2.3")...)
}

// Strangers' wrong passwords never lock the owner's browser out. Ten a minute from one
// address shut the username for that address; past LoginUserLockAfter in an hour every
// client without a device token of the owner waits a growing delay, even from an
// address the owner logged in from (a carrier's NAT shares and changes addresses). The
// owner's device token logs in from anywhere, until its own failures use its trust up.
func TestWrongPasswordsDontLockOwnerOut(t *testing.T) {
	e := apitest.Start(t, trustLocalProxy)
	const mobile = "989122223333"
	e.Register("owner", pw, "09122223333")
	_, dev := loginDevice(e, "10.0.0.2", "owner", pw, mobile, "")
	if dev == "" {
		t.Fatal("a login without a device token")
	}
	wrongFrom := func(ip, name, device string, n int) {
		for i := 0; i < n; i++ {
			e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": name, "password": "Wrong@1234",
				"device_token": device}, "", from(ip)...)
		}
	}
	wrongFrom("10.0.0.1", "owner", "", e.Config.LoginPerUserPerMin)
	passwordLocked(e, "10.0.0.1", "owner", "")
	if tok, again := loginDevice(e, "10.0.0.1", "owner", pw, mobile, dev); tok == "" || again != dev {
		t.Fatalf("the owner's browser at the shut address: token %q, device %q", tok, again)
	}
	loginDevice(e, "10.0.0.3", "owner", pw, mobile, "") // another address is not shut yet
	// More failures from another address reach the per-user threshold.
	wrongFrom("10.0.0.5", "owner", "", e.Config.LoginUserLockAfter-e.Config.LoginPerUserPerMin)
	passwordLocked(e, "10.0.0.6", "owner", "")
	passwordLocked(e, "10.0.0.2", "owner", "")              // the owner's earlier address earns nothing
	passwordLocked(e, "10.0.0.7", "owner", "made-up-token") // nor a token this server never issued
	loginDevice(e, "10.0.0.8", "owner", pw, mobile, dev)
	if auditCount(e, "auth.login_locked") != 1 {
		t.Fatal("no audit record of the lock")
	}
	// A stolen device token is no master key: its own failures use its trust up.
	for i := 0; i < e.Config.LoginUserLockAfter; i++ {
		wrongFrom(fmt.Sprintf("10.0.1.%d", i), "owner", dev, 1)
	}
	passwordLocked(e, "10.0.0.9", "owner", dev)
	// An unknown username is limited the same way (no enumeration by lock-out).
	wrongFrom("10.0.0.4", "ghost", "", e.Config.LoginPerUserPerMin)
	passwordLocked(e, "10.0.0.4", "ghost", "")
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

// Every login attempt counts against its address.
func TestLoginPerAddressLimit(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { trustLocalProxy(c); c.LoginPerIPPerMin = 4 })
	e.Register("nazanin", pw, "09124445555")
	for _, name := range []string{"a1", "a2", "a3", "a4"} {
		e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": name, "password": pw}, "", from("10.3.3.3")...)
	}
	e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "nazanin", "password": pw}, "", from("10.3.3.3")...)
	loginFrom(e, "10.3.3.4", "nazanin", pw, "989124445555")
}
