// Package apicall owns the API-call log (docs/webhooks.md, "API-call log"): every
// request made with an API key (method, path, key, IP, status, latency and the
// first bytes of the request and response bodies with secrets redacted), written
// asynchronously in batches so that the API hardly notices (Recorder), listed,
// searched and exported for the account, and purged after Retention.
package apicall

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Retention is how long a call is kept.
const Retention = 30 * 24 * time.Hour

// MaxBody is how many bytes of each body are kept.
const MaxBody = 4096

// Call is one logged request. Query and the bodies are redacted when written.
type Call struct {
	AccountID int64
	APIKeyID  int64
	Method    string
	Path      string
	Query     string
	IP        string
	Status    int
	Latency   time.Duration
	ReqBody   string
	RespBody  string
	RequestID string
	At        time.Time
}

// Recorder writes calls in batches: Record never blocks (a call that finds the
// buffer full is dropped and counted), Run redacts the query and bodies (off the
// request's path) and copies batches into api_calls.
type Recorder struct {
	pool    *pgxpool.Pool
	ch      chan Call
	log     *slog.Logger
	dropped atomic.Int64
	// Every is the longest a call waits in the buffer (250 ms).
	Every time.Duration
	// Batch is the most calls one COPY writes (1000).
	Batch int
}

// NewRecorder returns a recorder with a buffer of size calls.
func NewRecorder(pool *pgxpool.Pool, size int, log *slog.Logger) *Recorder {
	return &Recorder{pool: pool, ch: make(chan Call, size), log: log, Every: 250 * time.Millisecond, Batch: 1000}
}

// Record queues a call; it never blocks.
func (r *Recorder) Record(c Call) {
	select {
	case r.ch <- c:
	default:
		r.dropped.Add(1)
	}
}

// Dropped is how many calls found the buffer full.
func (r *Recorder) Dropped() int64 { return r.dropped.Load() }

// Run writes queued calls until ctx ends, then writes what is left.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(r.Every)
	defer t.Stop()
	buf := make([]Call, 0, r.Batch)
	var reported int64
	for {
		select {
		case c := <-r.ch:
			if buf = append(buf, c); len(buf) >= r.Batch {
				buf = r.flush(context.WithoutCancel(ctx), buf)
			}
		case <-t.C:
			buf = r.flush(ctx, buf)
			if d := r.dropped.Load(); d != reported {
				r.log.WarnContext(ctx, "api-call log buffer full: calls not logged", "dropped", d-reported)
				reported = d
			}
		case <-ctx.Done():
			for {
				select {
				case c := <-r.ch:
					buf = append(buf, c)
				default:
					r.flush(context.WithoutCancel(ctx), buf)
					return
				}
			}
		}
	}
}

var copyCols = []string{"account_id", "api_key_id", "method", "path", "query", "ip", "status", "latency_us",
	"req_body", "resp_body", "request_id", "created_at"}

// flush copies buf into api_calls and returns it emptied.
func (r *Recorder) flush(ctx context.Context, buf []Call) []Call {
	if len(buf) == 0 {
		return buf
	}
	_, err := r.pool.CopyFrom(ctx, pgx.Identifier{"api_calls"}, copyCols, pgx.CopyFromSlice(len(buf), func(i int) ([]any, error) {
		c := &buf[i]
		return []any{c.AccountID, c.APIKeyID, c.Method, c.Path, Redact(c.Query), c.IP, c.Status, c.Latency.Microseconds(),
			Redact(c.ReqBody), Redact(c.RespBody), c.RequestID, c.At}, nil
	}))
	if err != nil {
		r.log.WarnContext(ctx, "api-call log batch lost", "calls", len(buf), "err", err)
	}
	return buf[:0]
}

// Purge deletes calls older than Retention, at most limit a call.
func Purge(ctx context.Context, pool *pgxpool.Pool, limit int) (int64, error) {
	tag, err := pool.Exec(ctx, `DELETE FROM api_calls WHERE id = ANY(ARRAY(
		SELECT id FROM api_calls WHERE created_at < now() - $1::interval LIMIT $2))`, Retention, limit)
	if err != nil {
		return 0, fmt.Errorf("purge api calls: %w", err)
	}
	return tag.RowsAffected(), nil
}
