package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/chapar/chapar/pkg/smpp"
)

// bind is one SMPP client kept bound by pkg/smpp, and its adaptive rate.
type bind struct {
	name   string // operator#n
	cfg    BindConfig
	client *smpp.Client
	pace   *pacer
	lane   *lane
}

// operatorBinds are the binds of one operator; submits are spread over them.
type operatorBinds struct {
	op    string
	binds []*bind
	next  atomic.Uint32
}

// binds holds every bind of the gateway.
type binds struct {
	all  []*bind
	byOp map[string]*operatorBinds
}

// openBinds starts a client per configured bind; each keeps (re)binding in
// the background. deliver returns the deliver_sm handler of an operator.
func openBinds(cfg Config, deliver func(operator string) smpp.DeliverHandler, log *slog.Logger) (*binds, error) {
	bs := &binds{byOp: map[string]*operatorBinds{}}
	counts := map[string]int{}
	for _, bc := range cfg.Binds {
		counts[bc.Operator]++
		name := fmt.Sprintf("%s#%d", bc.Operator, counts[bc.Operator])
		peer := ""
		if bc.Operator == OperatorSandbox {
			peer = cfg.SandboxPeer
		}
		c, err := smpp.NewClient(smpp.Config{
			PeerSystemID:    peer,
			Addr:            bc.Addr(),
			SystemID:        bc.SystemID,
			Password:        bc.Password,
			BindType:        smpp.BindTransceiver,
			EnquireLink:     bc.EnquireLink,
			ResponseTimeout: bc.ResponseTimeout,
			Window:          bc.Window,
			TPS:             bc.TPS,
			ThrottlePause:   cmp.Or(bc.ThrottlePause, DefaultThrottlePause),
			ReconnectMax:    bc.ReconnectMax,
			DeliverHandler:  deliver(bc.Operator),
			DeliverWorkers:  max(cfg.DeliverWorkers, 1),
			Logger:          log.With("bind", name),
		})
		if err != nil {
			closeCtx, cancel := context.WithCancel(context.Background())
			cancel() // nothing was sent yet: close at once
			_ = bs.close(closeCtx)
			return nil, fmt.Errorf("bind %s to %s: %w", name, bc.Addr(), err)
		}
		b := &bind{name: name, cfg: bc, client: c, pace: newPacer(bc.TPS), lane: newLane(bc)}
		bs.all = append(bs.all, b)
		ob := bs.byOp[bc.Operator]
		if ob == nil {
			ob = &operatorBinds{op: bc.Operator}
			bs.byOp[bc.Operator] = ob
		}
		ob.binds = append(ob.binds, b)
	}
	return bs, nil
}

// pick chooses the bind for the next submit: the bound one with the fewest
// submits in flight, starting the comparison at a rotating index so that
// ties go round-robin. When none is bound it returns the next in turn, whose
// SubmitAsync waits for its bind.
func (o *operatorBinds) pick() *bind {
	n := len(o.binds)
	if n == 1 {
		return o.binds[0]
	}
	start := int(o.next.Add(1) % uint32(n))
	best, bestInFlight := -1, int64(0)
	for i := range n {
		j := (start + i) % n
		st := o.binds[j].client.Stats()
		if st.State != smpp.StateBound {
			continue
		}
		if best < 0 || st.InFlight < bestInFlight {
			best, bestInFlight = j, st.InFlight
		}
	}
	if best < 0 {
		best = start
	}
	return o.binds[best]
}

// anyBound reports whether at least one bind is bound (throttled included).
func (o *operatorBinds) anyBound() bool {
	for _, b := range o.binds {
		if st := b.client.State(); st == smpp.StateBound || st == smpp.StateThrottled {
			return true
		}
	}
	return false
}

// waitBound blocks until one of the binds is bound or ctx ends.
func (o *operatorBinds) waitBound(ctx context.Context) error {
	if o.anyBound() {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(o.binds))
	for _, b := range o.binds {
		go func() { errc <- b.client.WaitBound(ctx) }()
	}
	var errs []error
	for range o.binds {
		err := <-errc
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return fmt.Errorf("no %s bind is bound: %w", o.op, errors.Join(errs...))
}

// close closes every bind in parallel, giving in-flight submits and queued
// deliveries until ctx ends.
func (bs *binds) close(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(bs.all))
	for i, b := range bs.all {
		wg.Go(func() {
			if err := b.client.Close(ctx); err != nil {
				errs[i] = fmt.Errorf("close bind %s: %w", b.name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// BindStatus is one bind in GET /status.
type BindStatus struct {
	Name     string     `json:"name"`
	Operator string     `json:"operator"`
	Addr     string     `json:"addr"`
	SystemID string     `json:"system_id"`
	State    string     `json:"state"`
	Bound    bool       `json:"bound"`
	Stats    smpp.Stats `json:"stats"`
	Pacer    PacerStats `json:"pacer"`
	Lane     LaneStats  `json:"lane"`
}

func (bs *binds) status() []BindStatus {
	out := make([]BindStatus, 0, len(bs.all))
	for _, b := range bs.all {
		st := b.client.Stats()
		out = append(out, BindStatus{
			Name:     b.name,
			Operator: b.cfg.Operator,
			Addr:     b.cfg.Addr(),
			SystemID: b.cfg.SystemID,
			State:    st.State.String(),
			Bound:    st.State == smpp.StateBound || st.State == smpp.StateThrottled,
			Stats:    st,
			Pacer:    b.pace.stats(),
			Lane:     b.lane.stats(),
		})
	}
	return out
}
