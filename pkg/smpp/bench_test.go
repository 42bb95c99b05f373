package smpp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// benchSubmits pipelines b.N submits over one bind to the in-process test
// SMSC (which shares the CPU: its decode, encode and receipts are included);
// timed feeds every submit_sm_resp time to a Prometheus histogram, as the
// gateway does with its metrics on.
func benchSubmits(b *testing.B, receipts, timed bool) {
	srv := newTestSMSC(b, smscOptions{receipts: receipts})
	var delivered atomic.Int64
	cfg := testConfig(srv.addr(), func(context.Context, Deliver) error {
		delivered.Add(1)
		return nil
	})
	cfg.Window = 1000
	if timed {
		cfg.SubmitResponse = benchHistogram()
	}
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
func BenchmarkPipelinedSubmit(b *testing.B) { benchSubmits(b, false, false) }

// BenchmarkPipelinedSubmitTimed is BenchmarkPipelinedSubmit with every
// submit_sm_resp timed into a histogram (the gateway's metrics on).
func BenchmarkPipelinedSubmitTimed(b *testing.B) { benchSubmits(b, false, true) }

// BenchmarkPipelinedSubmitWithReceipts adds one deliver_sm receipt per
// submit, handled and acknowledged.
func BenchmarkPipelinedSubmitWithReceipts(b *testing.B) { benchSubmits(b, true, false) }

// benchHistogram is a child of a histogram vector like the gateway's.
func benchHistogram() prometheus.Observer {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "submit_response_seconds",
		Buckets: prometheus.DefBuckets}, []string{"operator", "bind"}).WithLabelValues("mci", "mci#1")
}

// BenchmarkSubmitResponseTiming is what the gateway's metrics add to each
// submit_sm_resp on its own: reading the clock and one histogram observation.
func BenchmarkSubmitResponseTiming(b *testing.B) {
	o := benchHistogram()
	deadline := time.Now().Add(DefaultResponseTimeout)
	b.ReportAllocs()
	for b.Loop() {
		o.Observe((time.Since(deadline) + DefaultResponseTimeout).Seconds())
	}
}
