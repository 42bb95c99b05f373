package gateway

import (
	"cmp"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/chapar/chapar/pkg/smpp"
)

// The gateway's Prometheus metrics (docs/metrics.md). Its binds, submits,
// batches and inbound figures are read at scrape time from the counters GET
// /status shows, so nothing is added to the submit path but the submit_sm →
// submit_sm_resp histogram, which pkg/smpp feeds from its read loop.

// submitRespBuckets span a carrier on the same LAN (a millisecond) to one about
// to time out (the 10 s default).
var submitRespBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// newSubmitResp is the submit_sm_resp histogram, one series per bind.
func newSubmitResp(reg prometheus.Registerer) *prometheus.HistogramVec {
	return promauto.With(reg).NewHistogramVec(prometheus.HistogramOpts{
		Name:    "chapar_smpp_submit_response_seconds",
		Help:    "Time from a submit_sm being queued for the wire to its submit_sm_resp, per bind.",
		Buckets: submitRespBuckets,
	}, []string{"operator", "bind"})
}

// bindCounts keeps a bind's smpp counters across the clients it opens and
// closes (a bind lease lost and won again): what the closed ones counted,
// plus the one closing now and the one open.
type bindCounts struct {
	mu      sync.Mutex
	retired smpp.Stats
	closing *smpp.Client
}

// total is the bind's cumulative counters, open is its current client.
func (c *bindCounts) total(open *smpp.Client) smpp.Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.retired
	if c.closing != nil && c.closing != open {
		addStats(&t, c.closing.Stats())
	}
	if open != nil {
		addStats(&t, open.Stats())
	}
	return t
}

// addStats adds the cumulative counters of s to t (not the gauges).
func addStats(t *smpp.Stats, s smpp.Stats) {
	t.Submitted += s.Submitted
	t.Accepted += s.Accepted
	t.Rejected += s.Rejected
	t.Throttled += s.Throttled
	t.Unknown += s.Unknown
	t.DeliversReceived += s.DeliversReceived
	t.DeliversAcked += s.DeliversAcked
	t.DeliversNacked += s.DeliversNacked
	t.DeliversOverflow += s.DeliversOverflow
	t.Binds += s.Binds
	t.Reconnects += s.Reconnects
}

// collector reads a gateway's figures at scrape time.
type collector struct{ g *Gateway }

var (
	bindLabels   = []string{"operator", "bind"}
	descBindUp   = prometheus.NewDesc("chapar_smpp_bind_up", "1 while the bind is bound (throttled included), else 0.", bindLabels, nil)
	descBindThr  = prometheus.NewDesc("chapar_smpp_bind_throttled", "1 while the bind pauses after ESME_RTHROTTLED, else 0.", bindLabels, nil)
	descBindHeld = prometheus.NewDesc("chapar_smpp_bind_held",
		"1 while this gateway holds the bind (always, or while it holds the bind's lease), else 0.", bindLabels, nil)
	descSubmits = prometheus.NewDesc("chapar_smpp_submits_total",
		"submit_sm answered or given up, by outcome: accepted, rejected, throttled (ESME_RTHROTTLED), unknown (no response in time or the connection lost).",
		append(bindLabels, "outcome"), nil)
	descWindowUsed = prometheus.NewDesc("chapar_smpp_window_in_use", "submit_sm in flight (awaiting a response).", bindLabels, nil)
	descWindow     = prometheus.NewDesc("chapar_smpp_window_size", "The bind's window: submit_sm allowed in flight.", bindLabels, nil)
	descRate       = prometheus.NewDesc("chapar_smpp_bind_rate_limit", "The bind's adaptive submit_sm/s limit now (0: not limited).", bindLabels, nil)
	descDelivers   = prometheus.NewDesc("chapar_smpp_delivers_total",
		"deliver_sm (receipts and MO) answered, by result: acked (stored), nacked (not stored: the SMSC sends it again), overflow (refused, the queue was full).",
		append(bindLabels, "result"), nil)
	descReconnects = prometheus.NewDesc("chapar_smpp_reconnects_total", "Successful binds after the bind's first.", bindLabels, nil)
	descRecipients = prometheus.NewDesc("chapar_gateway_recipients_total",
		"Recipients the gateway finished, by outcome: sent, unknown (a part's outcome unknown), rejected, stopped.", []string{"outcome"}, nil)
	descParts = prometheus.NewDesc("chapar_gateway_parts_total",
		"Message parts the gateway finished, by outcome: accepted, unknown, rejected; retried counts resubmits after throttling.", []string{"outcome"}, nil)
	descBatches = prometheus.NewDesc("chapar_gateway_batches_total", "Batch tasks the gateway handled.", nil, nil)
	descInbound = prometheus.NewDesc("chapar_gateway_inbound_total",
		"deliver_sm the gateway read, by kind: receipt and mo (stored in the inbound stream), dropped (a receipt without a message id), failed (not stored, asked again).",
		[]string{"kind"}, nil)
	descRecorderFailed = prometheus.NewDesc("chapar_gateway_recorder_failed_total", "Outcome transactions that failed (and were retried).", nil, nil)
)

// Describe sends the descriptors of every metric the collector makes.
func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descBindUp, descBindThr, descBindHeld, descSubmits, descWindowUsed, descWindow,
		descRate, descDelivers, descReconnects, descRecipients, descParts, descBatches, descInbound, descRecorderFailed} {
		ch <- d
	}
}

// Collect reads the gateway's counters.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	for _, b := range c.g.binds.all {
		collectBind(ch, b)
	}
	counter := prometheus.CounterValue
	st := c.g.handler.stats.snapshot()
	for outcome, v := range map[string]int64{"sent": st.RecipientsSent, "unknown": st.RecipientsUnknown,
		"rejected": st.RecipientsReject, "stopped": st.RecipientsStopped} {
		ch <- prometheus.MustNewConstMetric(descRecipients, counter, float64(v), outcome)
	}
	for outcome, v := range map[string]int64{"accepted": st.PartsAccepted, "unknown": st.PartsUnknown,
		"rejected": st.PartsRejected, "retried": st.PartsRetried} {
		ch <- prometheus.MustNewConstMetric(descParts, counter, float64(v), outcome)
	}
	ch <- prometheus.MustNewConstMetric(descBatches, counter, float64(st.Batches))
	in := &c.g.inbound
	for kind, v := range map[string]int64{"receipt": in.receipts.Load(), "mo": in.mo.Load(), "dropped": in.dropped.Load(),
		"failed": in.failed.Load()} {
		ch <- prometheus.MustNewConstMetric(descInbound, counter, float64(v), kind)
	}
	ch <- prometheus.MustNewConstMetric(descRecorderFailed, counter, float64(c.g.handler.rec.nFailed.Load()))
}

// collectBind sends one bind's figures.
func collectBind(ch chan<- prometheus.Metric, b *bind) {
	gauge, counter := prometheus.GaugeValue, prometheus.CounterValue
	open := b.client.Load()
	now := b.stats()
	t := b.counts.total(open)
	op, name := b.cfg.Operator, b.name
	bound := now.State == smpp.StateBound || now.State == smpp.StateThrottled
	ch <- prometheus.MustNewConstMetric(descBindUp, gauge, flag(bound), op, name)
	ch <- prometheus.MustNewConstMetric(descBindThr, gauge, flag(now.State == smpp.StateThrottled), op, name)
	ch <- prometheus.MustNewConstMetric(descBindHeld, gauge, flag(open != nil), op, name)
	for outcome, v := range map[string]int64{"accepted": t.Accepted, "rejected": t.Rejected, "throttled": t.Throttled, "unknown": t.Unknown} {
		ch <- prometheus.MustNewConstMetric(descSubmits, counter, float64(v), op, name, outcome)
	}
	ch <- prometheus.MustNewConstMetric(descWindowUsed, gauge, float64(now.InFlight), op, name)
	ch <- prometheus.MustNewConstMetric(descWindow, gauge, float64(cmp.Or(b.cfg.Window, smpp.DefaultWindow)), op, name)
	ch <- prometheus.MustNewConstMetric(descRate, gauge, b.pace.stats().Rate, op, name)
	for result, v := range map[string]int64{"acked": t.DeliversAcked, "nacked": t.DeliversNacked, "overflow": t.DeliversOverflow} {
		ch <- prometheus.MustNewConstMetric(descDelivers, counter, float64(v), op, name, result)
	}
	ch <- prometheus.MustNewConstMetric(descReconnects, counter, float64(t.Reconnects), op, name)
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
