package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Headers of a webhook POST.
const (
	HeaderTimestamp = "X-Chapar-Timestamp"
	HeaderSignature = "X-Chapar-Signature"
	HeaderDelivery  = "X-Chapar-Delivery"
)

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// newSecret makes a signing secret: 32 random bytes in hex.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return SecretPrefix + hex.EncodeToString(b)
}

// Sign is the X-Chapar-Signature value of body sent at ts: "v1=" and the hex
// HMAC-SHA256 under secret of "<unix seconds>.<body>".
func Sign(secret string, ts time.Time, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a received POST the way a receiver should: the signature
// matches (in constant time) and the timestamp is within tolerance of now.
func Verify(secret, timestamp, signature string, body []byte, now time.Time, tolerance time.Duration) bool {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	ts := time.Unix(sec, 0)
	if d := now.Sub(ts); d > tolerance || d < -tolerance {
		return false
	}
	want := Sign(secret, ts, body)
	for _, s := range strings.Split(signature, ",") {
		if hmac.Equal([]byte(strings.TrimSpace(s)), []byte(want)) {
			return true
		}
	}
	return false
}
