package apicall

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// secretWords name the fields whose values never reach the log.
const secretWords = `(?:password|passwd|token|secret|apikey|api_key|api-key|authorization|otp)`

var (
	// "name": value in JSON, where name contains a secret word.
	jsonSecret = regexp.MustCompile(`(?i)("[^"]*` + secretWords + `[^"]*"\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)`)
	// name=value in a query string or form body.
	formSecret = regexp.MustCompile(`(?i)((?:^|[&?])[^=&]*` + secretWords + `[^=&]*=)[^&]*`)
	// API keys and webhook secrets wherever they appear.
	keyLike = regexp.MustCompile(`(chp_live_|whsec_)[A-Za-z0-9_]+`)
)

// Redacted is what replaces a secret.
const Redacted = "***"

// Redact hides secrets in a body or query string: values of fields named like
// passwords, tokens, secrets, API keys, authorization or one-time codes (JSON
// and form encodings), and anything shaped like an API key or webhook secret.
func Redact(s string) string {
	if s == "" || !mayHoldSecret(s) {
		return s
	}
	s = jsonSecret.ReplaceAllString(s, `${1}"`+Redacted+`"`)
	s = formSecret.ReplaceAllString(s, `${1}`+Redacted)
	return keyLike.ReplaceAllString(s, `${1}`+Redacted)
}

// secretHints are what a value to redact is named or starts with; a text with
// none of them is left alone without running the expressions (the common case,
// and far cheaper). All are ASCII, lower case.
var secretHints = []string{"password", "passwd", "token", "secret", "apikey", "api_key", "api-key", "authorization", "otp",
	"chp_live_", "whsec_"}

// mayHoldSecret reports whether s holds a hint in any ASCII case. It scans s once
// without copying it (a Persian answer made strings.ToLower map every rune): at
// each byte that may start a hint, the hints with that first letter are compared.
func mayHoldSecret(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i] | 0x20 // ASCII lower case; other bytes stay off the hints' first letters
		if b != 'p' && b != 't' && b != 's' && b != 'a' && b != 'o' && b != 'c' && b != 'w' {
			continue
		}
		for _, h := range secretHints {
			if h[0] == b && len(s)-i >= len(h) && asciiEqualFold(s[i:i+len(h)], h) {
				return true
			}
		}
	}
	// The Kelvin sign folds to k under (?i): "apiKey" is redacted, so look.
	return strings.Contains(s, "\u212a")
}

// asciiEqualFold compares s with the lower-case ASCII hint h, ignoring ASCII case.
func asciiEqualFold(s, h string) bool {
	for j := 0; j < len(h); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != h[j] {
			return false
		}
	}
	return true
}

// Truncate keeps at most MaxBody bytes of s, on a character boundary.
func Truncate(b []byte) string {
	if len(b) <= MaxBody {
		return string(b)
	}
	b = b[:MaxBody]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b) + "…"
}
