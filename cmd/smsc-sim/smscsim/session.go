package smscsim

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutlv"
)

type bindKind uint8

const (
	unbound bindKind = iota
	bindTX
	bindRX
	bindTRX
)

// String returns the bind's SMPP name: transmitter, receiver, transceiver or unbound.
func (b bindKind) String() string {
	switch b {
	case bindTX:
		return "transmitter"
	case bindRX:
		return "receiver"
	case bindTRX:
		return "transceiver"
	}
	return "unbound"
}

func (b bindKind) canSubmit() bool  { return b == bindTX || b == bindTRX }
func (b bindKind) canReceive() bool { return b == bindRX || b == bindTRX }

const (
	writeTimeout = 30 * time.Second
	readBufSize  = maxFrame + 16
	writeBufSize = 64 * 1024
)

// session is one ESME connection. The read loop (serve) decodes and answers
// requests in order; responses go to a buffered writer flushed whenever no
// complete PDU is waiting to be read. A per-session writer goroutine
// (deliverLoop) sends deliver_sm from the mailbox of the bound system_id.
// Both write under wmu.
type session struct {
	srv  *Server
	op   *operator
	conn net.Conn
	id   uint64
	log  *slog.Logger
	br   *bufio.Reader

	wmu  sync.Mutex
	bw   *bufio.Writer
	werr error

	// seq numbers the PDUs the simulator originates on this session,
	// starting at 1 like a real SMSC.
	seq atomic.Uint32

	// Owned by the read loop.
	bound    bindKind
	systemID string
	bucket   *bucket
	writer   bool
	mb       *mailbox // set at bind, before the writer goroutine starts

	// echoes are the submit_sm responses a NackEcho fault keeps until the
	// ESME's generic_nack of the query_sm with the same sequence number.
	echoes map[uint32]pdu.Body

	// Guarded by mb.mu.
	inflight map[uint32]*item
	detached bool

	wake       chan struct{}
	done       chan struct{}
	writerDone chan struct{}
	closeOnce  sync.Once
}

func newSession(op *operator, conn net.Conn) *session {
	id := op.srv.sessionID.Add(1)
	return &session{
		srv:        op.srv,
		op:         op,
		conn:       conn,
		id:         id,
		log:        op.srv.log.With("operator", op.name, "session", id, "remote", conn.RemoteAddr().String()),
		br:         bufio.NewReaderSize(conn, readBufSize),
		bw:         bufio.NewWriterSize(conn, writeBufSize),
		wake:       make(chan struct{}, 1),
		done:       make(chan struct{}),
		writerDone: make(chan struct{}),
	}
}

func (s *session) nextSeq() uint32 {
	for {
		if n := s.seq.Add(1) & 0x7FFFFFFF; n != 0 {
			return n
		}
	}
}

func (s *session) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// close drops the connection; the read loop then cleans up.
func (s *session) close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.conn.Close()
	})
}

// shutdown sends unbind (best effort: it waits up to shutdownWait for a writer
// that holds the buffer, never for a peer that does not read) and closes the
// connection.
func (s *session) shutdown() {
	if s.lockWithin(shutdownWait) {
		if s.werr == nil {
			if b, err := encode(pdu.NewUnbind(), s.nextSeq(), StatusOK); err == nil {
				s.conn.SetWriteDeadline(time.Now().Add(shutdownWait))
				if _, err := s.bw.Write(b); err == nil {
					s.bw.Flush()
				}
				s.werr = net.ErrClosed
			}
		}
		s.wmu.Unlock()
	}
	s.close()
}

// shutdownWait bounds each step of a session's shutdown: waiting for the write
// lock, then writing the unbind.
const shutdownWait = time.Second

// lockWithin takes the write lock if it comes free within d.
func (s *session) lockWithin(d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(5 * time.Millisecond) {
		if s.wmu.TryLock() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// write queues an encoded PDU in the write buffer.
func (s *session) write(b []byte) {
	s.wmu.Lock()
	s.bufWriteLocked(b)
	s.wmu.Unlock()
}

// bufWriteLocked appends to the write buffer, arming the write deadline
// when the append may flush to the connection. The caller holds wmu.
func (s *session) bufWriteLocked(b []byte) {
	if s.werr != nil {
		return
	}
	if len(b) > s.bw.Available() {
		s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	}
	_, s.werr = s.bw.Write(b)
}

// respond encodes and queues a response.
func (s *session) respond(p pdu.Body, seq, status uint32) {
	b, err := encode(p, seq, status)
	if err != nil {
		s.log.Error("encode response", "err", err)
		return
	}
	s.write(b)
}

func (s *session) flush() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr == nil && s.bw.Buffered() > 0 {
		s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		s.werr = s.bw.Flush()
	}
	return s.werr
}

// frameBuffered reports whether a complete PDU is already buffered, in which
// case flushing is deferred so pipelined requests are answered in batches.
func (s *session) frameBuffered() bool {
	n := s.br.Buffered()
	if n < pdu.HeaderLen {
		return false
	}
	h, _ := s.br.Peek(4)
	return n >= int(binary.BigEndian.Uint32(h))
}

// serve is the read loop.
func (s *session) serve() {
	reason := "closed"
	defer func() { s.cleanup(reason) }()
	s.log.Debug("connection accepted")
	idle := s.srv.cfg.IdleTimeout
	for {
		if !s.frameBuffered() {
			if err := s.flush(); err != nil {
				reason = "write failed: " + err.Error()
				return
			}
		}
		if idle > 0 {
			s.conn.SetReadDeadline(time.Now().Add(idle))
		}
		h, err := s.br.Peek(pdu.HeaderLen)
		if err != nil {
			reason = readErrReason(err)
			return
		}
		l := binary.BigEndian.Uint32(h[0:4])
		id := pdu.ID(binary.BigEndian.Uint32(h[4:8]))
		status := binary.BigEndian.Uint32(h[8:12])
		seq := binary.BigEndian.Uint32(h[12:16])
		if l < pdu.HeaderLen || l > maxFrame {
			s.log.Warn("bad command_length; closing", "command_length", l)
			s.respond(pdu.NewGenericNACK(), seq, StatusInvCmdLen)
			reason = "bad command_length"
			return
		}
		frame, err := s.br.Peek(int(l))
		if err != nil {
			reason = readErrReason(err)
			return
		}
		keep := s.handle(id, status, seq, frame)
		s.br.Discard(int(l))
		if !keep {
			s.flush()
			reason = "unbound"
			return
		}
	}
}

func readErrReason(err error) string {
	switch {
	case errors.Is(err, io.EOF):
		return "peer closed"
	case errors.Is(err, net.ErrClosed):
		return "closed"
	case errors.Is(err, bufio.ErrBufferFull):
		return "frame too large"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "idle timeout"
	}
	return err.Error()
}

func (s *session) cleanup(reason string) {
	s.close()
	if s.writer {
		<-s.writerDone
	}
	if s.mb != nil && s.bound.canReceive() {
		s.mb.detach(s)
	}
	s.op.removeSession(s)
	if s.bound != unbound {
		s.log.Info("session closed", "system_id", s.systemID, "bind", s.bound.String(), "reason", reason)
	} else {
		s.log.Debug("connection closed", "reason", reason)
	}
}

// handle processes one PDU; it returns false when the session must end.
func (s *session) handle(id pdu.ID, status, seq uint32, frame []byte) bool {
	if len(frame) > pdu.MaxSize && uint32(id)&0x80000000 == 0 {
		s.op.c.genericNacks.Add(1)
		s.respond(pdu.NewGenericNACK(), seq, StatusInvCmdLen)
		return true
	}
	switch id {
	case pdu.BindTransmitterID, pdu.BindReceiverID, pdu.BindTransceiverID:
		return s.handleBind(id, seq, frame)
	case pdu.SubmitSMID:
		return s.handleSubmit(seq, frame)
	case pdu.DeliverSMRespID, dataSMRespID:
		s.handleDeliverResp(seq, status)
		return true
	case pdu.EnquireLinkID:
		s.op.c.enquireLinks.Add(1)
		s.respond(pdu.NewEnquireLinkResp(), seq, StatusOK)
		return true
	case pdu.UnbindID:
		s.op.c.unbinds.Add(1)
		s.respond(pdu.NewUnbindResp(), seq, StatusOK)
		return false
	case pdu.UnbindRespID:
		return false
	case pdu.GenericNACKID:
		// An ESME that cannot parse our deliver_sm answers generic_nack
		// with its sequence number: a negative response, retried later.
		if s.nackEcho(seq) {
			return true
		}
		if status == StatusOK {
			status = StatusSysErr
		}
		s.handleDeliverResp(seq, status)
		return true
	case pdu.EnquireLinkRespID:
		return true
	}
	if uint32(id)&0x80000000 != 0 {
		// A response to nothing we sent: ignore it.
		return true
	}
	s.op.c.genericNacks.Add(1)
	s.respond(pdu.NewGenericNACK(), seq, StatusInvCmdID)
	return true
}

func (s *session) handleBind(id pdu.ID, seq uint32, frame []byte) bool {
	var resp pdu.Body
	var kind bindKind
	switch id {
	case pdu.BindTransmitterID:
		resp, kind = pdu.NewBindTransmitterResp(), bindTX
	case pdu.BindReceiverID:
		resp, kind = pdu.NewBindReceiverResp(), bindRX
	default:
		resp, kind = pdu.NewBindTransceiverResp(), bindTRX
	}
	if s.bound != unbound {
		s.respond(resp, seq, StatusAlyBnd)
		return true
	}
	p, err := pdu.Decode(bytes.NewReader(frame))
	if err != nil {
		s.op.c.bindFailures.Add(1)
		s.log.Warn("bad bind PDU", "err", err)
		s.respond(resp, seq, StatusBindFail)
		return false
	}
	f := p.Fields()
	sysID, pw := fieldString(f, pdufield.SystemID), fieldString(f, pdufield.Password)
	cfg := &s.srv.cfg
	status := uint32(StatusOK)
	switch {
	case sysID != cfg.SystemID:
		status = StatusBindFail
	case pw != cfg.Password:
		status = StatusInvPaswd
	case !s.op.takeBind(sysID, cfg.MaxBinds):
		status = StatusBindFail // the account's bind quota is used up
	}
	if status != StatusOK {
		s.op.c.bindFailures.Add(1)
		s.log.Warn("bind refused", "system_id", sysID, "bind", kind.String(), "status", status)
		s.respond(resp, seq, status)
		return false
	}
	s.bound, s.systemID = kind, sysID
	s.mb = s.op.mailbox(sysID)
	if cfg.Rate > 0 {
		s.bucket = newBucket(cfg.Rate, cfg.Burst)
	}
	resp.Fields().Set(pdufield.SystemID, s.op.name)
	if fieldByte(f, pdufield.InterfaceVersion) >= 0x34 {
		resp.TLVFields().Set(tagSCInterfaceVer, uint8(0x34))
	}
	s.respond(resp, seq, StatusOK)
	s.op.c.binds.Add(1)
	s.log.Info("bound", "system_id", sysID, "bind", kind.String())
	if kind.canReceive() {
		s.writer = true
		s.mb.attach(s)
		s.srv.wg.Go(s.deliverLoop)
	}
	return true
}

func (s *session) handleSubmit(seq uint32, frame []byte) bool {
	op := s.op
	op.c.submitSM.Add(1)
	resp := pdu.NewSubmitSMResp()
	if !s.bound.canSubmit() {
		op.c.rejected.Add(1)
		s.respond(resp, seq, StatusInvBndSts)
		return true
	}
	now := time.Now()
	if (s.bucket != nil && !s.bucket.allow(now)) || !op.limit.allow(now) {
		op.c.throttled.Add(1)
		s.respond(resp, seq, StatusThrottled)
		return true
	}
	p, err := pdu.Decode(bytes.NewReader(frame))
	if err != nil {
		op.c.rejected.Add(1)
		s.log.Debug("bad submit_sm", "err", err)
		s.respond(resp, seq, StatusInvMsgLen)
		return true
	}
	f := p.Fields()
	rd := fieldByte(f, pdufield.RegisteredDelivery)
	if rd&0x03 != 0 && s.mb.receiptsFull() {
		// The receipts of this system_id are not being consumed: push back
		// rather than drop receipts.
		op.c.throttled.Add(1)
		op.c.queueFull.Add(1)
		s.respond(resp, seq, StatusThrottled)
		return true
	}
	from := fieldString(f, pdufield.SourceAddr)
	to := fieldString(f, pdufield.DestinationAddr)
	esm := fieldByte(f, pdufield.ESMClass)
	dc := fieldByte(f, pdufield.DataCoding)
	sm := fieldBytes(f, pdufield.ShortMessage)
	if len(sm) == 0 {
		if t, ok := p.TLVFields()[pdutlv.TagMessagePayload]; ok {
			sm = t.Bytes()
		}
	}
	if to == "" {
		op.c.rejected.Add(1)
		s.respond(resp, seq, StatusInvDstAdr)
		return true
	}
	pt := &part{
		operator: op.name,
		systemID: s.systemID,
		from:     from,
		to:       to,
		dc:       dc,
		payload:  sm,
		at:       now,
	}
	outcomeKey, ok := concatOf(pt, sm, esm, p.TLVFields())
	if !ok {
		op.c.rejected.Add(1)
		s.respond(resp, seq, StatusInvEsmClass)
		return true
	}
	partNo := 1
	if pt.concatenated {
		partNo = int(pt.c.seq)
	}
	fault, faulty := s.srv.faults.match(to, partNo)
	if faulty && fault.Status != 0 {
		op.c.rejected.Add(1)
		s.respond(resp, seq, fault.Status)
		return true
	}
	n := s.srv.messageID()
	pt.msgID = s.srv.cfg.MessageIDFormat.format(n)
	pt.outcome = s.srv.outcome(from, to, outcomeKey)
	if code, ok := s.srv.blockedErr(op.name, to); ok {
		pt.outcome, pt.err = StatRejected, code
		op.c.blocked.Add(1)
	}
	op.c.accepted.Add(1)
	if s.srv.store.add(pt, sm) {
		op.c.duplicates.Add(1)
	}
	resp.Fields().Set(pdufield.MessageID, poison(pt.msgID, PoisonID, s.srv.cfg.PoisonReceipts[to]))
	if !faulty {
		fault = SubmitFault{}
	}
	s.answerSubmit(resp, seq, fault)
	s.receiptIfAsked(pt, n, f, rd)
	if fault.Disconnect || op.consumeDrop() {
		s.flush()
		op.dropAll("disconnect after submits")
		return false
	}
	return true
}

// answerSubmit answers an accepted submit_sm as its fault says: held until
// ReleaseHeld, after the nack collision (NackEcho), never (DropResponse, and
// Disconnect, whose caller then drops the connections), or now (after the
// operator's response delay).
func (s *session) answerSubmit(resp pdu.Body, seq uint32, fault SubmitFault) {
	switch {
	case fault.HoldResponse:
		s.srv.holdResponse(s, resp, seq)
	case fault.NackEcho:
		if s.echoes == nil {
			s.echoes = map[uint32]pdu.Body{}
		}
		s.echoes[seq] = resp
		s.sendQuerySM(seq)
	case fault.DropResponse, fault.Disconnect:
	default:
		if d := time.Duration(s.op.respDelay.Load()); d > 0 {
			time.AfterFunc(d, func() { s.respond(resp, seq, StatusOK); _ = s.flush() })
		} else {
			s.respond(resp, seq, StatusOK)
		}
	}
}

// receiptIfAsked schedules an accepted part's receipt when its
// registered_delivery rd asks for one (always, or on failure only).
func (s *session) receiptIfAsked(pt *part, n uint64, f pdufield.Map, rd byte) {
	if mode := rd & 0x03; mode == 1 || mode == 2 && pt.outcome != StatDelivered {
		s.scheduleReceipt(pt, n, f)
	}
}

// concatOf reads a part's concatenation (UDH or SAR TLVs) into pt and returns
// the key that gives every part of one message the same outcome; false for a
// malformed UDH.
func concatOf(pt *part, sm []byte, esm byte, tlv pdutlv.Map) ([]byte, bool) {
	if esm&0x40 != 0 {
		_, payload, c, has, ok := splitUDH(sm)
		if !ok {
			return nil, false
		}
		pt.payload = payload
		if !has {
			return sm, true
		}
		pt.c, pt.concatenated = c, true
	} else if c, ok := sarConcat(tlv); ok {
		pt.c, pt.concatenated = c, true
	} else {
		return sm, true
	}
	return []byte{byte(pt.c.ref >> 8), byte(pt.c.ref), pt.c.total}, true
}

// sarConcat reads the SAR TLVs, the TLV form of concatenation.
func sarConcat(t pdutlv.Map) (concat, bool) {
	ref, ok1 := t[pdutlv.TagSarMsgRefNum]
	total, ok2 := t[pdutlv.TagSarTotalSegments]
	seq, ok3 := t[pdutlv.TagSarSegmentSeqnum]
	if !ok1 || !ok2 || !ok3 {
		return concat{}, false
	}
	r, tt, sq := ref.Bytes(), total.Bytes(), seq.Bytes()
	if len(r) != 2 || len(tt) != 1 || len(sq) != 1 || tt[0] == 0 || sq[0] == 0 || sq[0] > tt[0] {
		return concat{}, false
	}
	return concat{ref: binary.BigEndian.Uint16(r), wide: true, total: tt[0], seq: sq[0]}, true
}

func (s *session) scheduleReceipt(pt *part, n uint64, f pdufield.Map) {
	srv := s.srv
	delay := srv.receiptDelay()
	r := receipt{
		msgID:    pt.msgID,
		textID:   srv.cfg.ReceiptTextIDFormat.format(n),
		handset:  pt.to,
		handTON:  fieldByte(f, pdufield.DestAddrTON),
		handNPI:  fieldByte(f, pdufield.DestAddrNPI),
		esme:     pt.from,
		esmeTON:  fieldByte(f, pdufield.SourceAddrTON),
		esmeNPI:  fieldByte(f, pdufield.SourceAddrNPI),
		submitAt: pt.at,
		doneAt:   pt.at.Add(delay),
		stat:     pt.outcome,
		err:      pt.err,
		snippet:  receiptSnippet(pt.dc, pt.payload, receiptSnippetChars),
		location: srv.cfg.Location,
	}
	r.poison = srv.cfg.PoisonReceipts[pt.to]
	raw, err := r.encode()
	if err == nil && srv.cfg.DataSM {
		raw, err = asDataSM(raw)
	}
	if err != nil {
		s.log.Error("encode receipt", "err", err)
		return
	}
	it := &item{kind: kindReceipt, mb: s.mb, raw: raw}
	s.mb.admit(kindReceipt)
	s.op.c.receiptsGenerated.Add(1)
	if delay <= 0 {
		s.mb.enqueue(it, false)
		return
	}
	srv.sched.add(r.doneAt, it, false)
}

func (s *session) handleDeliverResp(seq, status uint32) {
	if s.mb == nil || !s.bound.canReceive() {
		return
	}
	it, ok := s.mb.ack(s, seq, status)
	if !ok {
		s.log.Debug("deliver_sm_resp for no outstanding deliver_sm", "seq", seq)
		return
	}
	s.op.c.acked(it.kind, status == StatusOK)
	if status != StatusOK {
		// The ESME refused it (e.g. ESME_RX_T_APPN): retry later.
		s.srv.sched.add(time.Now().Add(s.srv.cfg.RetryTimeout), it, true)
	}
}

// deliverLoop is the session's writer goroutine for deliver_sm.
func (s *session) deliverLoop() {
	defer close(s.writerDone)
	tick := min(s.srv.cfg.RetryTimeout/4, 500*time.Millisecond)
	tick = max(tick, 5*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	batch := make([]outPDU, 0, 64)
	for {
		select {
		case <-s.done:
			return
		case <-s.wake:
		case now := <-t.C:
			s.mb.expire(s, now)
		}
		for {
			batch = s.mb.take(s, time.Now(), batch[:0])
			if len(batch) == 0 {
				break
			}
			if !s.writeDeliver(batch) {
				s.close()
				return
			}
			clear(batch)
		}
	}
}

func (s *session) writeDeliver(batch []outPDU) bool {
	s.wmu.Lock()
	var hdr [pdu.HeaderLen]byte
	for _, it := range batch {
		if s.werr != nil {
			break
		}
		copy(hdr[:], it.raw[:pdu.HeaderLen])
		binary.BigEndian.PutUint32(hdr[12:16], it.seq)
		s.bufWriteLocked(hdr[:])
		s.bufWriteLocked(it.raw[pdu.HeaderLen:])
	}
	if s.werr == nil {
		s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		s.werr = s.bw.Flush()
	}
	err := s.werr
	s.wmu.Unlock()
	return err == nil
}

// bucket is a token bucket limiting accepted submit_sm per bind.
type bucket struct {
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newBucket(rate float64, burst int) *bucket {
	return &bucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: time.Now()}
}

func (b *bucket) allow(now time.Time) bool {
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = min(b.burst, b.tokens+el*b.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}
