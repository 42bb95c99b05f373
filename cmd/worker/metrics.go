package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/chapar/chapar/pkg/inbound"
)

// serveMetrics serves the worker's Prometheus metrics on addr (METRICS_ADDR, a
// loopback address such as 127.0.0.1:9464) at /metrics until ctx ends.
func serveMetrics(ctx context.Context, addr string, log *slog.Logger) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(inbound.Quarantined)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	stop := context.AfterFunc(ctx, func() { _ = srv.Close() })
	defer stop()
	log.Info("worker metrics listening", "addr", addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("worker metrics stopped", "addr", addr, "err", err)
	}
}
