package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Request body limits. Every route gets DefaultBodyLimit unless bodyLimits names
// another; a body past its limit is answered 413 before it is read into memory.
const (
	// DefaultBodyLimit bounds the JSON body of an ordinary route.
	DefaultBodyLimit int64 = 1 << 20
	// BulkBodyLimit bounds the routes that carry numbers in bulk. A quick send of
	// send.MaxQuickNumbers (100,000) numbers measures 1.4 MB written 09…, and 2.8 MB
	// written +98… in Persian digits (TestBulkSendBody).
	BulkBodyLimit int64 = 4 << 20
	// streamedBody marks a route that streams its body under a limit of its own
	// (uploads: upload.Service.MaxBytes).
	streamedBody int64 = -1
)

// bodyLimits names the routes whose body limit is not DefaultBodyLimit, by method
// and full route path.
var bodyLimits = map[string]int64{
	"POST /v1/api/send":                                BulkBodyLimit,
	"POST /v1/api/send/calculate-price":                BulkBodyLimit,
	"POST /v1/api/send/campaigns":                      BulkBodyLimit,
	"POST /v1/api/send/campaigns/update":               BulkBodyLimit,
	"POST /v1/api/phonebooks/numbers/add-list-new":     BulkBodyLimit,
	"POST /v1/api/phonebooks/blacklist":                BulkBodyLimit,
	"POST /v1/api/user/files":                          streamedBody,
	"POST /v1/api/payment/offline/card-to-card-create": OfflineBodyLimit,
	"POST /v1/api/payment/offline/bank-pay-create":     OfflineBodyLimit,
	"POST /v1/api/user/draft":                          BulkBodyLimit,
	"POST /v1/api/user/profile/logo":                   ProfileUploadLimit,
	"POST /v1/api/user/documents/upload":               ProfileUploadLimit,
	"POST /v1/api/admin/operator-blocklist/import":     BlocklistBodyLimit,
}

// streamRoutes are the routes whose body or answer may outlast the server's read
// and write time-outs: the upload and the downloads. They get the stream time-out.
var streamRoutes = map[string]bool{
	"POST /v1/api/user/files":                      true,
	"GET /v1/api/user/files/:id/download":          true,
	"GET /v1/api/user/files/:id/errors/download":   true,
	"GET /v1/api/user/files/samples/:purpose":      true,
	"GET /v1/api/report/download_recipients":       true,
	"GET /v1/api/phonebooks/blacklist/export":      true,
	"GET /v1/api/phonebooks/numbers/export":        true,
	"GET /v1/api/phonebooks/numbers/import/sample": true,
	"POST /v1/api/admin/operator-blocklist/import": true,
}

func routeKey(c *gin.Context) string { return c.Request.Method + " " + c.FullPath() }

// limitBody enforces the route's body limit: a declared length above it is refused
// at once, and a body that runs past it fails its read (bind answers 413).
func limitBody() gin.HandlerFunc {
	return func(c *gin.Context) {
		limit, ok := bodyLimits[routeKey(c)]
		if !ok {
			limit = DefaultBodyLimit
		}
		if limit == streamedBody {
			c.Next()
			return
		}
		if c.Request.ContentLength > limit {
			c.Header("Connection", "close")
			Fail(c, apperr.ErrTooLarge)
			return
		}
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		c.Next()
	}
}

// streamDeadlines lifts the server's time-outs on the stream routes to stream from
// now. It runs after the guard, so a request that has not authenticated keeps the
// server's short read and write time-outs (an anonymous slow upload is cut at
// HTTP_READ_TIMEOUT, not held for HTTP_STREAM_TIMEOUT).
func streamDeadlines(stream time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		if streamRoutes[routeKey(c)] && stream > 0 {
			setDeadlines(c, time.Now().Add(stream))
		}
		c.Next()
	}
}

// setDeadlines sets the connection's read and write deadlines (zero: none).
func setDeadlines(c *gin.Context, until time.Time) {
	rc := http.NewResponseController(c.Writer)
	_ = rc.SetReadDeadline(until) // not every writer supports it (tests' recorders)
	_ = rc.SetWriteDeadline(until)
}

// storedHeaders are the request headers whose text the API stores or looks up.
var storedHeaders = []string{"Authorization", "Idempotency-Key", "User-Agent"}

// cleanInput refuses with a 422 the query parameters, path parameters and stored
// headers that are not UTF-8 or hold a NUL, for every route (JSON bodies are
// checked by bind).
func cleanInput() gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := badInput(c); err != nil {
			Fail(c, err)
			return
		}
		c.Next()
	}
}

func badInput(c *gin.Context) error {
	for key, values := range c.Request.URL.Query() {
		if !validate.IsCleanText(key) {
			return validate.CleanText("query", key)
		}
		for _, v := range values {
			if err := validate.CleanText(key, v); err != nil {
				return err
			}
		}
	}
	for _, p := range c.Params {
		if err := validate.CleanText(p.Key, p.Value); err != nil {
			return err
		}
	}
	for _, h := range storedHeaders {
		if err := validate.CleanText(h, c.GetHeader(h)); err != nil {
			return err
		}
	}
	return nil
}
