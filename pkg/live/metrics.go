package live

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// hubMetrics are the hub's Prometheus metrics (docs/metrics.md).
type hubMetrics struct {
	opened, sent, dropped prometheus.Counter
}

// newHubMetrics makes the counters on reg (nil: not registered).
func newHubMetrics(reg prometheus.Registerer) hubMetrics {
	f := promauto.With(reg)
	return hubMetrics{
		opened: f.NewCounter(prometheus.CounterOpts{Name: "chapar_live_connections_opened_total",
			Help: "Websockets this API instance accepted."}),
		sent: f.NewCounter(prometheus.CounterOpts{Name: "chapar_live_events_total",
			Help: "Live events handed to websockets (one per socket that may read it)."}),
		dropped: f.NewCounter(prometheus.CounterOpts{Name: "chapar_live_slow_drops_total",
			Help: "Websockets closed for reading their events too slowly."}),
	}
}

// Instrument registers the hub's metrics on reg: its counters, and the open
// websockets read at scrape time. Call it once, before Run.
func (h *Hub) Instrument(reg prometheus.Registerer) {
	h.metrics = newHubMetrics(reg)
	promauto.With(reg).NewGaugeFunc(prometheus.GaugeOpts{Name: "chapar_live_connections",
		Help: "Websockets open on this API instance."}, func() float64 { return float64(h.connections()) })
}

// connections counts the open sockets of every account.
func (h *Hub) connections() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	n := 0
	for _, set := range h.clients {
		n += len(set)
	}
	return n
}
