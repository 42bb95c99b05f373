package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/spreadsheet"
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
	// Sandbox marks every answer given to a sandbox API key (with X-Chapar-Sandbox: 1).
	Sandbox bool `json:"sandbox,omitempty"`
	// Indexing, on the contact list only, says whether the account's name search is
	// still catching up with an import (the panel shows «در حال نمایه‌سازی»).
	Indexing *bool `json:"indexing,omitempty"`
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
	// Indexing, when set, is carried as meta.indexing.
	Indexing *bool
}

// OK answers 200 with data.
func OK(c *gin.Context, data any) { write(c, http.StatusOK, data, Meta{}) }

// Created answers 201 with data.
func Created(c *gin.Context, data any) { write(c, http.StatusCreated, data, Meta{}) }

// Accepted writes a 202 envelope: the work was taken and goes on after the answer.
func Accepted(c *gin.Context, data any) { write(c, http.StatusAccepted, data, Meta{}) }

// Paged answers 200 with rows and paging metadata.
func Paged(c *gin.Context, rows any, p Page) {
	total := p.Total
	write(c, http.StatusOK, rows, Meta{Page: p.Page, Limit: p.Limit, Total: &total, Indexing: p.Indexing})
}

func write(c *gin.Context, status int, data any, m Meta) {
	m.Status = status
	if m.Errors == nil {
		m.Errors = map[string][]string{}
	}
	if m.Message == "" && status < 300 {
		m.Message = "عملیات با موفقیت انجام شد"
	}
	if c.GetBool(ctxSandbox) {
		c.Header("X-Chapar-Sandbox", "1")
		m.Sandbox = true
	}
	if plainText(c) {
		c.String(status, textLine(data, m))
		return
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
	var data any
	if e, ok := apperr.As(err); ok {
		data = e.Data
	}
	c.Abort()
	write(c, status, data, m)
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
		apperr.Unavailable:     http.StatusServiceUnavailable,
	}[e.Kind]
	code := e.Code
	if code == "" {
		code = strconv.Itoa(status)
	}
	return status, Meta{Message: e.Message, MessageCode: code, Errors: e.Fields}
}

// reply answers 200 with a service's result, or the error.
func reply(c *gin.Context, v any, err error) {
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, v)
}

// replyCreated answers 201 with a service's result, or the error.
func replyCreated(c *gin.Context, v any, err error) {
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, v)
}

// replyOnce answers a request made idempotent by its key: 201 the first time, 200
// with the first answer when it is sent again.
func replyOnce(c *gin.Context, v any, created bool, err error) {
	switch {
	case err != nil:
		Fail(c, err)
	case created:
		Created(c, v)
	default:
		OK(c, v)
	}
}

// replyDone answers an action without a result: {"done": true}, or the error.
func replyDone(c *gin.Context, err error) {
	reply(c, gin.H{"done": true}, err)
}

// deletedCount answers a delete-list call.
func deletedCount(c *gin.Context, n int, err error) { reply(c, gin.H{"deleted": n}, err) }

// pagedReply answers a page of a list, or the error.
func pagedReply(c *gin.Context, rows any, total int64, pg validate.Paging, err error) {
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: pg.Page, Limit: pg.Limit, Total: total})
}

// xlsxDownload streams the Excel file that write produces as the attachment name.
// Errors found before the first byte get the usual envelope; later ones can only cut
// the file short, and are logged.
func xlsxDownload(c *gin.Context, name string, write func(w io.Writer) error) {
	out := &attachment{c: c, name: name}
	err := write(out)
	switch {
	case err == nil:
	case !out.started:
		Fail(c, err)
	default:
		slog.ErrorContext(c.Request.Context(), "download broke off", "err", err, "path", c.Request.URL.Path,
			"request_id", c.GetString(ctxRequestID))
		c.Abort()
	}
}

// attachment is an xlsx response body that sends its download headers with the
// first byte.
type attachment struct {
	c       *gin.Context
	name    string
	started bool
}

// Write sends the download headers before the first byte, then writes p to the response.
func (a *attachment) Write(p []byte) (int, error) {
	if !a.started {
		a.started = true
		startDownload(a.c, spreadsheet.ContentType, a.name)
	}
	return a.c.Writer.Write(p)
}

// startDownload answers 200 with the headers of a file download named name.
func startDownload(c *gin.Context, contentType, name string) {
	h := c.Writer.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Cache-Control", "no-store")
	c.Status(http.StatusOK)
}
