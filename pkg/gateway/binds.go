package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/pkg/smpp"
)

// bind is one configured SMPP bind, its adaptive rate, and, while this gateway
// holds the bind (always, or while it holds its lease: lease.go), the client
// pkg/smpp keeps bound.
type bind struct {
	name   string // operator#n
	slot   int    // its place among the binds of the same carrier account
	cfg    BindConfig
	client atomic.Pointer[smpp.Client]
	dial   func() (*smpp.Client, error)
	pace   *pacer
	lane   *lane
	// counts keeps the smpp counters of the clients closed (metrics.go).
	counts bindCounts
}

// held reports whether this gateway holds the bind (its client is open).
func (b *bind) held() bool { return b.client.Load() != nil }

// open starts the bind's client unless it runs already.
func (b *bind) open() error {
	if b.held() {
		return nil
	}
	c, err := b.dial()
	if err != nil {
		return fmt.Errorf("bind %s to %s: %w", b.name, b.cfg.Addr(), err)
	}
	b.client.Store(c)
	return nil
}

// shut closes the bind's client, if open, giving in-flight submits until ctx
// ends. Chunks that picked it meanwhile get smpp.ErrClosed and leave their
// parts queued.
func (b *bind) shut(ctx context.Context) error {
	b.counts.mu.Lock()
	c := b.client.Swap(nil)
	if c != nil {
		b.counts.closing = c
	}
	b.counts.mu.Unlock()
	if c == nil {
		return nil
	}
	err := c.Close(ctx)
	b.counts.mu.Lock()
	addStats(&b.counts.retired, c.Stats())
	b.counts.closing = nil
	b.counts.mu.Unlock()
	if err != nil {
		return fmt.Errorf("close bind %s: %w", b.name, err)
	}
	return nil
}

// submitAsync submits through the bind's client; smpp.ErrClosed when this
// gateway no longer holds it.
func (b *bind) submitAsync(ctx context.Context, m *smpp.SubmitSM, done func(id string, err error)) error {
	c := b.client.Load()
	if c == nil {
		return smpp.ErrClosed
	}
	return c.SubmitAsync(ctx, m, done)
}

// stats are the client's counters; a bind not held reports disconnected.
func (b *bind) stats() smpp.Stats {
	if c := b.client.Load(); c != nil {
		return c.Stats()
	}
	return smpp.Stats{State: smpp.StateDisconnected}
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

// openBinds makes a bind per configured one and, unless their leases decide
// (cfg.BindLeases), starts every client; each keeps (re)binding in the
// background. deliver returns the deliver_sm handler of an operator.
func openBinds(cfg Config, deliver func(operator string) smpp.DeliverBatchHandler, resp *prometheus.HistogramVec, log *slog.Logger) (*binds, error) {
	bs := &binds{byOp: map[string]*operatorBinds{}}
	counts, slots := map[string]int{}, map[string]int{}
	for _, bc := range cfg.Binds {
		counts[bc.Operator]++
		name := fmt.Sprintf("%s#%d", bc.Operator, counts[bc.Operator])
		account := bc.Operator + "\x00" + bc.SystemID + "\x00" + bc.Addr()
		b := &bind{name: name, slot: slots[account], cfg: bc, pace: newPacer(bc.TPS), lane: newLane(bc),
			dial: dialer(cfg, bc, deliver(bc.Operator), resp.WithLabelValues(bc.Operator, name), log.With("bind", name))}
		slots[account]++
		bs.all = append(bs.all, b)
		ob := bs.byOp[bc.Operator]
		if ob == nil {
			ob = &operatorBinds{op: bc.Operator}
			bs.byOp[bc.Operator] = ob
		}
		ob.binds = append(ob.binds, b)
		if cfg.BindLeases {
			continue
		}
		if err := b.open(); err != nil {
			closeCtx, cancel := context.WithCancel(context.Background())
			cancel() // nothing was sent yet: close at once
			_ = bs.close(closeCtx)
			return nil, err
		}
	}
	return bs, nil
}

// dialer returns what starts a client of the bind bc.
func dialer(cfg Config, bc BindConfig, deliver smpp.DeliverBatchHandler, resp smpp.Observer, log *slog.Logger) func() (*smpp.Client, error) {
	peer := ""
	if bc.Operator == OperatorSandbox {
		peer = cfg.SandboxPeer
	}
	return func() (*smpp.Client, error) {
		return smpp.NewClient(smpp.Config{
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
			DeliverBatch:    deliver,
			DeliverQueue:    max(cfg.DeliverWorkers, 1) * smpp.DefaultDeliverQueue,
			SubmitResponse:  resp,
			Logger:          log,
		})
	}
}

// pick chooses the bind for the next submit: the bound one with the fewest
// submits in flight, starting the comparison at a rotating index so that
// ties go round-robin. When none is bound it returns the next held one in
// turn, whose SubmitAsync waits for its bind.
func (o *operatorBinds) pick() *bind {
	n := len(o.binds)
	if n == 1 {
		return o.binds[0]
	}
	start := int(o.next.Add(1) % uint32(n))
	best, bestInFlight := -1, int64(0)
	for i := range n {
		j := (start + i) % n
		st := o.binds[j].stats()
		if st.State != smpp.StateBound {
			continue
		}
		if best < 0 || st.InFlight < bestInFlight {
			best, bestInFlight = j, st.InFlight
		}
	}
	if best >= 0 {
		return o.binds[best]
	}
	for i := range n { // none bound: the next held one, whose SubmitAsync waits for its bind
		if b := o.binds[(start+i)%n]; b.held() {
			return b
		}
	}
	return o.binds[start]
}

// anyHeld reports whether this gateway holds at least one of the binds.
func (o *operatorBinds) anyHeld() bool {
	for _, b := range o.binds {
		if b.held() {
			return true
		}
	}
	return false
}

// anyBound reports whether at least one bind is bound (throttled included).
func (o *operatorBinds) anyBound() bool {
	for _, b := range o.binds {
		if st := b.stats().State; st == smpp.StateBound || st == smpp.StateThrottled {
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
	var clients []*smpp.Client
	for _, b := range o.binds {
		if c := b.client.Load(); c != nil {
			clients = append(clients, c)
		}
	}
	if len(clients) == 0 {
		return errNoBindHere
	}
	errc := make(chan error, len(clients))
	for _, c := range clients {
		go func() { errc <- c.WaitBound(ctx) }()
	}
	var errs []error
	for range clients {
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
			errs[i] = b.shut(ctx)
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
	Held     bool       `json:"held"` // this gateway holds the bind (its lease)
	Bound    bool       `json:"bound"`
	Stats    smpp.Stats `json:"stats"`
	Pacer    PacerStats `json:"pacer"`
	Lane     LaneStats  `json:"lane"`
}

func (bs *binds) status() []BindStatus {
	out := make([]BindStatus, 0, len(bs.all))
	for _, b := range bs.all {
		st := b.stats()
		out = append(out, BindStatus{
			Held:     b.held(),
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
