package smpp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutlv"
)

// testSMSC is a minimal SMSC for the session tests, built on the go-smpp
// codec. Like a real SMSC it numbers its own PDUs per connection from 1, so
// its deliver_sm sequence numbers collide with the client's outstanding
// submit_sm numbers.

type smscAction struct {
	status      Status
	noReply     bool          // never answer this submit_sm
	delay       time.Duration // answer after this long
	drop        bool          // close the connection instead of answering
	genericNack bool          // answer with generic_nack
	noReceipt   bool
}

type smscSubmit struct {
	conn   *smscConn
	n      int64 // global submit counter, from 1
	seq    uint32
	dest   string
	text   []byte
	source Address
	esm    uint8
	dc     uint8
	rd     uint8
}

type smscOptions struct {
	password string
	// receipts sends a delivery receipt for every accepted submit_sm with
	// registered_delivery set, interleaved with the responses: before the
	// submit_sm_resp, right after it, or after a short delay.
	receipts bool
	onSubmit func(s smscSubmit) smscAction
	// ackCheck is called when the client acknowledges a receipt with
	// ESME_ROK; returning false records an ordering violation.
	ackCheck func(messageID string) bool
	// enquireEvery makes the SMSC send its own enquire_link.
	enquireEvery time.Duration
	// ignoreEnquire leaves the client's enquire_link unanswered on the
	// connection with the given index (0-based).
	ignoreEnquire func(connIndex int) bool
	// redeliverDelay is the pause before a NACKed deliver_sm is resent.
	redeliverDelay time.Duration
}

type pendingDeliver struct {
	messageID string
	payload   []byte
	attempt   int
}

type testSMSC struct {
	t    testing.TB
	ln   net.Listener
	opts smscOptions

	conns       atomic.Int32
	binds       atomic.Int32
	submits     atomic.Int64
	enquireRecv atomic.Int64
	enquireResp atomic.Int64
	unbindRecv  atomic.Int64
	unbindResp  atomic.Int64
	collisions  atomic.Int64
	redelivered atomic.Int64
	receiptsOut atomic.Int64

	mu         sync.Mutex
	accepted   map[string]string // message id -> destination
	acked      map[string]int    // message id -> receipts acknowledged ESME_ROK
	nacks      map[string]int    // message id -> receipts answered with an error
	violations []string
	live       []*smscConn
}

func newTestSMSC(t testing.TB, opts smscOptions) *testSMSC {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	if opts.redeliverDelay == 0 {
		opts.redeliverDelay = 5 * time.Millisecond
	}
	s := &testSMSC{t: t, ln: ln, opts: opts, accepted: map[string]string{}, acked: map[string]int{}, nacks: map[string]int{}}
	go s.acceptLoop()
	t.Cleanup(s.close)
	return s
}

func (s *testSMSC) addr() string { return s.ln.Addr().String() }

func (s *testSMSC) close() {
	_ = s.ln.Close()
	s.mu.Lock()
	live := s.live
	s.live = nil
	s.mu.Unlock()
	for _, c := range live {
		c.close()
	}
}

func (s *testSMSC) acceptLoop() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		c := &smscConn{srv: s, conn: conn, index: int(s.conns.Add(1)) - 1,
			kick: make(chan struct{}, 1), done: make(chan struct{}),
			clientInflight: map[uint32]bool{}, delivers: map[uint32]pendingDeliver{}}
		s.mu.Lock()
		s.live = append(s.live, c)
		s.mu.Unlock()
		go c.writeLoop()
		go c.readLoop()
	}
}

// dropAll closes every live connection without unbinding.
func (s *testSMSC) dropAll() {
	s.mu.Lock()
	live := s.live
	s.mu.Unlock()
	for _, c := range live {
		c.close()
	}
}

func (s *testSMSC) violation(format string, args ...any) {
	s.mu.Lock()
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

type smscConn struct {
	srv   *testSMSC
	conn  net.Conn
	index int
	seq   atomic.Uint32
	kick  chan struct{}
	done  chan struct{}
	once  sync.Once

	mu             sync.Mutex
	out            []byte
	clientInflight map[uint32]bool // client submit_sm seqs not yet answered
	delivers       map[uint32]pendingDeliver
	bound          bool
}

func (c *smscConn) close() {
	c.once.Do(func() {
		close(c.done)
		_ = c.conn.Close()
	})
}

func (c *smscConn) nextSeq() uint32 { return c.seq.Add(1) }

func (c *smscConn) enqueue(b []byte) {
	c.mu.Lock()
	c.out = append(c.out, b...)
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *smscConn) writeLoop() {
	var buf []byte
	for {
		select {
		case <-c.done:
			return
		case <-c.kick:
		}
		c.mu.Lock()
		buf, c.out = c.out, buf[:0]
		c.mu.Unlock()
		if len(buf) > 0 {
			if _, err := c.conn.Write(buf); err != nil {
				c.close()
				return
			}
		}
	}
}

func (c *smscConn) send(p pdu.Body, seq uint32, status Status) {
	var b bytes.Buffer
	p.Header().Seq = seq
	p.Header().Status = pdu.Status(status)
	if err := p.SerializeTo(&b); err != nil {
		c.srv.t.Errorf("smsc: encode %s: %v", p.Header().ID, err)
		return
	}
	c.enqueue(b.Bytes())
}

func (c *smscConn) readLoop() {
	defer c.close()
	fr := newFrameReader(c.conn)
	for {
		f, err := fr.next()
		if err != nil {
			return
		}
		switch f.id {
		case pdu.BindTransceiverID, pdu.BindTransmitterID, pdu.BindReceiverID:
			p, err := f.decode()
			if err != nil {
				c.srv.t.Errorf("smsc: decode bind: %v", err)
				return
			}
			status := StatusOK
			if c.srv.opts.password != "" && p.Fields()[pdufield.Password].String() != c.srv.opts.password {
				status = StatusInvalidPassword
			}
			resp := pdu.NewBindTransceiverResp()
			switch f.id {
			case pdu.BindTransmitterID:
				resp = pdu.NewBindTransmitterResp()
			case pdu.BindReceiverID:
				resp = pdu.NewBindReceiverResp()
			}
			_ = resp.Fields().Set(pdufield.SystemID, "testsmsc")
			c.send(resp, f.seq, status)
			if status != StatusOK {
				time.Sleep(20 * time.Millisecond) // let the writer flush
				return
			}
			c.srv.binds.Add(1)
			c.mu.Lock()
			c.bound = true
			c.mu.Unlock()
			if every := c.srv.opts.enquireEvery; every > 0 {
				go c.enquireLoop(every)
			}
		case pdu.SubmitSMID:
			c.onSubmit(f)
		case pdu.DeliverSMRespID:
			c.onDeliverResp(f)
		case pdu.EnquireLinkID:
			c.srv.enquireRecv.Add(1)
			if ig := c.srv.opts.ignoreEnquire; ig != nil && ig(c.index) {
				continue
			}
			c.send(pdu.NewEnquireLinkResp(), f.seq, StatusOK)
		case pdu.EnquireLinkRespID:
			c.srv.enquireResp.Add(1)
		case pdu.UnbindID:
			c.srv.unbindRecv.Add(1)
			c.send(pdu.NewUnbindResp(), f.seq, StatusOK)
			time.Sleep(20 * time.Millisecond) // let the writer flush
			return
		case pdu.UnbindRespID:
			c.srv.unbindResp.Add(1)
			return
		default:
			c.srv.t.Errorf("smsc: unexpected PDU %s", f.id)
		}
	}
}

func (c *smscConn) enquireLoop(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			c.send(pdu.NewEnquireLink(), c.nextSeq(), StatusOK)
		}
	}
}

// sendUnbind makes the SMSC end the session.
func (c *smscConn) sendUnbind() { c.send(pdu.NewUnbind(), c.nextSeq(), StatusOK) }

func (c *smscConn) onSubmit(f frame) {
	srv := c.srv
	p, err := f.decode()
	if err != nil {
		srv.t.Errorf("smsc: decode submit_sm: %v", err)
		return
	}
	fl := p.Fields()
	fixed := func(k pdufield.Name) uint8 { return fl[k].(*pdufield.Fixed).Data }
	si := smscSubmit{
		conn:   c,
		n:      srv.submits.Add(1),
		seq:    f.seq,
		dest:   fl[pdufield.DestinationAddr].String(),
		text:   fl[pdufield.ShortMessage].Bytes(),
		source: Address{Addr: fl[pdufield.SourceAddr].String(), TON: fixed(pdufield.SourceAddrTON), NPI: fixed(pdufield.SourceAddrNPI)},
		esm:    fixed(pdufield.ESMClass),
		dc:     fixed(pdufield.DataCoding),
		rd:     fixed(pdufield.RegisteredDelivery),
	}
	c.mu.Lock()
	c.clientInflight[f.seq] = true
	c.mu.Unlock()
	var act smscAction
	if srv.opts.onSubmit != nil {
		act = srv.opts.onSubmit(si)
	}
	switch {
	case act.drop:
		time.Sleep(20 * time.Millisecond) // let earlier responses reach the client
		c.close()
		return
	case act.noReply:
		return
	}
	answer := func() {
		c.mu.Lock()
		delete(c.clientInflight, si.seq)
		c.mu.Unlock()
		if act.genericNack {
			c.send(pdu.NewGenericNACK(), si.seq, StatusInvalidCmdID)
			return
		}
		resp := pdu.NewSubmitSMResp()
		if act.status != StatusOK {
			c.send(resp, si.seq, act.status)
			return
		}
		v := uint64(si.n) + 0x1F000
		id := fmt.Sprintf("%010X", v) // hex with leading zeros, like many SMSCs
		_ = resp.Fields().Set(pdufield.MessageID, id)
		srv.mu.Lock()
		srv.accepted[id] = si.dest
		srv.mu.Unlock()
		if !srv.opts.receipts || act.noReceipt || si.rd == 0 {
			c.send(resp, si.seq, StatusOK)
			return
		}
		switch si.n % 3 {
		case 0: // receipt overtakes the response
			c.sendReceipt(si, id, v)
			c.send(resp, si.seq, StatusOK)
		case 1:
			c.send(resp, si.seq, StatusOK)
			c.sendReceipt(si, id, v)
		default:
			c.send(resp, si.seq, StatusOK)
			time.AfterFunc(time.Duration(si.n%7)*time.Millisecond, func() { c.sendReceipt(si, id, v) })
		}
	}
	if act.delay > 0 {
		time.AfterFunc(act.delay, answer)
		return
	}
	answer()
}

// sendReceipt sends a standard receipt: text with the id in decimal, and on
// every other message also the TLVs with the id in hex as returned in
// submit_sm_resp.
func (c *smscConn) sendReceipt(si smscSubmit, hexID string, v uint64) {
	text := fmt.Sprintf("id:%s sub:001 dlvrd:001 submit date:2406011230 done date:2406011231 stat:DELIVRD err:000 text:%.20s",
		strconv.FormatUint(v, 10), si.text)
	var tlvs []TLV
	if si.n%2 == 0 {
		tlvs = []TLV{{TagReceiptedMessageID, append([]byte(hexID), 0)}, {TagMessageState, []byte{2}}}
	}
	b := encodeTestDeliver(0, Address{Addr: si.dest, TON: 1, NPI: 1}, si.source, ESMClassSMSCReceipt, 0, []byte(text), tlvs)
	c.srv.receiptsOut.Add(1)
	c.deliver(hexID, b, 1)
}

// deliver sends an encoded deliver_sm (sequence number patched in) and
// remembers it until the client answers.
func (c *smscConn) deliver(messageID string, b []byte, attempt int) {
	seq := c.nextSeq()
	binary.BigEndian.PutUint32(b[12:16], seq)
	c.mu.Lock()
	if c.clientInflight[seq] {
		c.srv.collisions.Add(1)
	}
	c.delivers[seq] = pendingDeliver{messageID: messageID, payload: b, attempt: attempt}
	c.mu.Unlock()
	c.enqueue(b)
}

func (c *smscConn) onDeliverResp(f frame) {
	c.mu.Lock()
	pd, ok := c.delivers[f.seq]
	delete(c.delivers, f.seq)
	c.mu.Unlock()
	if !ok {
		c.srv.violation("deliver_sm_resp for unknown seq %d", f.seq)
		return
	}
	srv := c.srv
	if f.status == StatusOK {
		if srv.opts.ackCheck != nil && !srv.opts.ackCheck(pd.messageID) {
			srv.violation("deliver_sm_resp for %s before the handler returned", pd.messageID)
		}
		srv.mu.Lock()
		srv.acked[pd.messageID]++
		srv.mu.Unlock()
		return
	}
	srv.mu.Lock()
	srv.nacks[pd.messageID]++
	srv.mu.Unlock()
	if f.status == StatusAppNackTemporary {
		srv.redelivered.Add(1)
		b := append([]byte(nil), pd.payload...)
		time.AfterFunc(srv.opts.redeliverDelay, func() { c.deliver(pd.messageID, b, pd.attempt+1) })
	}
}

// encodeTestDeliver builds a deliver_sm with the codec. The codec's own
// deliver_sm encoder writes a stray UDH-length octet before short_message,
// so the PDU is built with the identical submit_sm layout and its command id
// patched.
func encodeTestDeliver(seq uint32, src, dst Address, esm, dc uint8, sm []byte, tlvs []TLV) []byte {
	p := pdu.NewSubmitSM(nil)
	p.Header().Seq = seq
	f := p.Fields()
	_ = f.Set(pdufield.SourceAddrTON, src.TON)
	_ = f.Set(pdufield.SourceAddrNPI, src.NPI)
	_ = f.Set(pdufield.SourceAddr, src.Addr)
	_ = f.Set(pdufield.DestAddrTON, dst.TON)
	_ = f.Set(pdufield.DestAddrNPI, dst.NPI)
	_ = f.Set(pdufield.DestinationAddr, dst.Addr)
	_ = f.Set(pdufield.ESMClass, esm)
	_ = f.Set(pdufield.DataCoding, dc)
	_ = f.Set(pdufield.ShortMessage, sm)
	for _, t := range tlvs {
		_ = p.TLVFields().Set(pdutlv.Tag(t.Tag), t.Value)
	}
	var b bytes.Buffer
	if err := p.SerializeTo(&b); err != nil {
		panic(err)
	}
	out := b.Bytes()
	binary.BigEndian.PutUint32(out[4:8], uint32(pdu.DeliverSMID))
	return out
}

// liveConn returns the newest connection that has bound.
func (s *testSMSC) liveConn() *smscConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.live) - 1; i >= 0; i-- {
		c := s.live[i]
		c.mu.Lock()
		bound := c.bound
		c.mu.Unlock()
		if bound {
			return c
		}
	}
	return nil
}

func (s *testSMSC) snapshot() (accepted, acked, nacks map[string]int, violations []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	accepted = map[string]int{}
	for k := range s.accepted {
		accepted[k] = 1
	}
	acked, nacks = map[string]int{}, map[string]int{}
	for k, v := range s.acked {
		acked[k] = v
	}
	for k, v := range s.nacks {
		nacks[k] = v
	}
	return accepted, acked, nacks, append([]string(nil), s.violations...)
}
