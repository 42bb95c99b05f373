package auth

import (
	"context"
	"strings"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// TwoStepStatus describes a user's second-step setting.
type TwoStepStatus struct {
	Enabled    bool     `json:"enabled"`
	Method     string   `json:"method"`
	AppEnabled bool     `json:"app_enabled"`
	Methods    []string `json:"methods"`
}

// QR is the authenticator-app enrolment payload: the secret (typed by hand), its
// otpauth:// URL and the QR code as a PNG data: URL.
type QR struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
	Image      string `json:"qr_image"`
}

// TwoStep returns the caller's second-step setting.
func (s *Service) TwoStep(ctx context.Context, id acl.Identity) (TwoStepStatus, error) {
	u, err := s.accounts.ByID(ctx, id.UserID)
	if err != nil {
		return TwoStepStatus{}, err
	}
	return TwoStepStatus{Enabled: u.TwoStep, Method: u.TwoStepMethod, AppEnabled: u.TOTPSecret != "",
		Methods: []string{"sms", "voice", "app"}}, nil
}

// ShowQR starts (or restarts) authenticator enrolment: a new pending secret and the
// otpauth:// payload for the QR code.
func (s *Service) ShowQR(ctx context.Context, id acl.Identity) (QR, error) {
	u, err := s.accounts.ByID(ctx, id.UserID)
	if err != nil {
		return QR{}, err
	}
	k, err := newTOTPKey(u.Username)
	if err != nil {
		return QR{}, err
	}
	img, err := qrDataURL(k)
	if err != nil {
		return QR{}, err
	}
	if err := s.accounts.SetTwoStepPending(ctx, u.ID, k.Secret()); err != nil {
		return QR{}, err
	}
	return QR{Secret: k.Secret(), OTPAuthURL: k.URL(), Image: img}, nil
}

// EnableTwoStep turns the second step on with a method. The app method needs a code
// from the authenticator enrolled by ShowQR.
func (s *Service) EnableTwoStep(ctx context.Context, id acl.Identity, method, code string) error {
	u, err := s.accounts.ByID(ctx, id.UserID)
	if err != nil {
		return err
	}
	switch method {
	case "sms", "voice":
		return s.accounts.SetTwoStep(ctx, u.ID, true, method, "")
	case "app":
		code = strings.TrimSpace(validate.ToLatinDigits(code))
		secret := u.TOTPPending
		if secret == "" {
			secret = u.TOTPSecret
		}
		if secret == "" || !verifyTOTP(secret, code, s.now()) {
			return apperr.Field("code", MsgOTPWrong)
		}
		return s.accounts.SetTwoStep(ctx, u.ID, true, "app", secret)
	default:
		return apperr.Field("method", MsgMethod)
	}
}

// DisableTwoStep turns the second step off after checking the password.
// Colleagues keep it: two-step login applies to every member (spec §6).
func (s *Service) DisableTwoStep(ctx context.Context, id acl.Identity, pw string) error {
	if !id.IsOwner {
		return apperr.New(apperr.Forbidden, MsgTwoStepRequired).WithCode(CodeTwoStepRequired)
	}
	u, err := s.checkPassword(ctx, id, "password", pw)
	if err != nil {
		return err
	}
	return s.accounts.SetTwoStep(ctx, u.ID, false, u.TwoStepMethod, "")
}
