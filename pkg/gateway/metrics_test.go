package gateway

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/pkg/metrics"
)

// checkBatchMetrics checks the gateway's metrics after one batch of n
// one-part recipients on bind mci#1 (window 50) that the carrier throttled
// (TestThrottledResubmitted): the bind up and held, every part accepted, the
// throttles, one submit_sm_resp timing per response, the recipients sent.
func checkBatchMetrics(t *testing.T, reg *prometheus.Registry, g *Gateway, n int) {
	t.Helper()
	bind := map[string]string{"operator": "mci", "bind": "mci#1"}
	outcome := func(o string) map[string]string {
		return map[string]string{"operator": "mci", "bind": "mci#1", "outcome": o}
	}
	throttled := bindStats(g).Throttled
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"chapar_smpp_bind_up", bind, 1},
		{"chapar_smpp_bind_held", bind, 1},
		{"chapar_smpp_window_size", bind, 50},
		{"chapar_smpp_submits_total", outcome("accepted"), float64(n)},
		{"chapar_smpp_submits_total", outcome("throttled"), float64(throttled)},
		{"chapar_smpp_submits_total", outcome("unknown"), 0},
		{"chapar_gateway_recipients_total", map[string]string{"outcome": "sent"}, float64(n)},
		{"chapar_gateway_parts_total", map[string]string{"outcome": "retried"}, float64(g.Status().Batches.PartsRetried)},
		{"chapar_gateway_batches_total", nil, 1},
	} {
		got, err := metrics.Value(reg, c.name, c.labels)
		if err != nil || got != c.want {
			t.Errorf("%s%v = %v (%v), want %v", c.name, c.labels, got, err, c.want)
		}
	}
	m, err := metrics.Find(reg, "chapar_smpp_submit_response_seconds", bind)
	if err != nil {
		t.Fatal(err)
	}
	h := m.GetHistogram()
	if got, want := h.GetSampleCount(), uint64(n)+uint64(throttled); got != want || h.GetSampleSum() <= 0 {
		t.Errorf("submit_sm_resp histogram: %d responses timed (sum %v s), want %d", got, h.GetSampleSum(), want)
	}
}
