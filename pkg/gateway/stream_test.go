package gateway

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/testing/testenv"
)

// An entry is acknowledged only once Redis has stored it. When Redis cannot be
// reached at all, go-redis gives the pipeline's commands no error of their own:
// the writer must still fail every entry, or the gateway would answer the
// carrier's deliver_sm and the receipt would be lost (the chaos suite's Redis
// restart lost 9% of a send's receipts this way).
func TestStreamWriterAcknowledgesOnlyStoredEntries(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: every dial is refused
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: 1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	w := newStreamWriter(rdb, "test:inbound", 0, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 3 {
		if err := w.Add(ctx, []any{FieldKind, KindReceipt, FieldMsgID, i}); err == nil {
			t.Fatalf("entry %d acknowledged with Redis down", i)
		}
	}

	// The same writer against a live Redis stores each entry before it returns.
	r := testenv.RedisDB(t)
	live := newStreamWriter(r.Client, "test:inbound", 0, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer live.Close()
	for i := range 3 {
		if err := live.Add(ctx, []any{FieldKind, KindReceipt, FieldMsgID, i}); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
	}
	if n := r.Client.XLen(ctx, "test:inbound").Val(); n != 3 {
		t.Fatalf("stream holds %d entries, want 3", n)
	}

	// Asked for a replica (REDIS_WAIT_REPLICAS=1) against a server with none:
	// Redis stores the entry, but it is not acknowledged (a failover could lose it).
	replicated := newStreamWriter(r.Client, "test:inbound", 1, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer replicated.Close()
	if err := replicated.Add(ctx, []any{FieldKind, KindReceipt, FieldMsgID, 9}); err == nil {
		t.Fatal("entry acknowledged without the replica it waits for")
	}
}

// A pipeline takes what is queued and waits streamLinger after its first entry
// for more (the same select takes those that arrive meanwhile), and goes once
// full without waiting.
func TestStreamWriterLingers(t *testing.T) {
	w := &streamWriter{reqs: make(chan *xaddReq, streamMaxBatch), quit: make(chan struct{})}
	req := func() *xaddReq { return &xaddReq{done: make(chan error, 1)} }
	for range 3 {
		w.reqs <- req()
	}
	start := time.Now()
	batch := w.fill([]*xaddReq{req()})
	if el := time.Since(start); len(batch) != 4 || el < streamLinger {
		t.Fatalf("%d entries after %s, want the 4 queued after at least %s", len(batch), el, streamLinger)
	}
	// A full pipeline goes at once, leaving the rest for the next.
	for range streamMaxBatch {
		w.reqs <- req()
	}
	if batch = w.fill([]*xaddReq{req()}); len(batch) != streamMaxBatch || len(w.reqs) != 1 {
		t.Fatalf("%d entries with %d left, want %d with 1 left", len(batch), len(w.reqs), streamMaxBatch)
	}
}
