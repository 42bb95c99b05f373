package httpapi

import (
	"bytes"
	"io"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/apikey"
)

// callLog records the requests made with an API key in the API-call log
// (pkg/apicall): the first bytes of both bodies, redacted, handed to the
// recorder's buffer after the answer. Session requests pass untouched.
func callLog(rec *apicall.Recorder) gin.HandlerFunc {
	return func(c *gin.Context) {
		if rec == nil || !apikey.Looks(bearer(c)) {
			c.Next()
			return
		}
		start := time.Now()
		req := &headBuffer{}
		if c.Request.Body != nil {
			c.Request.Body = teeBody{ReadCloser: c.Request.Body, head: req}
		}
		resp := &capturingWriter{ResponseWriter: c.Writer}
		c.Writer = resp
		c.Next()
		id, ok := identity(c)
		if !ok {
			return // refused before the key was known: no account to log it under
		}
		rec.Record(apicall.Call{AccountID: id.AccountID, APIKeyID: id.APIKeyID, Method: c.Request.Method,
			Path: c.Request.URL.Path, Query: apicall.Redact(c.Request.URL.RawQuery), IP: c.ClientIP(),
			Status: c.Writer.Status(), Latency: time.Since(start), ReqBody: apicall.Redact(apicall.Truncate(req.Bytes())),
			RespBody: apicall.Redact(apicall.Truncate(resp.head.Bytes())), RequestID: c.GetString(ctxRequestID), At: start})
	}
}

// headBuffer keeps the first apicall.MaxBody+1 bytes written to it.
type headBuffer struct{ bytes.Buffer }

func (h *headBuffer) keep(p []byte) {
	if room := apicall.MaxBody + 1 - h.Len(); room > 0 {
		h.Write(p[:min(room, len(p))])
	}
}

// teeBody copies what the handler reads of the request body into head.
type teeBody struct {
	io.ReadCloser
	head *headBuffer
}

func (t teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.head.keep(p[:n])
	return n, err
}

// capturingWriter copies the head of the response body.
type capturingWriter struct {
	gin.ResponseWriter
	head headBuffer
}

func (w *capturingWriter) Write(p []byte) (int, error) {
	w.head.keep(p)
	return w.ResponseWriter.Write(p)
}

func (w *capturingWriter) WriteString(s string) (int, error) {
	w.head.keep([]byte(s))
	return w.ResponseWriter.WriteString(s)
}
