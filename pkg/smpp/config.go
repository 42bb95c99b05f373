package smpp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"
)

// BindType selects the bind command. The zero value is a transceiver bind.
type BindType uint8

// Bind types.
const (
	BindTransceiver BindType = iota
	BindTransmitter
	BindReceiver
)

// String returns the SMPP name of the bind.
func (b BindType) String() string {
	switch b {
	case BindTransceiver:
		return "bind_transceiver"
	case BindTransmitter:
		return "bind_transmitter"
	case BindReceiver:
		return "bind_receiver"
	default:
		return fmt.Sprintf("bind_type(%d)", uint8(b))
	}
}

// DeliverHandler stores a deliver_sm (receipt or MO message). The
// deliver_sm_resp is sent only after it returns: ESME_ROK when it returns nil,
// ESME_RX_T_APPNACK (the SMSC retries later) when it returns an error. ctx is
// cancelled when the connection is lost; the SMSC then redelivers, so handlers
// must be idempotent.
type DeliverHandler func(ctx context.Context, d Deliver) error

// DeliverBatchHandler stores several deliver_sm at once, in arrival order, and
// returns one error per delivery (nil: stored). Each is answered as it would be
// by a DeliverHandler that returned its error; the answers of a batch are
// written together.
type DeliverBatchHandler func(ctx context.Context, ds []Deliver) []error

// Config configures a Session or a Client. Zero durations and sizes take the
// documented defaults.
type Config struct {
	Addr       string // host:port of the SMSC
	SystemID   string
	Password   string
	SystemType string
	BindType   BindType // default BindTransceiver
	// AddrTON, AddrNPI and AddressRange are sent in the bind request.
	AddrTON      uint8
	AddrNPI      uint8
	AddressRange string
	// PeerSystemID, when set, is the system_id the SMSC must name in its bind
	// response: any other peer is unbound at once and the bind fails with
	// ErrWrongPeer (the sandbox route binds only to a simulator this way).
	PeerSystemID string

	// EnquireLink is the interval of our enquire_link requests (default 15 s).
	// An enquire_link left unanswered for ResponseTimeout drops the connection.
	EnquireLink time.Duration
	// ResponseTimeout bounds the wait for any response (default 10 s). A
	// submit_sm unanswered this long completes with ErrUnknown.
	ResponseTimeout time.Duration
	// DialTimeout bounds TCP connect plus bind (default 10 s).
	DialTimeout time.Duration
	// WriteTimeout bounds one write to the socket (default 10 s); a write
	// that stalls longer drops the connection.
	WriteTimeout time.Duration

	// Window is the maximum number of submit_sm in flight (default 100).
	// Submitters block while the window is full.
	Window int
	// TPS is the submit_sm rate limit per second; 0 means unlimited. It never
	// applies to deliver_sm_resp or enquire_link.
	TPS float64
	// TPSBurst is the token bucket depth (default max(1, TPS/10)).
	TPSBurst int
	// ThrottlePause is how long submits pause after an ESME_RTHROTTLED
	// response (default 1 s).
	ThrottlePause time.Duration

	// ReconnectInitial is the first reconnect delay (default 500 ms).
	ReconnectInitial time.Duration
	// ReconnectMax caps the reconnect delay (default 30 s). A session that
	// stayed bound at least this long resets the back-off.
	ReconnectMax time.Duration

	// DeliverHandler receives deliver_sm PDUs. Required unless BindType is
	// BindTransmitter.
	DeliverHandler DeliverHandler
	// DeliverBatch, when set, is used instead of DeliverHandler: one goroutine
	// per session hands it every deliver_sm that arrived while the previous
	// batch was being stored (at most DeliverBatchMax), in arrival order. Under
	// load a batch then costs one wake-up and one write of its answers rather
	// than one of each per deliver_sm.
	DeliverBatch DeliverBatchHandler
	// DeliverWorkers is the number of handler goroutines (default 1, strict
	// arrival order). With more, order is kept per source address. With
	// DeliverBatch there is one.
	DeliverWorkers int
	// DeliverQueue is the number of deliver_sm each worker (or DeliverBatch's
	// goroutine) may hold before further ones are answered ESME_RX_T_APPNACK
	// (default 1024).
	DeliverQueue int

	// SubmitResponse, when set, is told the seconds from each submit_sm being
	// queued for the wire to its submit_sm_resp (a time-out or a lost
	// connection is not a response and is not told). It runs on the read loop:
	// a Prometheus histogram's Observe fits.
	SubmitResponse Observer

	// Logger receives session events (default slog.Default()).
	Logger *slog.Logger
	// DialContext opens the transport (default net.Dialer.DialContext); set
	// it to use TLS or a proxy.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Observer takes one measurement (prometheus.Observer satisfies it).
type Observer interface{ Observe(float64) }

// Defaults applied by withDefaults.
const (
	DefaultEnquireLink      = 15 * time.Second
	DefaultResponseTimeout  = 10 * time.Second
	DefaultDialTimeout      = 10 * time.Second
	DefaultWriteTimeout     = 10 * time.Second
	DefaultWindow           = 100
	DefaultThrottlePause    = time.Second
	DefaultReconnectInitial = 500 * time.Millisecond
	DefaultReconnectMax     = 30 * time.Second
	DefaultDeliverQueue     = 1024
	// DeliverBatchMax bounds the deliveries handed to a DeliverBatch at once.
	DeliverBatchMax = 512
)

func (c Config) withDefaults() (Config, error) {
	if c.Addr == "" {
		return c, errors.New("smpp: config: Addr is required")
	}
	if c.BindType > BindReceiver {
		return c, fmt.Errorf("smpp: config: invalid BindType %d", c.BindType)
	}
	if c.BindType != BindTransmitter && c.DeliverHandler == nil && c.DeliverBatch == nil {
		return c, fmt.Errorf("smpp: config: DeliverHandler or DeliverBatch is required for %s", c.BindType)
	}
	if c.Window < 0 || c.TPS < 0 || c.TPSBurst < 0 || c.DeliverWorkers < 0 || c.DeliverQueue < 0 {
		return c, errors.New("smpp: config: negative Window, TPS, TPSBurst, DeliverWorkers or DeliverQueue")
	}
	setDur := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	setDur(&c.EnquireLink, DefaultEnquireLink)
	setDur(&c.ResponseTimeout, DefaultResponseTimeout)
	setDur(&c.DialTimeout, DefaultDialTimeout)
	setDur(&c.WriteTimeout, DefaultWriteTimeout)
	setDur(&c.ThrottlePause, DefaultThrottlePause)
	setDur(&c.ReconnectInitial, DefaultReconnectInitial)
	setDur(&c.ReconnectMax, DefaultReconnectMax)
	if c.ReconnectMax < c.ReconnectInitial {
		c.ReconnectMax = c.ReconnectInitial
	}
	if c.Window == 0 {
		c.Window = DefaultWindow
	}
	if c.TPS > 0 && c.TPSBurst == 0 {
		c.TPSBurst = max(1, int(c.TPS/10))
	}
	if c.DeliverWorkers == 0 {
		c.DeliverWorkers = 1
	}
	if c.DeliverQueue == 0 {
		c.DeliverQueue = DefaultDeliverQueue
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.DialContext == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		c.DialContext = d.DialContext
	}
	return c, nil
}
