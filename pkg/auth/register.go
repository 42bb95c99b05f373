package auth

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Registration is the answer to a sign-up: the user exists but cannot log in until the
// code texted to the mobile is confirmed with VerifyToken.
type Registration struct {
	ID                   int64  `json:"id"`
	Username             string `json:"username"`
	VerificationRequired bool   `json:"verification_required"`
	VerifyToken          string `json:"verify_token"`
	ResendAfter          int    `json:"resend_after"`
}

// Register signs up an account owner (at most RegisterPerIPPerHour per address) and
// texts a code to the mobile. The mobile is not a login target until VerifyRegistration.
func (s *Service) Register(ctx context.Context, in account.RegisterInput, c Client) (Registration, error) {
	key := "register:ip:" + c.IP
	if ok, retry, err := s.limit.Peek(ctx, key, s.cfg.RegisterPerIPPerHour); err != nil || !ok {
		return Registration{}, signupLimited(retry, err)
	}
	if mobile, ok := validate.NormalizeMobile(in.Mobile); ok {
		if ok, retry, err := s.limit.Peek(ctx, "otp:number:"+mobile, s.cfg.OTPPerNumberPerDay); err != nil || !ok {
			return Registration{}, numberCapped(retry, err)
		}
	}
	in.MobileVerified = false
	u, err := s.accounts.Register(ctx, in, c.IP)
	if err != nil {
		return Registration{}, err
	}
	if _, _, err := s.limit.Hit(ctx, key, time.Hour); err != nil {
		return Registration{}, err
	}
	ch, err := s.startChallenge(ctx, u, "register", "sms", false, c)
	if err != nil {
		return Registration{}, err
	}
	return Registration{ID: u.ID, Username: u.Username, VerificationRequired: true, VerifyToken: ch.token,
		ResendAfter: int(s.cfg.OTPResendAfter.Seconds())}, nil
}

// VerifyRegistration confirms the registration's code: the mobile is proven and a
// session opens, with the browser's device token.
func (s *Service) VerifyRegistration(ctx context.Context, token, code string, c Client) (Opened, error) {
	ch, err := s.verify(ctx, token, code, c, "register")
	if err != nil {
		return Opened{}, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return s.accounts.MarkMobileVerified(ctx, tx, ch.userID) })
	if err != nil {
		return Opened{}, err
	}
	u, err := s.accounts.ByID(ctx, ch.userID)
	if err != nil {
		return Opened{}, err
	}
	return s.openSession(ctx, u, c, "account.mobile_verified")
}

// UsernameTaken answers the sign-up form's availability check, at most
// CheckExistPerIPPerMin per address per minute (and twenty times that per day).
func (s *Service) UsernameTaken(ctx context.Context, username string, c Client) (bool, error) {
	if err := s.allow(ctx, "check:ip:"+c.IP, s.cfg.CheckExistPerIPPerMin); err != nil {
		return false, err
	}
	ok, retry, err := s.limit.Allow(ctx, "check:day:ip:"+c.IP, s.cfg.CheckExistPerIPPerMin*20, 24*time.Hour)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return s.accounts.UsernameExists(ctx, username)
}

func signupLimited(retry time.Duration, err error) error {
	if err != nil {
		return err
	}
	return limited(retry, "signup-limit", MsgSignupLimit)
}

func numberCapped(retry time.Duration, err error) error {
	if err != nil {
		return err
	}
	return limited(retry, CodeNumberCap, MsgNumberCap)
}

// limited is a 429 with its own code and message.
func limited(retry time.Duration, code, msg string) error {
	e := apperr.RateLimit(int(retry.Seconds()) + 1).WithCode(code)
	e.Message = msg
	return e
}
