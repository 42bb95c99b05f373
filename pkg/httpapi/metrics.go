package httpapi

import (
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// httpMetrics are the API's request metrics (docs/metrics.md), labelled by the
// route's template (c.FullPath(): /v1/api/send/:id, never the raw path, so the
// label set stays bounded), the method and the status.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// unmatchedRoute labels requests no route matched (the panel's pages, 404s).
const unmatchedRoute = "unmatched"

// newHTTPMetrics makes the metrics on reg (nil: not registered).
func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	f := promauto.With(reg)
	return &httpMetrics{
		requests: f.NewCounterVec(prometheus.CounterOpts{Name: "chapar_http_requests_total",
			Help: "API requests answered, by method, route template and status code."}, []string{"method", "route", "code"}),
		duration: f.NewHistogramVec(prometheus.HistogramOpts{Name: "chapar_http_request_duration_seconds",
			Help:    "Time to answer an API request, by method and route template (a websocket counts until it closes).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"method", "route"}),
	}
}

// middleware counts and times every request.
func (m *httpMetrics) middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = unmatchedRoute
		}
		method := c.Request.Method
		m.requests.WithLabelValues(method, route, strconv.Itoa(c.Writer.Status())).Inc()
		m.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
	}
}
