package auth

import (
	"encoding/base32"
	"testing"
	"time"
)

// RFC 6238 appendix B vectors (SHA-1, 8 digits, secret "12345678901234567890").
func TestHOTPRFC6238Vectors(t *testing.T) {
	key := []byte("12345678901234567890")
	cases := []struct {
		unix int64
		want string
	}{
		{59, "94287082"}, {1111111109, "07081804"}, {1111111111, "14050471"},
		{1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
	}
	for _, c := range cases {
		if got := hotp(key, uint64(c.unix)/30, 8); got != c.want {
			t.Errorf("t=%d: got %s want %s", c.unix, got, c.want)
		}
	}
}

func TestVerifyTOTPWindow(t *testing.T) {
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
