package auth_test

import (
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// forgot starts a password reset for a name and returns its token.
func (r *rig) forgot(name string) string {
	r.t.Helper()
	rs, err := r.svc.ForgotPassword(r.ctx, name, r.c)
	if err != nil || rs.ResetToken == "" {
		r.t.Fatalf("forgot %s: %+v %v", name, rs, err)
	}
	return rs.ResetToken
}

// resetLocked expects err to be the day's reset lock-out, with its message and a wait.
func resetLocked(t *testing.T, what string, err error) {
	t.Helper()
	if e := refused(t, what, err, apperr.RateLimited, auth.CodeResetLocked); e.Message != auth.MsgResetLocked || e.RetryAfter <= 0 {
		t.Fatalf("%s: %+v", what, e)
	}
}

// New reset challenges do not renew the guesses: after ResetFailsPerDay wrong codes in
// a day the username and its mobile are locked (even the right code is refused), and
// the owner is told once, by SMS and the audit log. An unknown username locks alike;
// the lock-out is of the reset, not of the login.
func TestResetDailyLockOut(t *testing.T) {
	r := newRig(t, "10.5.0.1", func(c *config.Config) { c.ResetFailsPerDay = 7; c.OTPConfirmPerMin = 100 })
	const mobile = "09371234567"
	r.register("sahar", mobile)
	r.register("sahar2", mobile) // a second user on the same number
	tok := r.forgot("sahar")
	code := r.code(mobile)
	if len(code) != 6 {
		t.Fatalf("reset code %q is not 6 digits", code)
	}
	for range r.cfg.OTPMaxTries {
		_, _ = r.svc.CheckResetCode(r.ctx, tok, other(code), r.c)
	}
	tok = r.forgot("sahar")
	code = r.code(mobile)
	for range 2 {
		_, err := r.svc.CheckResetCode(r.ctx, tok, other(code), r.c)
		refused(t, "a wrong code before the lock-out", err, apperr.Invalid, "")
	}
	_, err := r.svc.CheckResetCode(r.ctx, tok, code, r.c)
	resetLocked(t, "the right code after the lock-out", err)
	for _, name := range []string{"sahar", "SAHAR2"} { // the number is locked too
		_, err := r.svc.ForgotPassword(r.ctx, name, r.c)
		resetLocked(t, "forgot "+name, err)
	}
	if n := audits(t, "sahar", "auth.reset_locked") + audits(t, "sahar2", "auth.reset_locked"); n != 1 {
		t.Fatalf("reset_locked audit rows %d", n)
	}
	if n := len(notices(t, "989371234567")); n != 1 {
		t.Fatalf("owner notices %d, want 1", n)
	}
	for i := range 7 {
		if i%r.cfg.OTPMaxTries == 0 {
			tok = r.forgot("ghost-reset")
		}
		_, _ = r.svc.CheckResetCode(r.ctx, tok, "123456", r.c)
	}
	_, err = r.svc.ForgotPassword(r.ctx, "ghost-reset", r.c)
	resetLocked(t, "forgot an unknown name", err)
	r.confirm(r.login("sahar"), r.code(mobile))
}

// A successful reset tells the owner by SMS (and the audit log), and only then.
func TestResetSuccessNotifiesOwner(t *testing.T) {
	r := newRig(t, "10.5.0.2", nil)
	r.register("babak", "09381234567")
	change, err := r.svc.CheckResetCode(r.ctx, r.forgot("babak"), r.code("09381234567"), r.c)
	if err != nil {
		t.Fatal(err)
	}
	if n := notices(t, "989381234567"); len(n) != 0 {
		t.Fatalf("notices before the change: %q", n)
	}
	if err := r.svc.ChangePasswordByToken(r.ctx, change, "Newpass@2025", "Newpass@2025", r.c); err != nil {
		t.Fatal(err)
	}
	if n := notices(t, "989381234567"); len(n) != 1 || n[0] != auth.MsgNoticeReset {
		t.Fatalf("notices %q", n)
	}
	if n := audits(t, "babak", "auth.password_reset"); n != 1 {
		t.Fatalf("%d audit records of the reset", n)
	}
}

// Forgot-password answers a registered and an unknown username identically, and
// their tokens behave alike: a wrong code is refused with the same message, and a
// new code is sent (or not) after the countdown with the same answer.
func TestForgotPasswordUniform(t *testing.T) {
	r := newRig(t, "10.5.0.3", nil)
	r.register("leyla", "09361234568")
	real, err := r.svc.ForgotPassword(r.ctx, "leyla", r.c)
	if err != nil {
		t.Fatal(err)
	}
	fake, err := r.svc.ForgotPassword(r.ctx, "nobody-reset", r.c)
	if err != nil {
		t.Fatal(err)
	}
	code := r.code("09361234568")
	if len(code) != 6 {
		t.Fatalf("reset code %q is not 6 digits", code)
	}
	if real.Message != fake.Message || real.ResendAfter != fake.ResendAfter || real.Message != auth.MsgResetSent ||
		fake.ResetToken == "" || fake.ResetToken == real.ResetToken {
		t.Fatalf("answers differ: %+v vs %+v", real, fake)
	}
	for _, tok := range []string{real.ResetToken, fake.ResetToken} {
		_, err := r.svc.CheckResetCode(r.ctx, tok, other(code), r.c)
		if e := refused(t, "a wrong code", err, apperr.Invalid, ""); len(e.Fields["code"]) != 1 || !strings.HasPrefix(e.Fields["code"][0], auth.MsgOTPWrong) {
			t.Fatalf("wrong code answer: %+v", e)
		}
	}
	r.resendDue("leyla")
	r.resendDue("nobody-reset")
	for _, tok := range []string{real.ResetToken, fake.ResetToken} {
		if after, err := r.svc.Resend(r.ctx, tok, "", r.c); err != nil || after != real.ResendAfter {
			t.Fatalf("resend: %d %v", after, err)
		}
	}
}
