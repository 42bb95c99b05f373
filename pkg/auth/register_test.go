package auth_test

import (
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

// signUp is the sign-up form of a username and a mobile (09…).
func signUp(username, mobile string) account.RegisterInput {
	return account.RegisterInput{Name: "x", Username: username, Mobile: mobile, Password: pw, PasswordConfirmation: pw,
		AcceptRules: true}
}

// codesTo counts the challenges that texted a code to a mobile (98…).
func codesTo(t *testing.T, mobile string) int {
	t.Helper()
	return count(t, `SELECT count(*) FROM challenges ch JOIN users u ON u.id = ch.user_id
		WHERE u.mobile = $1 AND ch.sends > 0`, mobile)
}

// A sign-up that never confirms the texted code is no login target: the password alone
// opens nothing and forgot-password sends no code; the registration token is no login
// token, a wrong code proves nothing, and the code (in Persian digits too) proves the
// mobile and opens a session, once.
func TestRegistrationNeedsMobileCode(t *testing.T) {
	r := newRig(t, "10.6.0.1", nil)
	reg, err := r.svc.Register(r.ctx, signUp("pouya", "09121112222"), r.c)
	if err != nil || !reg.VerificationRequired || reg.VerifyToken == "" || reg.ResendAfter != int(r.cfg.OTPResendAfter.Seconds()) {
		t.Fatalf("registration: %+v %v", reg, err)
	}
	code := r.code("09121112222")
	if len(code) != 6 {
		t.Fatalf("registration code %q", code)
	}
	_, err = r.svc.Login(r.ctx, "pouya", pw, r.c)
	if e := refused(t, "an unverified login", err, apperr.Forbidden, auth.CodeMobileUnverified); e.Message != auth.MsgMobileUnverified {
		t.Fatalf("unverified login: %+v", e)
	}
	r.forgot("pouya")
	if n := codesTo(t, "989121112222"); n != 1 {
		t.Fatalf("an unverified number received %d codes, want only the registration's", n)
	}
	_, err = r.svc.ConfirmLogin(r.ctx, reg.VerifyToken, code, r.c)
	refused(t, "the registration token as a login token", err, apperr.Unauthorized, "")
	_, err = r.svc.VerifyRegistration(r.ctx, reg.VerifyToken, other(code), r.c)
	refused(t, "a wrong registration code", err, apperr.Invalid, "")
	o, err := r.svc.VerifyRegistration(r.ctx, reg.VerifyToken, toPersian(code), r.c)
	if err != nil {
		t.Fatal(err)
	}
	r.identity(o.Token)
	_, err = r.svc.VerifyRegistration(r.ctx, reg.VerifyToken, code, r.c)
	refused(t, "the registration token again", err, apperr.Unauthorized, "")
	r.confirm(r.login("pouya"), r.code("09121112222"))
}

// Sign-ups are limited per address (RegisterPerIPPerHour); a refused one texts
// nothing, and another address signs up.
func TestSignupPerAddressLimit(t *testing.T) {
	r := newRig(t, "10.1.1.1", func(c *config.Config) { c.RegisterPerIPPerHour = 2 })
	for _, u := range []struct{ name, mobile string }{{"signup1", "09120000001"}, {"signup2", "09120000002"}} {
		if _, err := r.svc.Register(r.ctx, signUp(u.name, u.mobile), r.c); err != nil {
			t.Fatalf("sign-up %s: %v", u.name, err)
		}
	}
	_, err := r.svc.Register(r.ctx, signUp("signup3", "09120000003"), r.c)
	if e := refused(t, "a sign-up past the limit", err, apperr.RateLimited, ""); e.Message != auth.MsgSignupLimit || e.RetryAfter <= 0 {
		t.Fatalf("sign-up limit: %+v", e)
	}
	if codesTo(t, "989120000003") != 0 || len(testenv.Queued(t, shared.Redis, "989120000003")) != 0 {
		t.Fatal("a refused sign-up texted its number")
	}
	if _, err := r.svc.Register(r.ctx, signUp("signup3", "09120000003"), r.at("10.1.1.2", "")); err != nil {
		t.Fatalf("sign-up from another address: %v", err)
	}
}

// One number receives at most OTPPerNumberPerDay codes a day, whatever asks for them:
// past it a resend, a login and a new sign-up of the number are refused (the sign-up
// before anything is written); another number is not concerned.
func TestCodesPerNumberDailyCap(t *testing.T) {
	r := newRig(t, "10.6.2.1", func(c *config.Config) { c.OTPPerNumberPerDay = 3 })
	r.register("kaveh", "09125550000")                 // code 1
	r.confirm(r.login("kaveh"), r.code("09125550000")) // code 2
	lr := r.login("kaveh")                             // code 3
	r.resendDue("kaveh")
	_, err := r.svc.Resend(r.ctx, lr.LoginToken, "", r.c)
	if e := refused(t, "a resend over the cap", err, apperr.RateLimited, auth.CodeNumberCap); e.Message != auth.MsgNumberCap {
		t.Fatalf("resend over the cap: %+v", e)
	}
	_, err = r.svc.Login(r.ctx, "kaveh", pw, r.c)
	refused(t, "a login over the cap", err, apperr.RateLimited, auth.CodeNumberCap)
	_, err = r.svc.Register(r.ctx, signUp("kaveh2", "09125550000"), r.c)
	refused(t, "a sign-up over the cap", err, apperr.RateLimited, auth.CodeNumberCap)
	if n := count(t, `SELECT count(*) FROM users WHERE username = 'kaveh2'`); n != 0 {
		t.Fatal("a sign-up over the cap was written")
	}
	if n := codesTo(t, "989125550000"); n != 3 {
		t.Fatalf("%d codes to the number, want 3", n)
	}
	r.register("kavehother", "09125550001")
}
