package auth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// The authenticator app: its QR names the user and carries the secret; enabling it
// needs a code of the app, after which logins ask for the app's code (with three
// methods offered); turning the second step off needs the password, after which the
// password alone opens a session.
func TestAuthenticatorApp(t *testing.T) {
	r := newRig(t, "10.8.0.1", nil)
	id := r.signIn("omid", "09121231234")
	qr, err := r.svc.ShowQR(r.ctx, id)
	if err != nil || !strings.HasPrefix(qr.OTPAuthURL, "otpauth://totp/Chapar:omid?") || !strings.Contains(qr.OTPAuthURL, "secret="+qr.Secret) {
		t.Fatalf("qr: %+v %v", qr, err)
	}
	code, err := auth.TOTPCode(qr.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	refused(t, "a wrong app code", r.svc.EnableTwoStep(r.ctx, id, "app", other(code)), apperr.Invalid, "")
	if err := r.svc.EnableTwoStep(r.ctx, id, "app", code); err != nil {
		t.Fatal(err)
	}
	lr := r.login("omid")
	if lr.Method != "app" || len(lr.Methods) != 3 {
		t.Fatalf("app login: %+v", lr)
	}
	code, _ = auth.TOTPCode(qr.Secret, time.Now())
	r.confirm(lr, code)
	refused(t, "turning off with a wrong password", r.svc.DisableTwoStep(r.ctx, id, "nope"), apperr.Invalid, "")
	if err := r.svc.DisableTwoStep(r.ctx, id, pw); err != nil {
		t.Fatal(err)
	}
	if lr, err := r.svc.Login(r.ctx, "omid", pw, r.c); err != nil || lr.Token == "" || lr.OTPRequired {
		t.Fatalf("one-step login: %+v %v", lr, err)
	}
}

// Every action that checks the signed-in user's password (turning two-step login off,
// changing the password) draws on one per-user budget a minute: past it even the
// right password is refused, by either, so neither can be used to guess the password
// (issue 38 item 21).
func TestPasswordChecksShareOneBudget(t *testing.T) {
	r := newRig(t, "10.8.0.2", func(c *config.Config) { c.OTPConfirmPerMin = 3 })
	id := r.signIn("guarded", "09121238811")
	for range 3 {
		refused(t, "a wrong password", r.svc.DisableTwoStep(r.ctx, id, "wrong-guess"), apperr.Invalid, "")
	}
	refused(t, "the right password past the budget", r.svc.DisableTwoStep(r.ctx, id, pw), apperr.RateLimited, "")
	err := r.svc.ChangePassword(r.ctx, id, auth.ChangePasswordInput{CurrentPassword: pw, Password: "Another-Pass-1234",
		PasswordConfirmation: "Another-Pass-1234"}, r.c)
	refused(t, "a password change past the budget", err, apperr.RateLimited, "")
}

// A new code is sent only after the countdown (an early resend is told to wait);
// the resend goes by the method asked (a voice call) and replaces the code: the first
// no longer works, the second does.
func TestResendCountdown(t *testing.T) {
	r := newRig(t, "10.8.0.3", nil)
	const mobile = "09351112233"
	r.register("nima", mobile)
	lr := r.login("nima")
	first := r.code(mobile)
	_, err := r.svc.Resend(r.ctx, lr.LoginToken, "voice", r.c)
	if e := refused(t, "an early resend", err, apperr.RateLimited, ""); e.Message != auth.MsgOTPWait || e.RetryAfter <= 0 {
		t.Fatalf("early resend: %+v", e)
	}
	r.resendDue("nima")
	if after, err := r.svc.Resend(r.ctx, lr.LoginToken, "voice", r.c); err != nil || after != int(r.cfg.OTPResendAfter.Seconds()) {
		t.Fatalf("resend after the countdown: %d %v", after, err)
	}
	if v := testenv.Newest(testenv.Queued(t, shared.Redis, "989351112233")); !v.Voice {
		t.Fatalf("the resend is not a call: %+v", v)
	}
	second := r.code(mobile)
	if first != second {
		_, err := r.svc.ConfirmLogin(r.ctx, lr.LoginToken, first, r.c)
		refused(t, "the replaced code", err, apperr.Invalid, "")
	}
	r.confirm(lr, second)
}
