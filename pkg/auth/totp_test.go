package auth

import (
	"encoding/base32"
	"strings"
	"testing"
	"time"
)

// The RFC 6238 appendix B vector (SHA-1, secret "12345678901234567890") at 6 digits.
func TestTOTPCodeRFC6238(t *testing.T) {
	secret := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte("12345678901234567890"))
	now := time.Unix(1111111111, 0)
	code, err := TOTPCode(secret, now)
	if err != nil {
		t.Fatal(err)
	}
	if code != "050471" {
		t.Fatalf("6-digit code %s", code)
	}
	for _, d := range []time.Duration{-30 * time.Second, 0, 29 * time.Second} {
		if !verifyTOTP(secret, code, now.Add(d)) {
			t.Errorf("code rejected at drift %v", d)
		}
	}
	if verifyTOTP(secret, code, now.Add(90*time.Second)) {
		t.Error("code accepted three steps later")
	}
	if verifyTOTP(secret, "12345", now) || verifyTOTP("!!", code, now) {
		t.Error("malformed input accepted")
	}
}

func TestNewTOTPKeyAndQR(t *testing.T) {
	k, err := newTOTPKey("alice")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.URL(), "otpauth://totp/Chapar:alice?") || len(k.Secret()) != 32 {
		t.Fatalf("key %s / %s", k.URL(), k.Secret())
	}
	url, err := qrDataURL(k)
	if err != nil || !strings.HasPrefix(url, "data:image/png;base64,iVBOR") {
		t.Fatalf("qr %.40s %v", url, err)
	}
}
