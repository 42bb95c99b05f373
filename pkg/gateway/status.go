package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/periodic"
)

// Status is the body of GET /status.
type Status struct {
	Instance  string           `json:"instance"`
	StartedAt time.Time        `json:"started_at"`
	Stopping  bool             `json:"stopping"`
	Queues    map[string]int   `json:"queues"`
	Binds     []BindStatus     `json:"binds"`
	Batches   Counters         `json:"batches"`
	Recorder  RecorderCounters `json:"recorder"`
	Inbound   InboundCounters  `json:"inbound"`
}

// Heartbeat is the JSON stored under jobs.GatewayHeartbeat+instance every
// two seconds with a ten-second expiry; the API's /readyz looks for a bind
// with Bound set.
type Heartbeat struct {
	Instance string          `json:"instance"`
	Binds    []HeartbeatBind `json:"binds"`
	At       time.Time       `json:"at"`
}

// HeartbeatBind is one bind in a Heartbeat.
type HeartbeatBind struct {
	Operator string `json:"operator"`
	State    string `json:"state"`
	Bound    bool   `json:"bound"`
}

// Status returns the current status report.
func (g *Gateway) Status() Status {
	return Status{
		Instance:  g.cfg.InstanceID,
		StartedAt: g.started,
		Stopping:  g.handler.stoppingNow(),
		Queues:    g.Queues(),
		Binds:     g.binds.status(),
		Batches:   g.handler.stats.snapshot(),
		Recorder:  g.handler.rec.snapshot(),
		Inbound: InboundCounters{
			Receipts: g.inbound.receipts.Load(),
			MO:       g.inbound.mo.Load(),
			Dropped:  g.inbound.dropped.Load(),
			Failed:   g.inbound.failed.Load(),
		},
	}
}

func (g *Gateway) httpHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, g.Status())
	})
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func (g *Gateway) heartbeat() Heartbeat {
	hb := Heartbeat{Instance: g.cfg.InstanceID, At: time.Now().UTC()}
	for _, b := range g.binds.status() {
		hb.Binds = append(hb.Binds, HeartbeatBind{Operator: b.Operator, State: b.State, Bound: b.Bound})
	}
	return hb
}

func (g *Gateway) heartbeatLoop(ctx context.Context) {
	key := jobs.GatewayHeartbeat + g.cfg.InstanceID
	beat := func(ctx context.Context) {
		b, err := json.Marshal(g.heartbeat())
		if err != nil {
			g.log.Error("gateway: encode heartbeat", "err", err)
			return
		}
		sctx, cancel := context.WithTimeout(ctx, heartbeatEvery)
		defer cancel()
		if err := g.deps.Redis.Set(sctx, key, b, heartbeatTTL).Err(); err != nil && ctx.Err() == nil {
			g.log.Warn("gateway: heartbeat", "err", err)
		}
	}
	periodic.Every(ctx, 0, heartbeatEvery, func(ctx context.Context) {
		beat(ctx)
		g.recoverJournals(ctx)
	})
}
