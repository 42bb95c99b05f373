package chapar

import (
	"crypto/hmac"
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

// DefaultTolerance is how far a webhook's timestamp may be from the clock.
const DefaultTolerance = 5 * time.Minute

// SignWebhook is the X-Chapar-Signature value of body sent at ts (Unix seconds):
// "v1=" and the hex HMAC-SHA256 under secret of "<ts>.<body>".
func SignWebhook(secret string, ts int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(ts, 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

// VerifyWebhook checks a received POST on its raw body: one of the signature's
// comma-separated values matches (in constant time) and the timestamp header is
// within tolerance of now.
func VerifyWebhook(secret, timestamp, signature string, body []byte, now time.Time, tolerance time.Duration) bool {
	sec, err := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return false
	}
	want := []byte(SignWebhook(secret, sec, body))
	for _, s := range strings.Split(signature, ",") {
		if hmac.Equal([]byte(strings.TrimSpace(s)), want) {
			return true
		}
	}
	return false
}
