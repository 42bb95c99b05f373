package webhook

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/chapar/chapar/pkg/metrics"
)

// newAttempts is the counter of delivery attempts by result (docs/metrics.md).
func newAttempts(reg prometheus.Registerer) *prometheus.CounterVec {
	c := promauto.With(reg).NewCounterVec(prometheus.CounterOpts{Name: "chapar_webhook_deliveries_total",
		Help: "Webhook delivery attempts, by result: delivered (2xx), retry (failed, tried again later), dead (failed past the retry window: dead-lettered)."},
		[]string{"result"})
	for _, r := range []string{"delivered", "retry", "dead"} {
		c.WithLabelValues(r)
	}
	return c
}

// Instrument registers the deliverer's metrics on reg: its attempts, and the
// outbox's backlog read at scrape time (the fleet's, the same on every worker).
// Call it once, before Run.
func (d *Deliverer) Instrument(reg prometheus.Registerer) {
	d.attempts = newAttempts(reg)
	metrics.ReadGauges(reg, d.backlog,
		prometheus.NewDesc("chapar_webhook_backlog_events", "Webhook events written to the outbox and not yet taken into a delivery.", nil, nil),
		prometheus.NewDesc("chapar_webhook_pending_deliveries", "Webhook deliveries waiting for their first or next attempt.", nil, nil))
}

// backlog counts the unbatched events and the pending deliveries (both through
// their partial indexes).
func (d *Deliverer) backlog(ctx context.Context) ([]float64, error) {
	var events, pending int64
	err := d.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM webhook_events WHERE delivery_id IS NULL),
		(SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')`).Scan(&events, &pending)
	if err != nil {
		return nil, fmt.Errorf("webhook backlog: %w", err)
	}
	return []float64{float64(events), float64(pending)}, nil
}
