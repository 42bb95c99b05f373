package inbound

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/metrics"
	"github.com/chapar/chapar/pkg/send"
)

// inboundMetrics are the consumer's Prometheus metrics (docs/metrics.md), made
// on Consumer.Metrics the first time the consumer needs them.
type inboundMetrics struct {
	entries     *prometheus.CounterVec
	receipts    *prometheus.CounterVec
	latency     prometheus.Histogram
	quarantined prometheus.Counter
}

// receiptLatencyBuckets run from an SMSC that answers at once to a handset
// that was off for hours.
var receiptLatencyBuckets = []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600}

// newInboundMetrics makes the metrics on reg (nil: not registered); the backlog
// gauge reads the stream's length from rdb at scrape time.
func newInboundMetrics(reg prometheus.Registerer, rdb redis.UniversalClient) *inboundMetrics {
	f := promauto.With(reg)
	m := &inboundMetrics{
		entries: f.NewCounterVec(prometheus.CounterOpts{Name: "chapar_inbound_entries_total",
			Help: "Inbound stream entries applied, by kind: receipt, mo."}, []string{"kind"}),
		receipts: f.NewCounterVec(prometheus.CounterOpts{Name: "chapar_receipts_total",
			Help: "Delivery receipts applied, by result: matched (its message id was recorded), pending (it overtook its " +
				"submit_sm_resp: it waits in pending_receipts), late (a pending one matched later)."}, []string{"result"}),
		latency: f.NewHistogram(prometheus.HistogramOpts{Name: "chapar_receipt_latency_seconds",
			Help:    "Time from a part's submit_sm_resp (its message id recorded) to its final receipt reaching the gateway.",
			Buckets: receiptLatencyBuckets}),
		quarantined: f.NewCounter(prometheus.CounterOpts{Name: "chapar_inbound_quarantined_total",
			Help: "Inbound stream entries (receipts, MO parts) quarantined as unusable."}),
	}
	if reg != nil {
		metrics.ReadGauges(reg, func(ctx context.Context) ([]float64, error) {
			n, err := rdb.XLen(ctx, jobs.InboundStream).Result()
			return []float64{float64(n)}, err
		}, prometheus.NewDesc("chapar_inbound_backlog",
			"Entries in the inbound stream not yet applied (receipts and MO parts the gateways stored).", nil, nil))
	}
	for _, kind := range []string{"receipt", "mo"} {
		m.entries.WithLabelValues(kind)
	}
	for _, r := range []string{"matched", "pending", "late"} {
		m.receipts.WithLabelValues(r)
	}
	return m
}

// applied counts what one receipt batch did; late says it was the pending
// receipts' retry.
func (m *inboundMetrics) applied(a send.Applied, late bool) {
	if late {
		m.receipts.WithLabelValues("late").Add(float64(a.Matched))
	} else {
		m.receipts.WithLabelValues("matched").Add(float64(a.Matched))
		m.receipts.WithLabelValues("pending").Add(float64(a.Pending))
	}
	for _, d := range a.Waited {
		m.latency.Observe(d.Seconds())
	}
}
