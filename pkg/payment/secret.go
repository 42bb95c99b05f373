package payment

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// sealPrefix marks a value sealed with sealer (version 1: AES-256-GCM).
const sealPrefix = "v1:"

// sealer encrypts the gateways' merchant and terminal ids at rest with a key
// derived from the server's secret (TOKEN_SECRET).
type sealer struct{ aead cipher.AEAD }

func newSealer(secret string) sealer {
	key := sha256.Sum256([]byte("chapar payment gateway secrets\x00" + secret))
	block, err := aes.NewCipher(key[:])
	if err != nil { // a 32-byte key never fails
		panic(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return sealer{aead: aead}
}

// seal encrypts plain; the empty string stays empty.
func (s sealer) seal(plain string) (string, error) {
	if plain == "" {
		return "", nil
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, []byte(plain), []byte("payment_gateway"))
	return sealPrefix + base64.RawStdEncoding.EncodeToString(out), nil
}

// errSealed is a sealed value that does not open (a changed TOKEN_SECRET).
var errSealed = errors.New("payment: stored gateway secret does not open with this TOKEN_SECRET")

// open decrypts a sealed value; the empty string stays empty.
func (s sealer) open(sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(sealed, sealPrefix))
	n := s.aead.NonceSize()
	if err != nil || !strings.HasPrefix(sealed, sealPrefix) || len(raw) < n {
		return "", errSealed
	}
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte("payment_gateway"))
	if err != nil {
		return "", errSealed
	}
	return string(plain), nil
}

// Mask shows a secret's last four characters only («••••••••1234»), none of one
// shorter than eight; the empty string stays empty.
func Mask(v string) string {
	n := utf8.RuneCountInString(v)
	if n == 0 {
		return ""
	}
	if n < 8 {
		return strings.Repeat("•", n)
	}
	r := []rune(v)
	return strings.Repeat("•", min(n-4, 8)) + string(r[n-4:])
}
