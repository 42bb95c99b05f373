package smpp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
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
	queues []chan Deliver

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

func (s *Session) start() {
	n := s.cfg.DeliverWorkers
	if s.cfg.BindType == BindTransmitter {
		n = 0
	}
	s.queues = make([]chan Deliver, n)
	for i := range s.queues {
		s.queues[i] = make(chan Deliver, s.cfg.DeliverQueue)
	}
	s.wg.Add(3 + n)
	go s.readLoop()
	go s.writeLoop()
	go s.timerLoop()
	for _, q := range s.queues {
		go s.deliverWorker(q)
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

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuf() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuf(b *bytes.Buffer) {
	if b.Cap() > 64*1024 {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

// send registers c (when non-nil) and queues b for the writer, atomically
// with respect to the session ending: a registered call is always either
// answered or completed with ErrUnknown.
func (s *Session) send(c *call, b []byte) error {
	s.mu.Lock()
	switch {
	case s.dead || s.flushClose:
		s.mu.Unlock()
		return fmt.Errorf("%w: connection closed", ErrNotBound)
	case c != nil && c.cb != nil && s.closing:
		s.mu.Unlock()
		return ErrClosed
	case c != nil && c.cb != nil && s.draining:
		s.mu.Unlock()
		return fmt.Errorf("%w: session is unbinding", ErrNotBound)
	}
	if c != nil {
		c.deadline = time.Now().Add(s.cfg.ResponseTimeout)
		s.pending[c.key] = c
		if s.tail == nil {
			s.head, s.tail = c, c
		} else {
			c.prev, s.tail.next, s.tail = s.tail, c, c
		}
		if c.cb != nil {
			s.submits++
		}
	}
	s.out = append(s.out, b...)
	s.mu.Unlock()
	if c != nil && c.cb != nil {
		s.sh.stats.submitted.Add(1)
		s.sh.stats.inFlight.Add(1)
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return nil
}

// sendPDU encodes and queues an untracked PDU (a response of ours).
func (s *Session) sendPDU(p pdu.Body, seq uint32, status Status) {
	buf := getBuf()
	defer putBuf(buf)
	if err := encodePDU(buf, p, seq, status); err != nil {
		s.log.Error("smpp: encode response", "err", err)
		return
	}
	if err := s.send(nil, buf.Bytes()); err != nil {
		s.log.Debug("smpp: response dropped", "command", p.Header().ID.String(), "seq", seq, "err", err)
	}
}

// unlinkLocked removes c from the deadline list; s.mu must be held.
func (s *Session) unlinkLocked(c *call) {
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		s.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		s.tail = c.prev
	}
	c.prev, c.next = nil, nil
}

func (s *Session) take(k reqKey) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.pending[k]
	if c != nil {
		delete(s.pending, k)
		s.unlinkLocked(c)
	}
	return c
}

// finish delivers a result to its call.
func (s *Session) finish(c *call, r result) {
	if c.cb == nil {
		c.done(r)
		return
	}
	<-s.window
	s.mu.Lock()
	s.submits--
	s.checkDrainedLocked()
	s.mu.Unlock()
	st := &s.sh.stats
	st.inFlight.Add(-1)
	switch {
	case r.err != nil:
		st.unknown.Add(1)
		c.cb("", r.err)
	case r.status == StatusOK:
		st.accepted.Add(1)
		c.cb(r.messageID, nil)
	case r.status == StatusThrottled:
		st.throttled.Add(1)
		s.sh.throttleUntil.Store(time.Now().Add(s.cfg.ThrottlePause).UnixNano())
		c.cb("", &StatusError{Command: "submit_sm", Status: r.status})
	default:
		st.rejected.Add(1)
		c.cb("", &StatusError{Command: "submit_sm", Status: r.status})
	}
}

func (s *Session) checkDrainedLocked() {
	if s.drained != nil && !s.drainedShut && s.submits == 0 && s.delivers == 0 {
		s.drainedShut = true
		close(s.drained)
	}
}

func (s *Session) readLoop() {
	defer s.wg.Done()
	for {
		f, err := s.fr.next()
		if err != nil {
			s.fail(fmt.Errorf("read: %w", err))
			return
		}
		switch f.id {
		case pdu.SubmitSMRespID:
			r := result{status: f.status}
			id, err := f.messageID()
			switch {
			case err != nil && f.status == StatusOK:
				r.err = fmt.Errorf("%w: undecodable submit_sm_resp: %w", ErrUnknown, err)
			case err == nil:
				r.messageID = id
			}
			if c := s.take(reqKey{f.id, f.seq}); c != nil {
				s.finish(c, r)
			} else {
				s.log.Warn("smpp: submit_sm_resp matches no outstanding submit_sm (late after time-out?)",
					"seq", f.seq, "status", f.status.String(), "message_id", id)
			}
		case pdu.EnquireLinkRespID, pdu.UnbindRespID:
			if c := s.take(reqKey{f.id, f.seq}); c != nil {
				s.finish(c, result{status: f.status})
			}
		case pdu.GenericNACKID:
			s.onGenericNack(f)
		case pdu.DeliverSMID:
			s.onDeliver(f)
		case pdu.EnquireLinkID:
			s.sendPDU(pdu.NewEnquireLinkResp(), f.seq, StatusOK)
		case pdu.UnbindID:
			s.log.Info("smpp: SMSC requested unbind")
			s.closeAfterFlush(pdu.NewUnbindResp(), f.seq, errors.New("unbound by SMSC"))
		default:
			if isResponse(f.id) {
				s.log.Warn("smpp: unexpected response", "command", f.id.String(), "seq", f.seq)
			} else {
				s.log.Warn("smpp: unsupported request, answering generic_nack", "command_id", fmt.Sprintf("0x%08X", uint32(f.id)), "seq", f.seq)
				s.sendPDU(pdu.NewGenericNACK(), f.seq, StatusInvalidCmdID)
			}
		}
	}
}

// onGenericNack completes whichever of our requests carries the sequence
// number; our sequence numbers are unique across request types.
func (s *Session) onGenericNack(f frame) {
	for _, id := range []pdu.ID{pdu.SubmitSMRespID, pdu.EnquireLinkRespID, pdu.UnbindRespID} {
		if c := s.take(reqKey{id, f.seq}); c != nil {
			st := f.status
			if st == StatusOK {
				st = StatusUnknownError
			}
			s.finish(c, result{status: st})
			return
		}
	}
	s.log.Warn("smpp: generic_nack matches no outstanding request", "seq", f.seq, "status", f.status.String())
}

func (s *Session) onDeliver(f frame) {
	s.sh.stats.delivers.Add(1)
	if len(s.queues) == 0 {
		s.log.Error("smpp: deliver_sm on a transmitter bind", "seq", f.seq)
		s.sendPDU(pdu.NewDeliverSMResp(), f.seq, StatusInvalidBindStatus)
		return
	}
	seq := f.seq
	d, err := decodeDeliver(f, time.Now())
	if err != nil {
		// Retrying cannot make it decodable: refuse it permanently.
		s.log.Error("smpp: undecodable deliver_sm rejected", "seq", seq, "err", err)
		s.sh.stats.deliverNacks.Add(1)
		s.sendPDU(pdu.NewDeliverSMResp(), seq, StatusAppNackPermanent)
		return
	}
	q := s.queues[0]
	if len(s.queues) > 1 {
		h := fnv.New32a()
		_, _ = h.Write([]byte(d.Source.Addr))
		q = s.queues[h.Sum32()%uint32(len(s.queues))]
	}
	s.mu.Lock()
	s.delivers++
	s.mu.Unlock()
	select {
	case q <- d:
	default:
		s.doneDeliver()
		s.sh.stats.deliverOverflow.Add(1)
		s.sh.stats.deliverNacks.Add(1)
		s.log.Warn("smpp: deliver queue full, answering ESME_RX_T_APPN", "seq", seq)
		s.sendPDU(pdu.NewDeliverSMResp(), seq, StatusAppNackTemporary)
	}
}

func (s *Session) doneDeliver() {
	s.mu.Lock()
	s.delivers--
	s.checkDrainedLocked()
	s.mu.Unlock()
}

func (s *Session) deliverWorker(q chan Deliver) {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case d := <-q:
			s.handleDeliver(d)
		}
	}
}

func (s *Session) handleDeliver(d Deliver) {
	defer s.doneDeliver()
	if s.ctx.Err() != nil {
		return // connection gone: the SMSC will redeliver
	}
	err := s.callHandler(d)
	if s.ctx.Err() != nil {
		return
	}
	if err != nil {
		s.sh.stats.deliverNacks.Add(1)
		s.log.Warn("smpp: deliver handler failed, answering ESME_RX_T_APPN", "seq", d.Seq, "source", d.Source.Addr, "err", err)
		s.sendPDU(pdu.NewDeliverSMResp(), d.Seq, StatusAppNackTemporary)
		return
	}
	s.sh.stats.deliverAcks.Add(1)
	s.sendPDU(pdu.NewDeliverSMResp(), d.Seq, StatusOK)
}

func (s *Session) callHandler(d Deliver) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("deliver handler panicked: %v", p)
		}
	}()
	return s.cfg.DeliverHandler(s.ctx, d)
}

func (s *Session) writeLoop() {
	defer s.wg.Done()
	var buf []byte
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.kick:
		}
		s.mu.Lock()
		buf, s.out = s.out, buf[:0]
		closeNow, cause := s.flushClose, s.closeCause
		s.mu.Unlock()
		if len(buf) > 0 {
			_ = s.conn.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
			if _, err := s.conn.Write(buf); err != nil {
				s.fail(fmt.Errorf("write: %w", err))
				return
			}
		}
		if cap(buf) > 4<<20 {
			buf = nil
		}
		if closeNow {
			s.fail(cause)
			return
		}
	}
}

// closeAfterFlush queues a final response and ends the session once it has
// been written.
func (s *Session) closeAfterFlush(p pdu.Body, seq uint32, cause error) {
	buf := getBuf()
	defer putBuf(buf)
	if err := encodePDU(buf, p, seq, StatusOK); err != nil {
		s.fail(fmt.Errorf("%w (and %w)", cause, err))
		return
	}
	s.mu.Lock()
	if s.dead || s.flushClose {
		s.mu.Unlock()
		return
	}
	s.out = append(s.out, buf.Bytes()...)
	s.flushClose, s.closeCause, s.draining = true, cause, true
	s.mu.Unlock()
	s.stopOnce.Do(func() { close(s.stopSubmits) })
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Session) timerLoop() {
	defer s.wg.Done()
	tick := min(max(s.cfg.ResponseTimeout/10, 5*time.Millisecond), time.Second)
	sweep := time.NewTicker(tick)
	defer sweep.Stop()
	enq := time.NewTicker(s.cfg.EnquireLink)
	defer enq.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-sweep.C:
			s.expire(now)
		case <-enq.C:
			s.enquireLink()
		}
	}
}

func (s *Session) expire(now time.Time) {
	var expired []*call
	s.mu.Lock()
	for c := s.head; c != nil && !c.deadline.After(now); c = s.head {
		delete(s.pending, c.key)
		s.unlinkLocked(c)
		expired = append(expired, c)
	}
	s.mu.Unlock()
	for _, c := range expired {
		s.finish(c, result{err: fmt.Errorf("%w: no %s for sequence %d within %s",
			ErrUnknown, respName(c.key.id), c.key.seq, s.cfg.ResponseTimeout)})
	}
}

func respName(id pdu.ID) string {
	switch id {
	case pdu.SubmitSMRespID:
		return "submit_sm_resp"
	case pdu.EnquireLinkRespID:
		return "enquire_link_resp"
	case pdu.UnbindRespID:
		return "unbind_resp"
	}
	return id.String()
}

func (s *Session) enquireLink() {
	buf := getBuf()
	defer putBuf(buf)
	seq := s.nextSeq()
	if err := encodePDU(buf, pdu.NewEnquireLink(), seq, StatusOK); err != nil {
		s.log.Error("smpp: encode enquire_link", "err", err)
		return
	}
	c := &call{key: reqKey{pdu.EnquireLinkRespID, seq}, done: func(r result) {
		switch {
		case r.err != nil:
			if !s.isDead() { // not completed by fail itself
				s.fail(fmt.Errorf("enquire_link unanswered: %w", r.err))
			}
		case r.status != StatusOK:
			s.log.Warn("smpp: enquire_link answered with error status", "status", r.status.String())
		}
	}}
	if err := s.send(c, buf.Bytes()); err != nil {
		s.log.Debug("smpp: enquire_link not sent", "err", err)
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
