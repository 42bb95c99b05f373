package chapar

import (
	"errors"
	"fmt"
	"time"
)

// Error is an error answer of the API: the HTTP status and the envelope's meta —
// its Persian message, stable code (message_code) and per-field messages.
type Error struct {
	Status  int                 // HTTP status
	Code    string              // meta.message_code: "422", "low-credit", "403-8", "local-id-taken", …
	Message string              // meta.message, in Persian
	Fields  map[string][]string // meta.errors
	// RetryAfter is the answer's Retry-After (zero when it had none).
	RetryAfter time.Duration
}

// Error is the Persian message with its status and code.
func (e *Error) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("chapar: %d %s: %s", e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("chapar: %d: %s", e.Status, e.Message)
}

// ErrNetwork wraps every failure to reach the API (after the retries).
var ErrNetwork = errors.New("chapar: network error")

// AsError returns the API error in err's chain, if there is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// retryable reports whether a failed attempt may be tried again: network errors,
// 5xx, 429 and a request with the same Idempotency-Key still running.
func retryable(err error) bool {
	if errors.Is(err, ErrNetwork) {
		return true
	}
	e, ok := AsError(err)
	return ok && (e.Status >= 500 || e.Status == 429 || e.Code == "idempotency-key-busy")
}
