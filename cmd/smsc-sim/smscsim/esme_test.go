package smscsim

import (
	"bufio"
	"bytes"
	"github.com/chapar/chapar/pkg/sms"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutlv"
)

// startSim starts a simulator for a test and closes it at the end.
func startSim(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	srv, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// testESME is a minimal SMPP client built on the pdu codec: it keeps
// responses and requests from the SMSC apart and may acknowledge deliver_sm
// automatically.
type testESME struct {
	t       testing.TB
	conn    net.Conn
	wmu     sync.Mutex
	seq     atomic.Uint32
	resps   chan pdu.Body
	reqs    chan pdu.Body
	closed  chan struct{}
	autoAck bool
}

func dialESME(t testing.TB, addr string, autoAck bool) *testESME {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	e := &testESME{
		t:       t,
		conn:    conn,
		resps:   make(chan pdu.Body, 4096),
		reqs:    make(chan pdu.Body, 4096),
		closed:  make(chan struct{}),
		autoAck: autoAck,
	}
	t.Cleanup(func() { conn.Close() })
	go e.readLoop()
	return e
}

func (e *testESME) readLoop() {
	defer close(e.closed)
	br := bufio.NewReader(e.conn)
	for {
		p, err := pdu.Decode(br)
		if err != nil {
			return
		}
		h := p.Header()
		if uint32(h.ID)&0x80000000 != 0 {
			e.resps <- p
			continue
		}
		switch h.ID {
		case pdu.DeliverSMID:
			if e.autoAck {
				e.respond(pdu.NewDeliverSMResp(), h.Seq, 0)
			}
		case pdu.EnquireLinkID:
			e.respond(pdu.NewEnquireLinkResp(), h.Seq, 0)
			continue
		}
		e.reqs <- p
	}
}

func (e *testESME) writeBytes(b []byte) {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.conn.Write(b)
}

func (e *testESME) send(p pdu.Body) uint32 {
	seq := e.seq.Add(1)
	b, err := encode(p, seq, 0)
	if err != nil {
		e.t.Fatalf("encode: %v", err)
	}
	e.writeBytes(b)
	return seq
}

func (e *testESME) respond(p pdu.Body, seq, status uint32) {
	b, err := encode(p, seq, status)
	if err != nil {
		e.t.Errorf("encode: %v", err)
		return
	}
	e.writeBytes(b)
}

func (e *testESME) resp(timeout time.Duration) pdu.Body {
	e.t.Helper()
	select {
	case p := <-e.resps:
		return p
	case <-time.After(timeout):
		e.t.Fatalf("no response within %v", timeout)
	}
	return nil
}

func (e *testESME) req(timeout time.Duration) pdu.Body {
	e.t.Helper()
	select {
	case p := <-e.reqs:
		return p
	case <-time.After(timeout):
		e.t.Fatalf("no request from the SMSC within %v", timeout)
	}
	return nil
}

// noReq asserts that the SMSC sends nothing for d.
func (e *testESME) noReq(d time.Duration) {
	e.t.Helper()
	select {
	case p := <-e.reqs:
		e.t.Fatalf("unexpected %s seq %d", p.Header().ID, p.Header().Seq)
	case <-time.After(d):
	}
}

func (e *testESME) waitClosed(timeout time.Duration) {
	e.t.Helper()
	select {
	case <-e.closed:
	case <-time.After(timeout):
		e.t.Fatalf("connection not closed within %v", timeout)
	}
}

func (e *testESME) bind(id pdu.ID, systemID, password string) pdu.Status {
	e.t.Helper()
	var p pdu.Body
	switch id {
	case pdu.BindTransmitterID:
		p = pdu.NewBindTransmitter()
	case pdu.BindReceiverID:
		p = pdu.NewBindReceiver()
	default:
		p = pdu.NewBindTransceiver()
	}
	f := p.Fields()
	f.Set(pdufield.SystemID, systemID)
	f.Set(pdufield.Password, password)
	f.Set(pdufield.InterfaceVersion, uint8(0x34))
	seq := e.send(p)
	r := e.resp(waitLong)
	if r.Header().Seq != seq || r.Header().ID != id|0x80000000 {
		e.t.Fatalf("bind: got %s seq %d, want resp to seq %d", r.Header().ID, r.Header().Seq, seq)
	}
	return r.Header().Status
}

func (e *testESME) mustBind(srv *Server) {
	e.t.Helper()
	if st := e.bind(pdu.BindTransceiverID, srv.SystemID(), srv.Password()); st != 0 {
		e.t.Fatalf("bind status %#x", uint32(st))
	}
}

// submitPDU builds a submit_sm.
func submitPDU(from, to string, esm, dc, rd uint8, sm []byte) pdu.Body {
	p := pdu.NewSubmitSM(nil)
	f := p.Fields()
	f.Set(pdufield.SourceAddrTON, uint8(5))
	f.Set(pdufield.SourceAddr, from)
	f.Set(pdufield.DestAddrTON, uint8(1))
	f.Set(pdufield.DestAddrNPI, uint8(1))
	f.Set(pdufield.DestinationAddr, to)
	f.Set(pdufield.ESMClass, esm)
	f.Set(pdufield.RegisteredDelivery, rd)
	f.Set(pdufield.ShortMessage, sm)
	f.Set(pdufield.DataCoding, dc)
	return p
}

// submit sends a submit_sm and waits for its response.
func (e *testESME) submit(p pdu.Body) (msgID string, status pdu.Status) {
	e.t.Helper()
	seq := e.send(p)
	r := e.resp(waitLong)
	if r.Header().ID != pdu.SubmitSMRespID || r.Header().Seq != seq {
		e.t.Fatalf("submit: got %s seq %d, want submit_sm_resp seq %d", r.Header().ID, r.Header().Seq, seq)
	}
	return fieldString(r.Fields(), pdufield.MessageID), r.Header().Status
}

// gsm7 encodes a single-part GSM 7-bit text as unpacked septets.
func gsm7(s string) []byte {
	ps, err := sms.Split(s, 0)
	if err != nil || len(ps) != 1 || ps[0].DataCoding() != codingGSM7 {
		panic("gsm7: not a single GSM 7-bit part: " + s)
	}
	return ps[0].Payload
}

func tlv(p pdu.Body, tag pdutlv.Tag) []byte {
	if v, ok := p.TLVFields()[tag]; ok {
		return v.Bytes()
	}
	return nil
}

func cstring(b []byte) string {
	return string(bytes.TrimRight(b, "\x00"))
}
