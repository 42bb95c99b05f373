package smpp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

// SubmitCallback receives the outcome of an asynchronous submit exactly once:
// a message id with a nil error when accepted, a *StatusError when rejected,
// or an error matching ErrUnknown. It runs on a session goroutine (normally
// the read loop), so it must return quickly: hand the result to a channel or
// a batcher instead of doing I/O in it.
type SubmitCallback func(messageID string, err error)

// shared is the state that outlives one connection: a Client passes it from
// session to session.
type shared struct {
	cfg           Config
	stats         counters
	bucket        *tokenBucket
	throttleUntil atomic.Int64 // UnixNano; submits pause until then
}

func newShared(cfg Config) *shared {
	return &shared{cfg: cfg, bucket: newTokenBucket(cfg.TPS, cfg.TPSBurst)}
}

func (sh *shared) throttled(now time.Time) bool {
	return now.UnixNano() < sh.throttleUntil.Load()
}

// reqKey identifies an outstanding request by the command id of its expected
// response and its sequence number.
type reqKey struct {
	id  pdu.ID
	seq uint32
}

type result struct {
	status    Status
	messageID string
	err       error // set when no usable response arrived; wraps ErrUnknown
}

type call struct {
	key        reqKey
	deadline   time.Time
	prev, next *call
	cb         SubmitCallback // submit_sm
	done       func(result)   // other requests
}

// Session is one bound SMPP connection. It is safe for concurrent use. When
// the connection ends, for whatever reason, every request still in flight
// completes with ErrUnknown and Done is closed; a Session is never reused
// (Client reconnects with a new one).
type Session struct {
	sh   *shared
	cfg  Config
	log  *slog.Logger
	conn net.Conn
	fr   *frameReader

	ctx    context.Context // cancelled when the session ends
	cancel context.CancelFunc
	seq    atomic.Uint32
	window chan struct{}
	kick   chan struct{}
	queues []chan *Deliver
	// answered holds the sequence numbers of our recent responses (onGenericNack).
	answered answeredSeqs

	mu          sync.Mutex
	pending     map[reqKey]*call
	head, tail  *call // pending calls in deadline order
	out         []byte
	flushClose  bool // close the connection once out is written
	closeCause  error
	draining    bool // refuse new submits
	closing     bool // Close was called
	dead        bool // connection gone; refuse everything
	submits     int  // submit_sm in flight
	delivers    int  // deliver_sm queued or being handled
	drained     chan struct{}
	drainedShut bool
	stopSubmits chan struct{} // closed when draining starts or the session dies
	stopOnce    sync.Once
	failOnce    sync.Once
	err         error
	done        chan struct{}
	wg          sync.WaitGroup
}

// Dial connects to cfg.Addr, binds, and returns the bound session. ctx bounds
// the connect and bind only (together with cfg.DialTimeout).
func Dial(ctx context.Context, cfg Config) (*Session, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return dial(ctx, newShared(cfg))
}

func dial(ctx context.Context, sh *shared) (*Session, error) {
	cfg := sh.cfg
	dctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	conn, err := cfg.DialContext(dctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("smpp: dial %s: %w", cfg.Addr, err)
	}
	s := &Session{
		sh:          sh,
		cfg:         cfg,
		log:         cfg.Logger.With("smsc", cfg.Addr, "system_id", cfg.SystemID),
		conn:        conn,
		fr:          newFrameReader(conn),
		window:      make(chan struct{}, cfg.Window),
		kick:        make(chan struct{}, 1),
		pending:     make(map[reqKey]*call, cfg.Window+8),
		stopSubmits: make(chan struct{}),
		done:        make(chan struct{}),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if err := s.bind(dctx); err != nil {
		s.cancel()
		_ = conn.Close()
		return nil, fmt.Errorf("smpp: %s to %s as %q: %w", cfg.BindType, cfg.Addr, cfg.SystemID, err)
	}
	s.start()
	s.log.Info("smpp session bound", "bind", cfg.BindType.String())
	return s, nil
}

func (s *Session) nextSeq() uint32 {
	for {
		if n := s.seq.Add(1) & 0x7FFFFFFF; n != 0 {
			return n
		}
	}
}

// bind performs the bind exchange before the loops start.
func (s *Session) bind(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); ok {
		_ = s.conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	var p pdu.Body
	var respID pdu.ID
	switch s.cfg.BindType {
	case BindTransmitter:
		p, respID = pdu.NewBindTransmitter(), pdu.BindTransmitterRespID
	case BindReceiver:
		p, respID = pdu.NewBindReceiver(), pdu.BindReceiverRespID
	default:
		p, respID = pdu.NewBindTransceiver(), pdu.BindTransceiverRespID
	}
	f := p.Fields()
	for _, kv := range []struct {
		k pdufield.Name
		v any
	}{
		{pdufield.SystemID, s.cfg.SystemID},
		{pdufield.Password, s.cfg.Password},
		{pdufield.SystemType, s.cfg.SystemType},
		{pdufield.InterfaceVersion, uint8(0x34)},
		{pdufield.AddrTON, s.cfg.AddrTON},
		{pdufield.AddrNPI, s.cfg.AddrNPI},
		{pdufield.AddressRange, s.cfg.AddressRange},
	} {
		if err := f.Set(kv.k, kv.v); err != nil {
			return fmt.Errorf("encode bind field %s: %w", kv.k, err)
		}
	}
	seq := s.nextSeq()
	var b bytes.Buffer
	if err := encodePDU(&b, p, seq, StatusOK); err != nil {
		return err
	}
	if _, err := s.conn.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write bind: %w", err)
	}
	for {
		fr, err := s.fr.next()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("await bind response: %w", ctx.Err())
			}
			return fmt.Errorf("await bind response: %w", err)
		}
		switch {
		case (fr.id == respID || fr.id == pdu.GenericNACKID) && fr.seq == seq:
			if fr.status != StatusOK || fr.id == pdu.GenericNACKID {
				return &StatusError{Command: s.cfg.BindType.String(), Status: fr.status}
			}
			if err := s.checkPeer(fr); err != nil {
				return err
			}
			_ = s.conn.SetDeadline(time.Time{})
			return nil
		case fr.id == pdu.EnquireLinkID:
			b.Reset()
			if err := encodePDU(&b, pdu.NewEnquireLinkResp(), fr.seq, StatusOK); err != nil {
				return err
			}
			if _, err := s.conn.Write(b.Bytes()); err != nil {
				return fmt.Errorf("write enquire_link_resp during bind: %w", err)
			}
		default:
			s.log.Warn("smpp: unexpected PDU while binding", "command", fr.id.String(), "seq", fr.seq)
		}
	}
}

// checkPeer refuses a bind response that does not name Config.PeerSystemID.
func (s *Session) checkPeer(fr frame) error {
	if s.cfg.PeerSystemID == "" {
		return nil
	}
	got := ""
	if len(fr.raw) > pdu.HeaderLen {
		p, err := fr.decode()
		if err != nil {
			return fmt.Errorf("decode %s: %w", fr.id, err)
		}
		if f := p.Fields()[pdufield.SystemID]; f != nil {
			got = strings.TrimRight(f.String(), "\x00")
		}
	}
	if got != s.cfg.PeerSystemID {
		return fmt.Errorf("%w: the SMSC named %q, want %q", ErrWrongPeer, got, s.cfg.PeerSystemID)
	}
	return nil
}

func (s *Session) start() {
	n := s.cfg.DeliverWorkers
	if s.cfg.DeliverBatch != nil {
		n = 1
	}
	if s.cfg.BindType == BindTransmitter {
		n = 0
	}
	s.queues = make([]chan *Deliver, n)
	for i := range s.queues {
		// Pointers, not values: a slot of a queue costs 8 bytes, not a whole
		// Deliver (192), so a bind's empty queues (64 workers × 1,024 by the
		// gateway's defaults) are 0.5 MB rather than 12.6 MB, which the
		// garbage collector scanned on every cycle.
		s.queues[i] = make(chan *Deliver, s.cfg.DeliverQueue)
	}
	s.wg.Add(3 + n)
	go s.readLoop()
	go s.writeLoop()
	go s.timerLoop()
	for _, q := range s.queues {
		if s.cfg.DeliverBatch != nil {
			go s.deliverBatcher(q)
		} else {
			go s.deliverWorker(q)
		}
	}
}

// Done is closed once the session has ended and every in-flight request has
// been completed.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended, or nil while it is alive.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stats returns the session's counters (shared with its Client, if any).
func (s *Session) Stats() Stats {
	st := s.sh.stats.snapshot()
	st.State = StateBound
	s.mu.Lock()
	switch {
	case s.dead:
		st.State = StateDisconnected
	case s.draining:
		st.State = StateClosing
	case s.sh.throttled(time.Now()):
		st.State = StateThrottled
	}
	s.mu.Unlock()
	return st
}

// Submit sends m and waits for its outcome. See SubmitAsync for the meaning
// of errors; if ctx ends after m was written, the error matches ErrUnknown.
func (s *Session) Submit(ctx context.Context, m *SubmitSM) (string, error) {
	return submitSync(ctx, m, s.SubmitAsync)
}

// SubmitAsync writes m and returns once it is queued for the wire; cb later
// receives the outcome. It blocks, respecting ctx, while the window is full,
// while submits are paused after ESME_RTHROTTLED, and while the TPS bucket is
// empty. A non-nil error matches ErrNotSent and means cb will never be
// called; with a nil error cb is called exactly once.
func (s *Session) SubmitAsync(ctx context.Context, m *SubmitSM, cb SubmitCallback) error {
	if cb == nil {
		return notSent(errors.New("smpp: nil SubmitCallback"))
	}
	if s.cfg.BindType == BindReceiver {
		return notSent(errors.New("smpp: submit_sm on a receiver bind"))
	}
	if err := m.validate(); err != nil {
		return notSent(fmt.Errorf("invalid submit_sm: %w", err))
	}
	if err := ctx.Err(); err != nil {
		return notSent(err)
	}
	select {
	case s.window <- struct{}{}:
	case <-ctx.Done():
		return notSent(ctx.Err())
	case <-s.stopSubmits:
		return notSent(s.stopCause())
	}
	sent := false
	defer func() {
		if !sent {
			<-s.window
		}
	}()
	if err := s.waitThrottle(ctx); err != nil {
		return notSent(err)
	}
	if err := s.sh.bucket.wait(ctx, s.stopSubmits); err != nil {
		if errors.Is(err, ErrClosed) {
			err = s.stopCause()
		}
		return notSent(err)
	}
	buf := getBuf()
	defer putBuf(buf)
	seq := s.nextSeq()
	if err := m.encode(seq, buf); err != nil {
		return notSent(err)
	}
	c := &call{key: reqKey{pdu.SubmitSMRespID, seq}, cb: cb}
	if err := s.send(c, buf.Bytes()); err != nil {
		return notSent(err)
	}
	sent = true
	return nil
}

func submitSync(ctx context.Context, m *SubmitSM, async func(context.Context, *SubmitSM, SubmitCallback) error) (string, error) {
	type outcome struct {
		id  string
		err error
	}
	ch := make(chan outcome, 1)
	if err := async(ctx, m, func(id string, err error) { ch <- outcome{id, err} }); err != nil {
		return "", err
	}
	select {
	case o := <-ch:
		return o.id, o.err
	case <-ctx.Done():
		return "", fmt.Errorf("%w: stopped waiting for submit_sm_resp: %w", ErrUnknown, ctx.Err())
	}
}

func (s *Session) stopCause() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrClosed
	case s.dead:
		return fmt.Errorf("%w: %w", ErrNotBound, s.err)
	}
	return fmt.Errorf("%w: session is unbinding", ErrNotBound)
}

func (s *Session) waitThrottle(ctx context.Context) error {
	until := s.sh.throttleUntil.Load()
	if until == 0 {
		return nil
	}
	d := time.Until(time.Unix(0, until))
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.stopSubmits:
		return s.stopCause()
	}
}

func (s *Session) isDead() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

// fail ends the session: the connection is closed and every outstanding
// request completes with ErrUnknown before Done is closed.
func (s *Session) fail(cause error) {
	s.failOnce.Do(func() {
		s.mu.Lock()
		s.dead, s.draining, s.err = true, true, cause
		calls := make([]*call, 0, len(s.pending))
		for c := s.head; c != nil; c = c.next {
			calls = append(calls, c)
		}
		s.pending = make(map[reqKey]*call)
		s.head, s.tail = nil, nil
		s.mu.Unlock()
		s.stopOnce.Do(func() { close(s.stopSubmits) })
		s.cancel()
		_ = s.conn.Close()
		lost := fmt.Errorf("%w: connection ended while awaiting response: %w", ErrUnknown, cause)
		for _, c := range calls {
			c.prev, c.next = nil, nil
			s.finish(c, result{err: lost})
		}
		if errors.Is(cause, ErrClosed) {
			s.log.Info("smpp session closed")
		} else {
			s.log.Warn("smpp session ended", "err", cause, "in_flight_unknown", len(calls))
		}
		close(s.done)
	})
}

// Close ends the session gracefully: new submits are refused with ErrClosed,
// in-flight submits and queued deliveries are given until ctx ends to
// complete, then the session unbinds and closes. Whatever is still in flight
// when ctx ends completes with ErrUnknown, and Close returns ctx's error.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.dead {
		s.mu.Unlock()
		return s.waitGoroutines(ctx)
	}
	s.draining, s.closing = true, true
	if s.drained == nil {
		s.drained = make(chan struct{})
		s.checkDrainedLocked()
	}
	drained := s.drained
	s.mu.Unlock()
	s.stopOnce.Do(func() { close(s.stopSubmits) })

	var drainErr error
	select {
	case <-drained:
	case <-s.done:
	case <-ctx.Done():
		drainErr = fmt.Errorf("smpp: close: in-flight requests not drained: %w", ctx.Err())
	}
	if drainErr == nil {
		drainErr = s.unbind(ctx)
	}
	s.fail(ErrClosed)
	if err := s.waitGoroutines(ctx); err != nil && drainErr == nil {
		drainErr = err
	}
	return drainErr
}

func (s *Session) unbind(ctx context.Context) error {
	buf := getBuf()
	defer putBuf(buf)
	seq := s.nextSeq()
	if err := encodePDU(buf, pdu.NewUnbind(), seq, StatusOK); err != nil {
		return err
	}
	ch := make(chan result, 1)
	if err := s.send(&call{key: reqKey{pdu.UnbindRespID, seq}, done: func(r result) { ch <- r }}, buf.Bytes()); err != nil {
		return nil // connection already gone; nothing left to unbind
	}
	select {
	case r := <-ch:
		if r.err == nil && r.status != StatusOK {
			s.log.Warn("smpp: unbind answered with error status", "status", r.status.String())
		}
		return nil
	case <-s.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("smpp: close: await unbind_resp: %w", ctx.Err())
	}
}

func (s *Session) waitGoroutines(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("smpp: close: session goroutines still running (deliver handler ignoring its context?): %w", ctx.Err())
	}
}
