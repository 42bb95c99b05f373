package smpp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// ConnState is the state of a Client's bind.
type ConnState uint8

// Client states.
const (
	StateDisconnected ConnState = iota
	StateConnecting
	StateBound
	StateThrottled // bound, submits paused after ESME_RTHROTTLED
	StateClosing
	StateClosed
)

var connStateNames = [...]string{
	StateDisconnected: "disconnected",
	StateConnecting:   "connecting",
	StateBound:        "bound",
	StateThrottled:    "throttled",
	StateClosing:      "closing",
	StateClosed:       "closed",
}

// String returns the state name.
func (s ConnState) String() string {
	if int(s) < len(connStateNames) {
		return connStateNames[s]
	}
	return fmt.Sprintf("ConnState(%d)", uint8(s))
}

// MarshalText renders the state name in JSON.
func (s ConnState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Stats is a snapshot of a bind's counters, cumulative over reconnects.
type Stats struct {
	State            ConnState `json:"state"`
	Submitted        int64     `json:"submitted"`         // submit_sm written
	Accepted         int64     `json:"accepted"`          // ESME_ROK with a message id
	Rejected         int64     `json:"rejected"`          // error status other than throttling
	Throttled        int64     `json:"throttled"`         // ESME_RTHROTTLED
	Unknown          int64     `json:"unknown"`           // time-out or connection lost in flight
	InFlight         int64     `json:"in_flight"`         // submit_sm awaiting a response
	DeliversReceived int64     `json:"delivers_received"` // deliver_sm read
	DeliversAcked    int64     `json:"delivers_acked"`    // answered ESME_ROK after the handler
	DeliversNacked   int64     `json:"delivers_nacked"`   // answered with an error status
	DeliversOverflow int64     `json:"delivers_overflow"` // refused because the queue was full
	Binds            int64     `json:"binds"`             // successful binds
	Reconnects       int64     `json:"reconnects"`        // successful binds after the first
	LastError        string    `json:"last_error,omitempty"`
}

type counters struct {
	submitted, accepted, rejected, throttled, unknown, inFlight atomic.Int64
	delivers, deliverAcks, deliverNacks, deliverOverflow        atomic.Int64
	binds, reconnects                                           atomic.Int64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Submitted:        c.submitted.Load(),
		Accepted:         c.accepted.Load(),
		Rejected:         c.rejected.Load(),
		Throttled:        c.throttled.Load(),
		Unknown:          c.unknown.Load(),
		InFlight:         c.inFlight.Load(),
		DeliversReceived: c.delivers.Load(),
		DeliversAcked:    c.deliverAcks.Load(),
		DeliversNacked:   c.deliverNacks.Load(),
		DeliversOverflow: c.deliverOverflow.Load(),
		Binds:            c.binds.Load(),
		Reconnects:       c.reconnects.Load(),
	}
}

// Client keeps one bind to an SMSC up: it dials and binds, and when the bind
// fails or the connection ends it reconnects after a capped exponential
// back-off with jitter. Submits wait (respecting their context) while no
// session is bound. The window, TPS bucket, throttle pause and counters span
// reconnects.
type Client struct {
	sh     *shared
	cfg    Config
	log    *slog.Logger
	ctx    context.Context // cancelled by Close: aborts dials and back-off
	cancel context.CancelFunc
	loop   chan struct{} // closed when the reconnect loop exits

	mu      sync.Mutex
	sess    *Session
	changed chan struct{} // closed and replaced whenever sess or closing changes
	state   ConnState
	closing bool
	lastErr error
}

// NewClient validates cfg and starts keeping a bind up in the background.
func NewClient(cfg Config) (*Client, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Client{
		sh:      newShared(cfg),
		cfg:     cfg,
		log:     cfg.Logger.With("smsc", cfg.Addr, "system_id", cfg.SystemID),
		loop:    make(chan struct{}),
		changed: make(chan struct{}),
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go c.run()
	return c, nil
}

func (c *Client) run() {
	defer close(c.loop)
	delay := c.cfg.ReconnectInitial
	backoff := func() bool {
		d := jitter(delay)
		delay = min(delay*2, c.cfg.ReconnectMax)
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-c.ctx.Done():
			return false
		}
	}
	for c.ctx.Err() == nil {
		c.setState(StateConnecting, nil)
		s, err := dial(c.ctx, c.sh)
		if err != nil {
			if c.ctx.Err() != nil {
				return
			}
			c.setState(StateDisconnected, err)
			c.log.Warn("smpp: bind failed", "err", err, "retry_in_max", delay)
			if !backoff() {
				return
			}
			continue
		}
		if c.sh.stats.binds.Add(1) > 1 {
			c.sh.stats.reconnects.Add(1)
		}
		if !c.setSession(s) {
			ctx, cancel := context.WithTimeout(context.Background(), c.cfg.ResponseTimeout)
			_ = s.Close(ctx)
			cancel()
			return
		}
		boundAt := time.Now()
		<-s.Done()
		c.clearSession(s)
		if c.ctx.Err() != nil {
			return
		}
		if time.Since(boundAt) >= c.cfg.ReconnectMax {
			delay = c.cfg.ReconnectInitial
		}
		c.log.Warn("smpp: session lost, reconnecting", "err", s.Err(), "retry_in_max", delay)
		if !backoff() {
			return
		}
	}
}

// jitter returns a delay uniformly drawn from [d/2, d].
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) setState(st ConnState, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = st
	if err != nil {
		c.lastErr = err
	}
}

func (c *Client) setSession(s *Session) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.sess, c.state = s, StateBound
	c.notifyLocked()
	return true
}

func (c *Client) clearSession(s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == s {
		c.sess, c.state, c.lastErr = nil, StateDisconnected, s.Err()
		c.notifyLocked()
	}
}

// State returns the current state of the bind.
func (c *Client) State() ConnState {
	c.mu.Lock()
	st, closing := c.state, c.closing
	c.mu.Unlock()
	switch {
	case closing:
		select {
		case <-c.loop:
			return StateClosed
		default:
			return StateClosing
		}
	case st == StateBound && c.sh.throttled(time.Now()):
		return StateThrottled
	}
	return st
}

// Stats returns the counters and state of the bind.
func (c *Client) Stats() Stats {
	st := c.sh.stats.snapshot()
	st.State = c.State()
	c.mu.Lock()
	if c.lastErr != nil {
		st.LastError = c.lastErr.Error()
	}
	c.mu.Unlock()
	return st
}

// WaitBound blocks until a session is bound or ctx ends.
func (c *Client) WaitBound(ctx context.Context) error {
	for {
		c.mu.Lock()
		s, changed, closing := c.sess, c.changed, c.closing
		c.mu.Unlock()
		switch {
		case closing:
			return ErrClosed
		case s != nil:
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("smpp: wait for bind: %w", ctx.Err())
		}
	}
}

// Submit sends m over the current session, waiting for one to be bound, and
// returns the outcome. See Session.SubmitAsync for the error contract.
func (c *Client) Submit(ctx context.Context, m *SubmitSM) (string, error) {
	return submitSync(ctx, m, c.SubmitAsync)
}

// SubmitAsync sends m over the current session, waiting (respecting ctx) for
// one to be bound; cb receives the outcome. A submit that could not be
// written because its session ended is moved to the next session. A non-nil
// error matches ErrNotSent and cb is never called; otherwise cb is called
// exactly once.
func (c *Client) SubmitAsync(ctx context.Context, m *SubmitSM, cb SubmitCallback) error {
	for {
		c.mu.Lock()
		s, changed, closing := c.sess, c.changed, c.closing
		c.mu.Unlock()
		if closing {
			return notSent(ErrClosed)
		}
		if s != nil {
			err := s.SubmitAsync(ctx, m, cb)
			if err == nil || !errors.Is(err, ErrNotBound) {
				return err
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return notSent(fmt.Errorf("%w while waiting for a bound session: %w", ErrNotBound, ctx.Err()))
		}
	}
}

// Close stops accepting submits, waits until ctx ends for in-flight submits
// and queued deliveries to complete, unbinds and closes the connection, and
// stops reconnecting. Submits still in flight when ctx ends complete with
// ErrUnknown and Close returns ctx's error.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	already := c.closing
	c.closing = true
	s := c.sess
	if !already {
		c.notifyLocked()
	}
	c.mu.Unlock()
	c.cancel()
	var err error
	if s != nil && !already {
		err = s.Close(ctx)
	}
	select {
	case <-c.loop:
	case <-ctx.Done():
		if err == nil {
			err = fmt.Errorf("smpp: close: reconnect loop still running: %w", ctx.Err())
		}
	}
	return err
}
