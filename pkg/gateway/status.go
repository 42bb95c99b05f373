package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/chapar/chapar/internal/platform/periodic"
	"github.com/chapar/chapar/jobs"
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
// with Bound set, and the back office's operations page reads the binds and
// rates (pkg/operations).
type Heartbeat struct {
	Instance string          `json:"instance"`
	Binds    []HeartbeatBind `json:"binds"`
	At       time.Time       `json:"at"`
	Rates    Rates           `json:"rates"`
}

// HeartbeatBind is one bind in a Heartbeat.
type HeartbeatBind struct {
	Name     string `json:"name"` // operator#n, the same on every gateway
	Operator string `json:"operator"`
	State    string `json:"state"`
	Bound    bool   `json:"bound"`
	Held     bool   `json:"held"` // this gateway holds the bind (its lease)
}

// Rates are a gateway's figures per second since its previous heartbeat.
type Rates struct {
	Submits  float64 `json:"submits"`  // parts the carriers accepted
	Receipts float64 `json:"receipts"` // receipts stored in the inbound stream
}

// beatCounts are the counters a heartbeat's rates are taken from.
type beatCounts struct {
	at                 time.Time
	accepted, receipts int64
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

// heartbeat is the gateway's heartbeat now, its rates since the previous one
// (heartbeats are made by one goroutine, heartbeatLoop).
func (g *Gateway) heartbeat() Heartbeat {
	now := time.Now()
	hb := Heartbeat{Instance: g.cfg.InstanceID, At: now.UTC()}
	for _, b := range g.binds.status() {
		hb.Binds = append(hb.Binds, HeartbeatBind{Name: b.Name, Operator: b.Operator, State: b.State, Bound: b.Bound, Held: b.Held})
	}
	cur := beatCounts{at: now, accepted: g.handler.stats.partsAccepted.Load(), receipts: g.inbound.receipts.Load()}
	if prev := g.lastBeat; !prev.at.IsZero() {
		if secs := cur.at.Sub(prev.at).Seconds(); secs > 0 {
			hb.Rates = Rates{Submits: float64(cur.accepted-prev.accepted) / secs, Receipts: float64(cur.receipts-prev.receipts) / secs}
		}
	}
	g.lastBeat = cur
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
