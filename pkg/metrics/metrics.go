// Package metrics serves a process's Prometheus metrics (docs/metrics.md). Each
// process (api, worker, smpp-gateway) builds one registry (NewRegistry: the Go
// runtime and process collectors) and hands it to its components, which define
// their own metrics on it in the domain package that owns the event (promauto.With
// on the registry passed in; a nil registry leaves them unregistered, as in unit
// tests). Nothing uses the client library's global registry. Start serves the
// registry at /metrics on METRICS_ADDR.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// Namespace starts every metric name of Chapar's own (chapar_…).
const Namespace = "chapar"

// NewRegistry is a process's registry, holding the Go runtime and process
// collectors (go_…, process_…).
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Start listens on addr and serves g at /metrics until ctx ends. A listen
// error (the port is taken) is returned at once, so a process does not start
// with its metrics silently off.
func Start(ctx context.Context, addr string, g prometheus.Gatherer, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: listen %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{ErrorLog: errorLog{log},
		ErrorHandling: promhttp.ContinueOnError, Timeout: 10 * time.Second}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "addr", addr, "err", err)
		}
	}()
	log.Info("metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
	return nil
}

// errorLog routes promhttp's gathering errors (a collector that failed) to slog.
type errorLog struct{ log *slog.Logger }

// Println logs a gathering error.
func (e errorLog) Println(v ...any) { e.log.Warn("metrics: " + fmt.Sprint(v...)) }

// ScrapeTimeout bounds what a collector reads at scrape time (a query, a Redis
// call): a slow database leaves that metric out of one scrape rather than
// holding the scrape.
const ScrapeTimeout = 5 * time.Second

// ReadGauges registers on reg gauges without labels that read (a query, a
// Redis call) returns together at every scrape, one value per desc, in order.
// A failed read leaves them out of that scrape (the error is logged by the
// /metrics handler); the rest of the scrape is served.
func ReadGauges(reg prometheus.Registerer, read func(context.Context) ([]float64, error), descs ...*prometheus.Desc) {
	reg.MustRegister(&gaugeReader{read: read, descs: descs})
}

type gaugeReader struct {
	read  func(context.Context) ([]float64, error)
	descs []*prometheus.Desc
}

// Describe sends the gauges' descriptors.
func (g *gaugeReader) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range g.descs {
		ch <- d
	}
}

// Collect reads the gauges.
func (g *gaugeReader) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), ScrapeTimeout)
	defer cancel()
	vs, err := g.read(ctx)
	if err == nil && len(vs) != len(g.descs) {
		err = fmt.Errorf("read %d values for %d gauges", len(vs), len(g.descs))
	}
	for i, d := range g.descs {
		if err != nil {
			ch <- prometheus.NewInvalidMetric(d, err)
			continue
		}
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, vs[i])
	}
}

// Find is the series of the metric name whose labels include labels, from g
// (tests read their registry with it).
func Find(g prometheus.Gatherer, name string, labels map[string]string) (*dto.Metric, error) {
	fams, err := g.Gather()
	if err != nil {
		return nil, err
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if hasLabels(m, labels) {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("metrics: no %s%v", name, labels)
}

// Value is the value of a counter or gauge Find finds.
func Value(g prometheus.Gatherer, name string, labels map[string]string) (float64, error) {
	m, err := Find(g, name, labels)
	if err != nil {
		return 0, err
	}
	if c := m.GetCounter(); c != nil {
		return c.GetValue(), nil
	}
	return m.GetGauge().GetValue(), nil
}

// hasLabels reports whether m carries every label of want.
func hasLabels(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
			n++
		}
	}
	return n == len(want)
}
