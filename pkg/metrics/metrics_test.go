package metrics

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// Start serves the registry in the text format at /metrics; a gauge whose read
// fails is left out of the scrape while the rest is served; a taken port is an
// error at once.
func TestStartServesTheRegistry(t *testing.T) {
	reg := NewRegistry()
	ReadGauges(reg, func(context.Context) ([]float64, error) { return []float64{3, 7}, nil },
		prometheus.NewDesc("chapar_test_a", "a", nil, nil), prometheus.NewDesc("chapar_test_b", "b", nil, nil))
	ReadGauges(reg, func(context.Context) ([]float64, error) { return nil, errors.New("database gone") },
		prometheus.NewDesc("chapar_test_broken", "broken", nil, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	if err := Start(ctx, addr, reg, log); err != nil {
		t.Fatal(err)
	}
	if err := Start(ctx, addr, reg, log); err == nil {
		t.Fatal("a second listener on the same port started")
	}
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	text := string(body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, text)
	}
	for _, want := range []string{"\nchapar_test_a 3\n", "\nchapar_test_b 7\n", "# TYPE go_goroutines gauge", "process_cpu_seconds_total"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "chapar_test_broken") {
		t.Errorf("the failed gauge was served:\n%s", text)
	}
}
