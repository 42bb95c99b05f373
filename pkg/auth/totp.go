package auth

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTP follows RFC 6238 with the parameters every authenticator app supports:
// HMAC-SHA1, 6 digits, a 30-second step, and one step of clock drift either way.
// github.com/pquerna/otp computes and checks the codes and draws the QR code.
const (
	totpIssuer = "Chapar"
	totpStep   = 30
	totpSkew   = 1
	qrSize     = 240
)

var totpOpts = totp.ValidateOpts{Period: totpStep, Skew: totpSkew, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// newTOTPKey returns a new authenticator key (a random 160-bit secret) for account.
func newTOTPKey(account string) (*otp.Key, error) {
	k, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: account, Period: totpStep,
		SecretSize: 20, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, fmt.Errorf("totp key: %w", err)
	}
	return k, nil
}

// TOTPCode returns the authenticator code for time t (RFC 6238, 6 digits, 30 s).
func TOTPCode(secret string, t time.Time) (string, error) {
	code, err := totp.GenerateCodeCustom(strings.ToUpper(strings.TrimSpace(secret)), t, totpOpts)
	if err != nil {
		return "", fmt.Errorf("totp code: %w", err)
	}
	return code, nil
}

// verifyTOTP checks code against the steps around t.
func verifyTOTP(secret, code string, t time.Time) bool {
	ok, err := totp.ValidateCustom(code, strings.ToUpper(strings.TrimSpace(secret)), t, totpOpts)
	return err == nil && ok
}

// qrDataURL draws the key's otpauth:// payload as a PNG QR code, as a data: URL the
// panel shows in an <img> (no third-party QR service sees the secret).
func qrDataURL(k *otp.Key) (string, error) {
	img, err := k.Image(qrSize, qrSize)
	if err != nil {
		return "", fmt.Errorf("qr image: %w", err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", fmt.Errorf("qr png: %w", err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes()), nil
}
