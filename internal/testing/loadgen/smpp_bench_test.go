package loadgen

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/smpp"
)

// target is one operator listener of the simulator.
type target struct{ op, addr string }

// simTargets reads LOADGEN_SMSC ("mci=host:port,irancell=host:port,…").
func simTargets(b *testing.B) []target {
	spec := os.Getenv("LOADGEN_SMSC")
	if spec == "" {
		b.Skip("LOADGEN_SMSC is not set (scripts/bench.sh sets it to a running simulator)")
	}
	var ts []target
	for item := range strings.SplitSeq(spec, ",") {
		op, addr, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
			b.Fatalf("LOADGEN_SMSC entry %q: want operator=127.0.0.1:port", item)
		}
		ts = append(ts, target{op, addr})
	}
	return ts
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// prefixes gives each operator's destinations a plausible prefix.
var prefixes = map[string]string{"mci": "98912", "irancell": "98935", "rightel": "98921"}

// BenchmarkSimulatorSubmit pipelines b.N submit_sm (each asking for a receipt)
// to the simulator, spread evenly over the binds, with the gateway's window
// (LOADGEN_WINDOW, default 100) per bind and no rate limit. It reports
// submits/s (until the last submit_sm_resp) and receipts/s (until the last
// receipt is parsed and acknowledged); ns/op covers both.
func BenchmarkSimulatorSubmit(b *testing.B) {
	ts := simTargets(b)
	b.Run("binds=1", func(b *testing.B) { benchSim(b, ts[:1]) })
	if len(ts) > 1 {
		b.Run(fmt.Sprintf("binds=%d", len(ts)), func(b *testing.B) { benchSim(b, ts) })
	}
}

var runSeq atomic.Int64

func benchSim(b *testing.B, ts []target) {
	window, err := strconv.Atoi(envOr("LOADGEN_WINDOW", "100"))
	if err != nil || window < 1 {
		b.Fatalf("LOADGEN_WINDOW: want a positive integer")
	}
	run := runSeq.Add(1)
	var receipts, badReceipts atomic.Int64
	handler := func(_ context.Context, d smpp.Deliver) error {
		if _, ok := smpp.ParseReceipt(d); ok {
			receipts.Add(1)
		} else {
			badReceipts.Add(1)
		}
		return nil
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	clients := make([]*smpp.Client, len(ts))
	for i, t := range ts {
		c, err := smpp.NewClient(smpp.Config{Addr: t.addr, SystemID: envOr("LOADGEN_SMSC_SYSTEM_ID", "chapar"),
			Password: envOr("LOADGEN_SMSC_PASSWORD", "secret"), Window: window, DeliverHandler: handler,
			DeliverWorkers: 16, DeliverQueue: 8192, Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer ccancel()
			_ = c.Close(cctx)
		}()
		bctx, bcancel := context.WithTimeout(ctx, 10*time.Second)
		err = c.WaitBound(bctx)
		bcancel()
		if err != nil {
			b.Fatalf("bind %s %s: %v", t.op, t.addr, err)
		}
		clients[i] = c
	}
	// Messages are built before the clock starts; the texts are unique per run
	// so the simulator's duplicate detector stays quiet.
	msgs := make([]*smpp.SubmitSM, b.N)
	for i := range msgs {
		t := ts[i%len(ts)]
		msgs[i] = &smpp.SubmitSM{Source: smpp.SenderLine("500012345"),
			Dest:         smpp.Mobile(fmt.Sprintf("%s%07d", prefixes[t.op], i%10_000_000)),
			ShortMessage: fmt.Appendf(nil, "loadgen run %d message %d", run, i)}
	}
	var failed, pending atomic.Int64
	var firstErr atomic.Value
	respDone := make(chan struct{})
	var respAt time.Time
	cb := func(_ string, err error) {
		if err != nil {
			failed.Add(1)
			firstErr.CompareAndSwap(nil, err.Error())
		}
		if pending.Add(-1) == 0 {
			respAt = time.Now()
			close(respDone)
		}
	}
	pending.Store(int64(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	// One submitter per bind, as the gateway has one per batch.
	errc := make(chan error, len(clients))
	for ci, c := range clients {
		go func() {
			for i := ci; i < b.N; i += len(clients) {
				if err := c.SubmitAsync(ctx, msgs[i], cb); err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for range clients {
		if err := <-errc; err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-respDone:
	case <-ctx.Done():
		b.Fatalf("timed out: %d submit responses outstanding", pending.Load())
	}
	want := int64(b.N) - failed.Load()
	for receipts.Load()+badReceipts.Load() < want {
		if ctx.Err() != nil {
			b.Fatalf("timed out: %d of %d receipts", receipts.Load(), want)
		}
		time.Sleep(200 * time.Microsecond)
	}
	el := time.Since(start)
	b.StopTimer()
	if n := failed.Load(); n != 0 {
		b.Fatalf("%d of %d submits failed, first: %v", n, b.N, firstErr.Load())
	}
	if n := badReceipts.Load(); n != 0 {
		b.Fatalf("%d deliver_sm were not receipts", n)
	}
	b.ReportMetric(float64(b.N)/respAt.Sub(start).Seconds(), "submits/s")
	b.ReportMetric(float64(b.N)/el.Seconds(), "receipts/s")
}
