package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/replay"
	"github.com/chapar/chapar/pkg/send"
)

// MsgReplayBusy answers a request sent again while the first with its key runs.
const MsgReplayBusy = "درخواستی با همین کلید یکتایی (Idempotency-Key) در حال انجام است؛ کمی بعد دوباره بفرستید"

// replayable gives the public POST routes that create (but POST /send and POST
// /patterns/send, whose key the send service keeps with the send) the
// Idempotency-Key: the first answer of a key is kept (pkg/replay) for a day and
// returned to a retry of the same request; the key with another body is refused
// (422, idempotency-key-reused).
func (s *Server) replayable(rs []Route) []Route {
	for i, rt := range rs {
		if rt.Method == http.MethodPost && rt.Path != "/send" && rt.Path != "/patterns/send" && isPublic(rt) && s.Replays != nil {
			rs[i].Handle = s.replay(rt.Handle)
		}
	}
	return rs
}

func isPublic(rt Route) bool {
	for _, p := range publicAPI {
		if p == rt.Method+" "+rt.Path {
			return true
		}
	}
	return false
}

// replay wraps one handler with the Idempotency-Key store.
func (s *Server) replay(next gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		key := c.GetHeader("Idempotency-Key")
		if key == "" {
			next(c)
			return
		}
		body, err := io.ReadAll(c.Request.Body)
		if err != nil {
			Fail(c, err)
			return
		}
		c.Request.Body = io.NopCloser(bytes.NewReader(body))
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:])
		k := "idem:" + strconv.FormatInt(who(c).AccountID, 10) + ":" + c.FullPath() + ":" + hexSum(key)
		ctx := c.Request.Context()
		held, err := s.Replays.Reserve(ctx, k, hash)
		if err != nil {
			Fail(c, err)
			return
		}
		if held != nil {
			answerReplay(c, *held, hash)
			return
		}
		w := &teeWriter{ResponseWriter: c.Writer}
		c.Writer = w
		next(c)
		if w.Status() >= 500 {
			if err := s.Replays.Forget(ctx, k); err != nil {
				slog.WarnContext(ctx, "idempotency: key not freed", "err", err)
			}
			return
		}
		if err := s.Replays.Keep(ctx, k, replay.Answer{Hash: hash, Status: w.Status(), Body: w.buf.Bytes()}); err != nil {
			slog.WarnContext(ctx, "idempotency: answer not kept", "err", err)
		}
	}
}

// answerReplay answers a request whose key was used before: busy while the first
// runs, refused with another body, else the first answer.
func answerReplay(c *gin.Context, first replay.Answer, hash string) {
	switch {
	case first.Hash != hash:
		Fail(c, apperr.New(apperr.Invalid, send.MsgIdempotencyReused).WithCode(send.CodeIdempotencyReused))
	case first.Status == 0:
		Fail(c, apperr.New(apperr.Conflict, MsgReplayBusy).WithCode("idempotency-key-busy"))
	default:
		c.Header("Idempotent-Replayed", "true")
		c.Data(first.Status, "application/json; charset=utf-8", first.Body)
	}
}

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// teeWriter keeps a copy of what the handler writes.
type teeWriter struct {
	gin.ResponseWriter
	buf bytes.Buffer
}

// Write copies b into the buffer and writes it to the response.
func (w *teeWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	return w.ResponseWriter.Write(b)
}

// WriteString copies s into the buffer and writes it to the response.
func (w *teeWriter) WriteString(s string) (int, error) {
	w.buf.WriteString(s)
	return w.ResponseWriter.WriteString(s)
}
