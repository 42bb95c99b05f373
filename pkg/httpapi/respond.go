package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Meta is the envelope's metadata (api-contract.md).
type Meta struct {
	Status      int                 `json:"status"`
	Message     string              `json:"message"`
	MessageCode string              `json:"message_code"`
	Errors      map[string][]string `json:"errors"`
	Page        int                 `json:"page,omitempty"`
	Limit       int                 `json:"limit,omitempty"`
	Total       *int64              `json:"total,omitempty"`
}

// Envelope is the shape of every response.
type Envelope struct {
	Data any  `json:"data"`
	Meta Meta `json:"meta"`
}

// Page describes one page of a list.
type Page struct {
	Page  int
	Limit int
	Total int64
}

// OK answers 200 with data.
func OK(c *gin.Context, data any) { write(c, http.StatusOK, data, Meta{}) }

// Created answers 201 with data.
func Created(c *gin.Context, data any) { write(c, http.StatusCreated, data, Meta{}) }

// Paged answers 200 with rows and paging metadata.
func Paged(c *gin.Context, rows any, p Page) {
	total := p.Total
	write(c, http.StatusOK, rows, Meta{Page: p.Page, Limit: p.Limit, Total: &total})
}

func write(c *gin.Context, status int, data any, m Meta) {
	m.Status = status
	if m.Errors == nil {
		m.Errors = map[string][]string{}
	}
	if m.Message == "" && status < 300 {
		m.Message = "عملیات با موفقیت انجام شد"
	}
	c.JSON(status, Envelope{Data: data, Meta: m})
}

// Fail maps any error to its status and envelope. It is the only place that does so.
func Fail(c *gin.Context, err error) {
	status, m := mapError(err)
	if status >= 500 {
		slog.ErrorContext(c.Request.Context(), "request failed", "err", err, "request_id", c.GetString(ctxRequestID))
	}
	if e, ok := apperr.As(err); ok && e.RetryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	c.Abort()
	write(c, status, nil, m)
}

func mapError(err error) (int, Meta) {
	var ve *validate.Error
	if errors.As(err, &ve) {
		return http.StatusUnprocessableEntity, Meta{Message: ve.Message, MessageCode: apperr.CodeValidation,
			Errors: map[string][]string{ve.Field: {ve.Message}}}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, Meta{Message: apperr.MsgSendError, MessageCode: "503"}
	}
	e, ok := apperr.As(err)
	if !ok || e.Kind == apperr.Internal {
		return http.StatusInternalServerError, Meta{Message: apperr.MsgSendError, MessageCode: "500"}
	}
	status := map[apperr.Kind]int{
		apperr.Invalid:         http.StatusUnprocessableEntity,
		apperr.Unauthorized:    http.StatusUnauthorized,
		apperr.Forbidden:       http.StatusForbidden,
		apperr.NotFound:        http.StatusNotFound,
		apperr.Conflict:        http.StatusConflict,
		apperr.TooLarge:        http.StatusRequestEntityTooLarge,
		apperr.RateLimited:     http.StatusTooManyRequests,
		apperr.PaymentRequired: http.StatusPaymentRequired,
	}[e.Kind]
	code := e.Code
	if code == "" {
		code = strconv.Itoa(status)
	}
	return status, Meta{Message: e.Message, MessageCode: code, Errors: e.Fields}
}

// bind decodes the JSON body into dst, answering 422 itself when it cannot.
func bind(c *gin.Context, dst any) bool {
	if err := c.ShouldBindJSON(dst); err != nil {
		Fail(c, apperr.New(apperr.Invalid, "اطلاعات ارسال شده معتبر نیست").WithCode("invalid-json"))
		return false
	}
	return true
}
