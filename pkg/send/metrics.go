package send

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/chapar/chapar/pkg/metrics"
)

// sendMetrics are the send engine's Prometheus metrics (docs/metrics.md).
type sendMetrics struct {
	expansions, expandedRecipients prometheus.Counter
	expandTime                     prometheus.Histogram
}

// newSendMetrics makes the metrics on reg (nil: not registered).
func newSendMetrics(reg prometheus.Registerer) *sendMetrics {
	f := promauto.With(reg)
	return &sendMetrics{
		expansions: f.NewCounter(prometheus.CounterOpts{Name: "chapar_send_expansions_total",
			Help: "Sends expanded into recipients (send:expand tasks that walked the recipients)."}),
		expandedRecipients: f.NewCounter(prometheus.CounterOpts{Name: "chapar_send_expanded_recipients_total",
			Help: "Recipients queued for the gateways by expansions."}),
		expandTime: f.NewHistogram(prometheus.HistogramOpts{Name: "chapar_send_expand_seconds",
			Help:    "Time one expansion took, its transaction included.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}),
	}
}

// expanded counts one expansion that queued n recipients in d.
func (m *sendMetrics) expanded(d time.Duration, n int) {
	m.expansions.Inc()
	m.expandedRecipients.Add(float64(n))
	m.expandTime.Observe(d.Seconds())
}

// Instrument registers the send engine's metrics on reg: expansions (counted
// by the worker that runs them) and the money held by sends not yet settled,
// read at scrape time. Call it once, before the service is used.
func (s *Service) Instrument(reg prometheus.Registerer) {
	s.metrics = newSendMetrics(reg)
	metrics.ReadGauges(reg, s.holds,
		prometheus.NewDesc("chapar_wallet_holds",
			"Sends holding money: accepted (a hold placed on the wallet) and not yet expanded, which settles the hold to the exact cost.", nil, nil),
		prometheus.NewDesc("chapar_wallet_held_rials", "The rials those holds keep from their wallets.", nil, nil))
}

// holds counts the sends holding money and the rials they hold (index sends_holding).
func (s *Service) holds(ctx context.Context) ([]float64, error) {
	var n, rials int64
	err := s.pool.QueryRow(ctx, `SELECT count(*), coalesce(sum(quote), 0)::bigint FROM sends
		WHERE expanded_at IS NULL AND finished_at IS NULL`).Scan(&n, &rials)
	if err != nil {
		return nil, fmt.Errorf("wallet holds: %w", err)
	}
	return []float64{float64(n), float64(rials)}, nil
}
