package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apitest"
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

// Ten wrong passwords a minute from one address lock that address, not the owner: the
// owner's known address still logs in. Past LoginUserLockAfter failures from anywhere,
// unknown addresses wait a growing delay, the known one still does not.
func TestWrongPasswordsDontLockOwnerOut(t *testing.T) {
	e := apitest.Start(t, trustLocalProxy)
	e.Register("owner", pw, "09122223333")
	loginFrom(e, "10.0.0.2", "owner", pw, "989122223333") // the owner's known address
	wrongFrom := func(ip, name string, n int) {
		for i := 0; i < n; i++ {
			e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": name, "password": "Wrong@1234"}, "", from(ip)...)
		}
	}
	locked := func(ip, name string) {
		r := e.Must(429, "POST", "/v1/api/acl/auth/login", map[string]string{"username": name, "password": pw}, "", from(ip)...)
		if r.Meta.MessageCode != auth.CodeLoginLocked || r.Header.Get("Retry-After") == "" {
			t.Fatalf("%s from %s: %s", name, ip, r.Raw)
		}
	}
	wrongFrom("10.0.0.1", "owner", e.Config.LoginPerUserPerMin)
	locked("10.0.0.1", "owner")
	if loginFrom(e, "10.0.0.2", "owner", pw, "989122223333") == "" {
		t.Fatal("the owner's known address is locked out")
	}
	loginFrom(e, "10.0.0.3", "owner", pw, "989122223333") // a new address is not locked yet
	// More failures from another address reach the per-user threshold.
	wrongFrom("10.0.0.5", "owner", e.Config.LoginUserLockAfter-e.Config.LoginPerUserPerMin)
	locked("10.0.0.6", "owner")
	loginFrom(e, "10.0.0.2", "owner", pw, "989122223333")
	loginFrom(e, "10.0.0.3", "owner", pw, "989122223333") // known since its login above
	if auditCount(e, "auth.login_locked") != 1 {
		t.Fatal("no audit record of the lock")
	}
	// An unknown username is limited the same way (no enumeration by lock-out).
	wrongFrom("10.0.0.4", "ghost", e.Config.LoginPerUserPerMin)
	locked("10.0.0.4", "ghost")
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
