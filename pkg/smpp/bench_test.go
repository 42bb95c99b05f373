package smpp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// benchSubmits pipelines b.N submits over one bind to the in-process test
// SMSC (which shares the CPU: its decode, encode and receipts are included).
func benchSubmits(b *testing.B, receipts bool) {
	srv := newTestSMSC(b, smscOptions{receipts: receipts})
	var delivered atomic.Int64
	cfg := testConfig(srv.addr(), func(context.Context, Deliver) error {
		delivered.Add(1)
		return nil
	})
	cfg.Window = 1000
	c := startClient(b, cfg)
	msgs := make([]*SubmitSM, 1000)
	for i := range msgs {
		msgs[i] = testMsg(i)
	}
	var failed, pending atomic.Int64
	done := make(chan struct{})
	cb := func(_ string, err error) {
		if err != nil {
			failed.Add(1)
		}
		if pending.Add(-1) == 0 {
			close(done)
		}
	}
	pending.Store(int64(b.N))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		if err := c.SubmitAsync(ctx, msgs[i%len(msgs)], cb); err != nil {
			b.Fatal(err)
		}
	}
	<-done
	if receipts {
		for delivered.Load() < int64(b.N) {
			time.Sleep(100 * time.Microsecond)
		}
	}
	el := time.Since(start)
	b.StopTimer()
	if failed.Load() != 0 {
		b.Fatalf("%d submits failed", failed.Load())
	}
	b.ReportMetric(float64(b.N)/el.Seconds(), "submits/s")
}

// BenchmarkPipelinedSubmit measures submit_sm → submit_sm_resp throughput.
func BenchmarkPipelinedSubmit(b *testing.B) { benchSubmits(b, false) }

// BenchmarkPipelinedSubmitWithReceipts adds one deliver_sm receipt per
// submit, handled and acknowledged.
func BenchmarkPipelinedSubmitWithReceipts(b *testing.B) { benchSubmits(b, true) }
