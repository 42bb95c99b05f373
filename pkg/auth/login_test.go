package auth_test

import (
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// toPersian writes ASCII digits as Persian digits.
func toPersian(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune('۰' + (r - '0'))
	}
	return b.String()
}

// Two-step login is on by default: the password starts a second step with the code
// texted to the owner's mobile (shown only as a hint); the login token is no session
// and is used once; the code (in Persian digits too) opens a session that names its
// user; logging out ends it; the registration, the login and the logout are audited.
func TestLoginSecondStepAndSession(t *testing.T) {
	r := newRig(t, "10.1.0.1", nil)
	r.register("sara", "۰۹۱۲۱۲۳۴۵۶۷")
	lr := r.login("SARA")
	if lr.Method != "sms" || lr.MobileHint != "0912***4567" || lr.ResendAfter != int(r.cfg.OTPResendAfter.Seconds()) {
		t.Fatalf("login result %+v", lr)
	}
	if _, err := r.svc.Authenticate(r.ctx, lr.LoginToken); err == nil {
		t.Fatal("the login token authenticates")
	}
	code := r.code("09121234567")
	tok := r.confirm(lr, toPersian(code))
	id, err := r.svc.Authenticate(r.ctx, tok)
	if err != nil || id.Username != "sara" || id.Name != "کاربر sara" || !id.IsOwner || id.SessionID == 0 {
		t.Fatalf("identity %+v %v", id, err)
	}
	if _, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, code, r.c); err == nil {
		t.Fatal("the login token was used twice")
	}
	if err := r.svc.Logout(r.ctx, tok, id, r.c); err != nil {
		t.Fatal(err)
	}
	refused(t, "a closed session", func() error { _, err := r.svc.Authenticate(r.ctx, tok); return err }(), apperr.Unauthorized, "")
	var n int
	if err := shared.DB.Pool.QueryRow(r.ctx, `SELECT count(*) FROM audit_log WHERE user_id = $1
		AND action IN ('auth.login', 'auth.logout', 'account.register')`, id.UserID).Scan(&n); err != nil || n != 3 {
		t.Fatalf("audit rows %d %v", n, err)
	}
}

// A wrong code is refused with its message and counts; the last try locks the
// login (even the right code is refused after it), and a new login works.
func TestWrongCodesLockTheLogin(t *testing.T) {
	r := newRig(t, "10.1.0.2", nil)
	r.register("reza", "09191234567")
	lr := r.login("reza")
	code := r.code("09191234567")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := 1; i < r.cfg.OTPMaxTries; i++ {
		_, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, wrong, r.c)
		if e := refused(t, "a wrong code", err, apperr.Invalid, ""); len(e.Fields["code"]) != 1 || !strings.HasPrefix(e.Fields["code"][0], auth.MsgOTPWrong) {
			t.Fatalf("try %d: %v", i, e.Fields)
		}
	}
	_, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, wrong, r.c)
	refused(t, "the last wrong code", err, apperr.Unauthorized, auth.CodeOTPLocked)
	_, err = r.svc.ConfirmLogin(r.ctx, lr.LoginToken, code, r.c)
	refused(t, "the right code after the lock", err, apperr.Unauthorized, auth.CodeOTPLocked)
	r.confirm(r.login("reza"), r.code("09191234567"))
}

// A login whose second step outlives its window needs a new login: its code is
// refused with the timeout's message.
func TestLoginWindowEnds(t *testing.T) {
	r := newRig(t, "10.1.0.3", nil)
	r.register("mina", "09101234567")
	lr := r.login("mina")
	code := r.code("09101234567")
	if _, err := shared.DB.Pool.Exec(r.ctx, `UPDATE challenges SET expires_at = now() - interval '1 second'
		WHERE purpose = 'login' AND user_id = (SELECT id FROM users WHERE username = 'mina')`); err != nil {
		t.Fatal(err)
	}
	_, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, code, r.c)
	if e := refused(t, "a login past its window", err, apperr.Unauthorized, auth.CodeOTPTimeout); e.Message != auth.MsgOTPTimeout {
		t.Fatalf("message %q", e.Message)
	}
}

// Wrong passwords for one username are limited per minute: past the limit even the
// right password waits, with the time to wait.
func TestLoginRateLimit(t *testing.T) {
	r := newRig(t, "10.1.0.4", func(c *config.Config) { c.LoginPerUserPerMin = 3 })
	r.register("ali", "09121110000")
	for range 3 {
		_, err := r.svc.Login(r.ctx, "ali", "Wrong@1234", r.c)
		refused(t, "a wrong password", err, apperr.Unauthorized, "")
	}
	_, err := r.svc.Login(r.ctx, "ali", pw, r.c)
	if e := refused(t, "past the limit", err, apperr.RateLimited, ""); e.RetryAfter <= 0 || e.Message == "" {
		t.Fatalf("limited without a wait: %+v", e)
	}
}

// Forgot-password: the reset token opens no session; its code gives a change token
// that sets a policy-checked password once; old sessions and the old password end.
func TestForgotPassword(t *testing.T) {
	r := newRig(t, "10.1.0.5", nil)
	r.register("leila", "09361234567")
	old := r.confirm(r.login("leila"), r.code("09361234567"))
	rs, err := r.svc.ForgotPassword(r.ctx, "leila", r.c)
	if err != nil {
		t.Fatal(err)
	}
	code := r.code("09361234567")
	if _, err := r.svc.ConfirmLogin(r.ctx, rs.ResetToken, code, r.c); err == nil {
		t.Fatal("the reset token opened a session")
	}
	change, err := r.svc.CheckResetCode(r.ctx, rs.ResetToken, code, r.c)
	if err != nil {
		t.Fatal(err)
	}
	e := refused(t, "a weak password", r.svc.ChangePasswordByToken(r.ctx, change, "short", "short", r.c), apperr.Invalid, "")
	if len(e.Fields["password"]) == 0 {
		t.Fatalf("fields %v", e.Fields)
	}
	if err := r.svc.ChangePasswordByToken(r.ctx, change, "Newpass@2025", "Newpass@2025", r.c); err != nil {
		t.Fatal(err)
	}
	refused(t, "the change token again", r.svc.ChangePasswordByToken(r.ctx, change, "Other@20255", "Other@20255", r.c), apperr.Unauthorized, "")
	refused(t, "an old session", func() error { _, err := r.svc.Authenticate(r.ctx, old); return err }(), apperr.Unauthorized, "")
	_, err = r.svc.Login(r.ctx, "leila", pw, r.c)
	refused(t, "the old password", err, apperr.Unauthorized, "")
	if lr, err := r.svc.Login(r.ctx, "leila", "Newpass@2025", r.c); err != nil || !lr.OTPRequired {
		t.Fatalf("the new password: %+v %v", lr, err)
	}
}
