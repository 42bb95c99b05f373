package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
)

// newToken returns a random URL-safe token with 256 bits of entropy.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashToken is how tokens are stored and looked up: only their SHA-256.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// newCode returns a random numeric code of n digits.
func newCode(n int) (string, error) {
	max := big.NewInt(1)
	for range n {
		max.Mul(max, big.NewInt(10))
	}
	v, err := rand.Int(rand.Reader, max)
	if err != nil {
		return "", fmt.Errorf("random code: %w", err)
	}
	return fmt.Sprintf("%0*d", n, v), nil
}

// hashCode keys the code's hash with the server secret, so a stolen table cannot be
// brute-forced offline over the small code space.
func (s *Service) hashCode(challengeToken []byte, code string) []byte {
	m := hmac.New(sha256.New, []byte(s.cfg.TokenSecret))
	m.Write(challengeToken)
	m.Write([]byte{0})
	m.Write([]byte(code))
	return m.Sum(nil)
}

func hmacEqual(a, b []byte) bool { return hmac.Equal(a, b) }
