package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apicall"
	"github.com/chapar/chapar/pkg/apikey"
)

// callLog records the requests made with an API key in the API-call log
// (pkg/apicall): the first bytes of both bodies are handed to the recorder's
// buffer after the answer (the recorder redacts them off the request's path).
// Session requests pass untouched.
func callLog(rec *apicall.Recorder) gin.HandlerFunc {
	return func(c *gin.Context) {
		if rec == nil || !apikey.Looks(bearer(c)) {
			c.Next()
			return
		}
		start := time.Now()
		var req []byte
		if c.Request.Body != nil && c.Request.ContentLength != 0 { // 0: no body; -1: chunked
			req = peekBody(c.Request)
		}
		resp := writers.Get().(*capturingWriter)
		resp.ResponseWriter = c.Writer
		c.Writer = resp
		c.Next()
		c.Writer = resp.ResponseWriter
		head := apicall.Truncate(resp.head.b) // a copy: the buffer goes back to the pool
		resp.ResponseWriter, resp.head.b = nil, resp.head.b[:0]
		writers.Put(resp)
		id, ok := identity(c)
		if !ok {
			return // refused before the key was known: no account to log it under
		}
		rec.Record(apicall.Call{AccountID: id.AccountID, APIKeyID: id.APIKeyID, Method: c.Request.Method,
			Path: c.Request.URL.Path, Query: c.Request.URL.RawQuery, IP: c.ClientIP(),
			Status: c.Writer.Status(), Latency: time.Since(start), ReqBody: apicall.Truncate(req),
			RespBody: head, RequestID: c.GetString(ctxRequestID), At: start})
	}
}

// writers recycles the capturing writers and their head buffers: a logged call
// allocates only the string of its answer's head.
var writers = sync.Pool{New: func() any { return &capturingWriter{head: headBuffer{b: make([]byte, 0, 512)}} }}

// headBuffer keeps the first apicall.MaxBody+1 bytes written to it (in a
// pooled buffer that grows to at most that).
type headBuffer struct{ b []byte }

func (h *headBuffer) keep(p []byte) {
	if room := apicall.MaxBody + 1 - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
}

// peekBody reads the first apicall.MaxBody+1 bytes of the request body (read
// here, so that a refused call's body is logged too) and puts them back in front
// of the rest for the handler.
func peekBody(r *http.Request) []byte {
	head := make([]byte, apicall.MaxBody+1)
	n, err := io.ReadFull(r.Body, head)
	head = head[:n]
	rest := io.Reader(r.Body)
	if err != nil { // all of it (or a read error, which the handler will see again)
		rest = errReader{err}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			rest = eofReader{}
		}
	}
	r.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(head), rest), Closer: r.Body}
	return head
}

type readCloser struct {
	io.Reader
	io.Closer
}

type errReader struct{ err error }

// Read returns no bytes and the read error met while peeking the body.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type eofReader struct{}

// Read returns io.EOF: the peeked head held the whole body.
func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// capturingWriter copies the head of the response body.
type capturingWriter struct {
	gin.ResponseWriter
	head headBuffer
}

// Write keeps the head of p for the call log and writes p to the response.
func (w *capturingWriter) Write(p []byte) (int, error) {
	w.head.keep(p)
	return w.ResponseWriter.Write(p)
}

// WriteString keeps the head of s for the call log and writes s to the response.
func (w *capturingWriter) WriteString(s string) (int, error) {
	w.head.keep([]byte(s))
	return w.ResponseWriter.WriteString(s)
}
