package smpp

// The write side of a session: the send queue and its writer, matching responses
// to outstanding requests, and the time-out and enquire_link timers.

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

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
	if isResponse(p.Header().ID) {
		s.answered.add(seq, time.Now())
	}
	if err := s.send(nil, buf.Bytes()); err != nil {
		s.log.Debug("smpp: response dropped", "command", p.Header().ID.String(), "seq", seq, "err", err)
	}
}

// answeredSlots is how many sequence numbers of our recent responses are kept.
const answeredSlots = 256

// answeredSeqs remembers the sequence numbers of the generic_nack,
// enquire_link_resp and unbind_resp we sent and when (onGenericNack). A slot
// holds the sequence number in its high half and the second it was sent in
// the low half; a later response with the same slot overwrites it.
// deliver_sm_resp and data_sm_resp are not kept: the SMSC's counter of those
// runs alongside ours, and every genuine nack of a submit would look ambiguous.
type answeredSeqs [answeredSlots]atomic.Uint64

func (a *answeredSeqs) add(seq uint32, now time.Time) {
	a[seq%answeredSlots].Store(uint64(seq)<<32 | uint64(uint32(now.Unix())))
}

// recent reports whether we sent a response with seq within window of now.
func (a *answeredSeqs) recent(seq uint32, now time.Time, window time.Duration) bool {
	v := a[seq%answeredSlots].Load()
	if v == 0 || uint32(v>>32) != seq {
		return false
	}
	at := time.Unix(int64(uint32(v)), 0)
	return now.Sub(at) <= window+time.Second
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
	if o := s.cfg.SubmitResponse; o != nil && r.err == nil {
		// c.deadline is when the submit was queued plus the response time-out.
		o.Observe((time.Since(c.deadline) + s.cfg.ResponseTimeout).Seconds())
	}
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
