package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/metrics"
)

// The request metrics are labelled by the route's template, never the raw path
// (two ids are one series), and a path no route matches is "unmatched"; an
// open websocket is counted.
func TestRequestMetricsByRouteTemplate(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("metricsowner", "Secret@123", "09121110101")
	token := e.Login("metricsowner", "Secret@123")
	for _, id := range []string{"8801", "8802"} {
		e.Must(http.StatusNotFound, "GET", "/v1/api/acl/partner/show_role/"+id, nil, token)
	}
	e.Must(http.StatusNotFound, "GET", "/v1/api/no-such-route", nil, token)

	route := "/v1/api/acl/partner/show_role/:id"
	if n, err := metrics.Value(e.Metrics, "chapar_http_requests_total",
		map[string]string{"method": "GET", "route": route, "code": "404"}); err != nil || n != 2 {
		t.Fatalf("requests of %s: %v (%v), want 2", route, n, err)
	}
	if n, err := metrics.Value(e.Metrics, "chapar_http_requests_total",
		map[string]string{"method": "GET", "route": "unmatched", "code": "404"}); err != nil || n != 1 {
		t.Fatalf("unmatched requests: %v (%v), want 1", n, err)
	}
	h, err := metrics.Find(e.Metrics, "chapar_http_request_duration_seconds", map[string]string{"method": "GET", "route": route})
	if err != nil || h.GetHistogram().GetSampleCount() != 2 {
		t.Fatalf("duration of %s: %v (%v), want 2 samples", route, h, err)
	}
	fams, err := e.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "8801") || strings.Contains(l.GetValue(), "no-such-route") {
					t.Errorf("%s has a raw path in its labels: %v", f.GetName(), m.GetLabel())
				}
			}
		}
	}

	e.Socket(token)
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := metrics.Value(e.Metrics, "chapar_live_connections", nil)
		if err == nil && n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("websockets counted: %v (%v), want 1", n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
