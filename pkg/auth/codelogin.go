package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian texts of the login with a one-time code.
const (
	MsgCodeLoginSent      = "اگر این نام کاربری یا شماره همراه در چاپار ثبت شده باشد و ورود با رمز یکبار مصرف برای آن باز باشد، رمز به شماره همراه حساب پیامک شد"
	MsgIdentifierRequired = "نام کاربری یا شماره همراه را وارد کنید"
	// MsgNoticeCodeLoginTwoStep tells a two-step account's owner why no code came.
	MsgNoticeCodeLoginTwoStep = "چاپار: درخواست ورود با رمز یکبار مصرف به حساب شما رسید. چون ورود دومرحله‌ای حساب شما روشن است، این روش برایتان بسته است و رمزی فرستاده نشد؛ با نام کاربری و رمز عبور وارد شوید."
	// MsgNoticeCodeLoginShared tells the holder of a number several users share why no code came.
	MsgNoticeCodeLoginShared = "چاپار: این شماره همراه در بیش از یک حساب ثبت شده است، پس ورود با شماره ممکن نیست و رمزی فرستاده نشد؛ برای ورود با رمز یکبار مصرف، نام کاربری خود را وارد کنید."
)

// seqCodeLoginNotice numbers the why-no-code notice in the verification task ids.
const seqCodeLoginNotice = -3

// CodeLogin is the answer to a code-login request: the same fields and values for every
// name, registered or not, fit for code login or not, and no digit of any mobile.
type CodeLogin struct {
	OTPRequired bool     `json:"otp_required"`
	LoginToken  string   `json:"login_token"`
	Methods     []string `json:"methods"`
	Method      string   `json:"method"`
	ResendAfter int      `json:"resend_after"`
	Message     string   `json:"message"`
}

// LoginByCode starts a login with a one-time code in place of the password. name is a
// username or a mobile (09…, +98…, Persian digits). A customer fit for it (codeLoginClosed)
// is texted a six-digit code, confirmed by ConfirmLogin and resent (by SMS or voice) by
// Resend; any other name gets a decoy challenge that answers alike and sends nothing,
// and the owner of a two-step account or of a shared number is told why (at most once
// an hour). The name's login lock-out and the address's limits apply as to a password.
func (s *Service) LoginByCode(ctx context.Context, name string, c Client) (CodeLogin, error) {
	typed, mobile := codeName(name)
	if typed == "" {
		return CodeLogin{}, apperr.Field("username", MsgIdentifierRequired)
	}
	subject := typed
	if mobile != "" {
		subject = mobile
	}
	u, shared, err := s.codeTarget(ctx, typed, mobile)
	if err != nil {
		return CodeLogin{}, err
	}
	trusted, err := s.deviceTrusted(ctx, c.Device, u.ID)
	if err != nil {
		return CodeLogin{}, err
	}
	if err := s.loginGate(ctx, subject, trusted, c); err != nil {
		return CodeLogin{}, err
	}
	if err := s.allow(ctx, budgetKey("otp:send:subject:", subject, trusted), s.cfg.OTPSendPerMin); err != nil {
		return CodeLogin{}, err
	}
	ch, err := s.startCodeLogin(ctx, subject, u, shared, trusted, c)
	if err != nil {
		return CodeLogin{}, err
	}
	return CodeLogin{OTPRequired: true, LoginToken: ch.token, Methods: []string{"sms", "voice"}, Method: "sms",
		ResendAfter: int(s.cfg.OTPResendAfter.Seconds()), Message: MsgCodeLoginSent}, nil
}

// codeName is what a code login was asked for: the name trimmed and lower-cased with
// Latin digits, and its mobile (98…) when it reads as one.
func codeName(raw string) (typed, mobile string) {
	typed = strings.ToLower(validate.NormalizeDigits(raw))
	if m, ok := validate.NormalizeMobile(typed); ok {
		mobile = m
	}
	return typed, mobile
}

// codeTarget finds whom a code login is for. A mobile names the one customer user
// (never staff or deactivated) who proved it; when several did, nobody, and shared is
// one of them, to be told to use the username. A mobile nobody proved, or any other
// name, is looked up as a username.
func (s *Service) codeTarget(ctx context.Context, typed, mobile string) (u, shared account.User, err error) {
	if mobile != "" {
		users, err := s.accounts.ByVerifiedMobile(ctx, mobile)
		if err != nil {
			return u, shared, err
		}
		switch {
		case len(users) == 1:
			return users[0], shared, nil
		case len(users) > 1:
			return u, users[0], nil
		}
	}
	u, err = s.accounts.ByUsername(ctx, typed)
	if errors.Is(err, apperr.ErrNotFound) {
		err = nil
	}
	return u, shared, err
}

// codeLoginClosed says why a user may not log in with a code alone, "" when they may.
// Staff never do; nor a user whose mobile is unproven, nor a deactivated one; nor a
// user with two-step login on, for whom a texted code would replace the password and
// the authenticator app. A suspended account's owner gets the code and, once it is
// confirmed, the suspension notice, as after a right password.
func codeLoginClosed(u account.User) string {
	switch {
	case u.ID == 0:
		return "unknown"
	case u.IsStaff:
		return "staff"
	case !u.MobileVerified || u.Mobile == "":
		return "unverified"
	case u.Status == "disabled":
		return "disabled"
	case u.TwoStep:
		return "two-step"
	}
	return ""
}

// startCodeLogin texts a code to a user fit for code login, from the trusted budget of
// the number when trusted. Anyone else, and a fit user whose number had its day's
// codes, gets a decoy challenge that sends nothing.
func (s *Service) startCodeLogin(ctx context.Context, subject string, u, shared account.User, trusted bool, c Client) (challenge, error) {
	if codeLoginClosed(u) == "" {
		ch, err := s.startFor(ctx, u, challenge{userID: u.ID, purpose: "login_code", method: "sms", subject: subject,
			trusted: trusted}, c)
		if e, ok := apperr.As(err); !ok || e.Code != CodeNumberCap {
			return ch, err
		}
	}
	ch, err := s.insertChallenge(ctx, challenge{purpose: "login_code", method: "sms", subject: subject}, "", c)
	if err != nil {
		return ch, err
	}
	return ch, s.tellWhyNoCode(ctx, u, shared, ch, c)
}

// tellWhyNoCode texts, at most once an hour per number, the owner of a two-step account
// (also recorded in their audit log) or the holder of a shared number why no code came.
func (s *Service) tellWhyNoCode(ctx context.Context, u, shared account.User, ch challenge, c Client) error {
	var text string
	switch {
	case shared.ID != 0:
		u, text = shared, MsgNoticeCodeLoginShared
	case codeLoginClosed(u) == "two-step":
		text = MsgNoticeCodeLoginTwoStep
	default:
		return nil
	}
	ok, _, err := s.limit.Allow(ctx, "otp:notice:"+u.Mobile, 1, time.Hour)
	if err != nil || !ok {
		return err
	}
	if shared.ID == 0 {
		e := audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: audit.AuthLoginCodeShut, IP: c.IP}
		if err := audit.Record(ctx, s.pool, e); err != nil {
			return err
		}
	}
	return s.notify(ctx, u, ch.id, seqCodeLoginNotice, text)
}
