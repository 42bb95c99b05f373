// Package operations is the back office's live view of the send engine (the
// operations page, docs/backoffice.md): every SMPP bind and the gateway holding
// it, the carriers' throughput, from the gateways' heartbeats in Redis, and the
// asynq queues. It reads what the processes already publish; Prometheus
// (docs/metrics.md) keeps the history.
package operations

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
)

// Service reads the overview.
type Service struct {
	rdb  redis.UniversalClient
	insp *asynq.Inspector
}

// New reads heartbeats and queues through rdb, the Redis the task queues use.
func New(rdb redis.UniversalClient) *Service {
	return &Service{rdb: rdb, insp: asynq.NewInspectorFromRedisClient(rdb)}
}

// Overview is the operations page.
type Overview struct {
	At time.Time `json:"at"`
	// Gateways is how many gateways sent a heartbeat in the last ten seconds.
	Gateways   int        `json:"gateways"`
	Throughput Throughput `json:"throughput"`
	Binds      []Bind     `json:"binds"`
	Queues     []Queue    `json:"queues"`
}

// Throughput is the fleet's figures per second over the gateways' last
// heartbeat interval (two seconds).
type Throughput struct {
	Submits  float64 `json:"submits"`  // parts the carriers accepted
	Receipts float64 `json:"receipts"` // receipts the gateways stored
}

// Bind is one configured SMPP bind: its state at the gateway holding it, or,
// when none holds it, as a gateway without it sees it.
type Bind struct {
	Name     string `json:"name"`
	Operator string `json:"operator"`
	State    string `json:"state"`
	Bound    bool   `json:"bound"`
	Gateway  string `json:"gateway"` // the instance holding it; "" when none
}

// Queue is one asynq queue.
type Queue struct {
	Name      string  `json:"name"`
	Pending   int     `json:"pending"`
	Active    int     `json:"active"`
	Scheduled int     `json:"scheduled"`
	Retry     int     `json:"retry"`
	Archived  int     `json:"archived"`
	Latency   float64 `json:"latency_seconds"` // age of the oldest pending task
	Paused    bool    `json:"paused"`
}

// Overview reads the binds, throughput and queues now.
func (s *Service) Overview(ctx context.Context) (Overview, error) {
	hbs, err := gateway.Heartbeats(ctx, s.rdb)
	if err != nil {
		return Overview{}, err
	}
	infos, err := jobs.QueueInfos(s.insp)
	if err != nil {
		return Overview{}, fmt.Errorf("operations: %w", err)
	}
	ov := Overview{At: time.Now().UTC(), Gateways: len(hbs), Binds: binds(hbs), Queues: make([]Queue, 0, len(infos))}
	for _, hb := range hbs {
		ov.Throughput.Submits += hb.Rates.Submits
		ov.Throughput.Receipts += hb.Rates.Receipts
	}
	for _, q := range infos {
		ov.Queues = append(ov.Queues, Queue{Name: q.Queue, Pending: q.Pending, Active: q.Active, Scheduled: q.Scheduled,
			Retry: q.Retry, Archived: q.Archived, Latency: q.Latency.Seconds(), Paused: q.Paused})
	}
	return ov, nil
}

// binds merges the gateways' binds by name: every gateway lists every
// configured bind, and the one holding it knows its state.
func binds(hbs []gateway.Heartbeat) []Bind {
	byName := map[string]Bind{}
	for _, hb := range hbs {
		for _, b := range hb.Binds {
			if _, seen := byName[b.Name]; seen && !b.Held {
				continue
			}
			v := Bind{Name: b.Name, Operator: b.Operator, State: b.State, Bound: b.Bound}
			if b.Held {
				v.Gateway = hb.Instance
			}
			byName[b.Name] = v
		}
	}
	out := make([]Bind, 0, len(byName))
	for _, b := range byName {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b Bind) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
