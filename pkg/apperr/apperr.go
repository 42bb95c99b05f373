// Package apperr defines the domain error type shared by every service.
//
// Services return *apperr.Error (or wrap one); pkg/httpapi maps it to an HTTP
// status and the response envelope in exactly one place. Messages are Persian,
// from the spec §8 catalogue and the glossary.
package apperr

import (
	"errors"
	"fmt"
)

// Kind classifies an error; each kind maps to one HTTP status.
type Kind int

// The kinds of domain errors.
const (
	Internal Kind = iota
	Invalid
	Unauthorized
	Forbidden
	NotFound
	Conflict
	TooLarge
	RateLimited
	PaymentRequired
	// Unavailable: a service the request needs does not answer now (503).
	Unavailable
)

// Persian messages of the catalogue (spec §8, docs/glossary-fa.md).
const (
	MsgSendError     = "خطا در ارسال اطلاعات"
	MsgReceiveError  = "خطا در دریافت اطلاعات"
	MsgForbidden     = "دسترسی شما محدود است؛ برای افزایش سطح دسترسی با مدیر خود هماهنگ کنید"
	MsgUnauthorized  = "لطفا دوباره وارد شوید"
	MsgNotFound      = "موردی یافت نشد"
	MsgRateLimited   = "تعداد درخواست‌ها بیش از حد مجاز است؛ لطفا کمی بعد دوباره تلاش کنید"
	MsgInvalid       = "اطلاعات وارد شده معتبر نیست"
	MsgMethod        = "این روش درخواست پشتیبانی نمی‌شود"
	MsgTooLarge      = "حجم درخواست بیش از حد مجاز است"
	MsgLowCredit     = "اعتبار کیف پول کافی نیست"
	CodeForbidden    = "403-8"
	CodeRateLimited  = "429"
	CodeValidation   = "422"
	CodeUnauthorized = "401"
)

// Error is a domain error with a Persian message and optional per-field errors.
type Error struct {
	Kind    Kind
	Message string
	Code    string              // stable message_code, e.g. "403-8", "otp-timeout"
	Fields  map[string][]string // per-field Persian messages
	Err     error               // the cause, never shown to the user
	// RetryAfter, for RateLimited, is the number of seconds until a retry may succeed.
	RetryAfter int
	// Data, when set, is the envelope's data of the error (e.g. the next time a
	// refused send may go).
	Data any
}

// Error returns the message, with the field errors and the cause when present.
func (e *Error) Error() string {
	msg := e.Message
	if len(e.Fields) > 0 {
		msg = fmt.Sprintf("%s %v", msg, e.Fields)
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// New builds an error of a kind with a message.
func New(k Kind, msg string) *Error { return &Error{Kind: k, Message: msg} }

// WithCode sets the message code and returns the error.
func (e *Error) WithCode(code string) *Error { e.Code = code; return e }

// Field returns a 422 error with one per-field message.
func Field(field, msg string) *Error {
	return &Error{Kind: Invalid, Message: msg, Fields: map[string][]string{field: {msg}}}
}

// Fields collects per-field validation messages; Err returns nil when empty.
type Fields map[string][]string

// Add appends a message for a field.
func (f Fields) Add(field, msg string) { f[field] = append(f[field], msg) }

// Err returns a 422 *Error holding the fields, or nil.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	var first string
	for _, v := range f {
		first = v[0]
		break
	}
	if len(f) > 1 {
		first = MsgInvalid
	}
	return &Error{Kind: Invalid, Message: first, Fields: f}
}

// Common errors.
var (
	ErrUnauthorized = New(Unauthorized, MsgUnauthorized)
	ErrForbidden    = New(Forbidden, MsgForbidden).WithCode(CodeForbidden)
	ErrNotFound     = New(NotFound, MsgNotFound)
	// ErrTooLarge refuses a request body past its route's limit.
	ErrTooLarge = New(TooLarge, MsgTooLarge)
)

// RateLimit returns a 429 error with a retry hint.
func RateLimit(retryAfter int) *Error {
	return &Error{Kind: RateLimited, Message: MsgRateLimited, Code: CodeRateLimited, RetryAfter: retryAfter}
}
