package smscsim

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

func TestBindWrongCredentials(t *testing.T) {
	srv := startSim(t, Config{})
	addr := srv.Addr("mci")

	e := dialESME(t, addr, true)
	if st := e.bind(pdu.BindTransceiverID, "chapar", "wrong"); st != StatusInvPaswd {
		t.Fatalf("wrong password: status %#x, want ESME_RINVPASWD", uint32(st))
	}
	e.waitClosed(waitLong)

	e = dialESME(t, addr, true)
	if st := e.bind(pdu.BindTransmitterID, "nobody", "secret"); st != StatusBindFail {
		t.Fatalf("wrong system_id: status %#x, want ESME_RBINDFAIL", uint32(st))
	}
	e.waitClosed(waitLong)

	e = dialESME(t, addr, true)
	if st := e.bind(pdu.BindReceiverID, "chapar", "secret"); st != 0 {
		t.Fatalf("good bind: status %#x", uint32(st))
	}
	// A second bind on a bound session is refused, the session stays.
	if st := e.bind(pdu.BindTransmitterID, "chapar", "secret"); st != StatusAlyBnd {
		t.Fatalf("rebind: status %#x, want ESME_RALYBND", uint32(st))
	}
	// A receiver may not submit.
	if _, st := e.submit(submitPDU("3000", "989121234567", 0, 0, 0, []byte("x"))); st != StatusInvBndSts {
		t.Fatalf("submit on receiver: status %#x, want ESME_RINVBNDSTS", uint32(st))
	}
	st := srv.Stats().Operators["mci"]
	if st.BindFailures != 2 || st.Binds != 1 {
		t.Fatalf("binds %d failures %d, want 1 and 2", st.Binds, st.BindFailures)
	}
}

func TestSubmitBeforeBindAndUnknownCommand(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("irancell"), true)
	if _, st := e.submit(submitPDU("3000", "989351234567", 0, 0, 0, []byte("x"))); st != StatusInvBndSts {
		t.Fatalf("submit before bind: status %#x", uint32(st))
	}
	// enquire_link works in any state.
	seq := e.send(pdu.NewEnquireLink())
	if r := e.resp(waitLong); r.Header().ID != pdu.EnquireLinkRespID || r.Header().Seq != seq {
		t.Fatalf("enquire_link: got %s seq %d", r.Header().ID, r.Header().Seq)
	}
	// An unknown command (and an unsupported one, query_sm) get generic_nack.
	for _, id := range []uint32{0x00000099, uint32(pdu.QuerySMID)} {
		var raw [16]byte
		binary.BigEndian.PutUint32(raw[0:], 16)
		binary.BigEndian.PutUint32(raw[4:], id)
		binary.BigEndian.PutUint32(raw[12:], 77)
		e.writeBytes(raw[:])
		r := e.resp(waitLong)
		if r.Header().ID != pdu.GenericNACKID || r.Header().Seq != 77 || r.Header().Status != StatusInvCmdID {
			t.Fatalf("command %#x: got %s seq %d status %#x", id, r.Header().ID, r.Header().Seq, uint32(r.Header().Status))
		}
	}
	e.mustBind(srv)
	seq = e.send(pdu.NewUnbind())
	if r := e.resp(waitLong); r.Header().ID != pdu.UnbindRespID || r.Header().Seq != seq {
		t.Fatalf("unbind: got %s", r.Header().ID)
	}
	e.waitClosed(waitLong)
}

func TestDisconnectInjection(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	other := dialESME(t, srv.Addr("irancell"), true)
	other.mustBind(srv)

	if code := httpJSON(t, srv, "POST", "/control/disconnect", `{"operator":"mci","after":3}`, nil); code != 200 {
		t.Fatalf("POST /control/disconnect: %d", code)
	}
	for i := range 3 {
		if _, st := e.submit(submitPDU("3000", fmt.Sprintf("9891200000%02d", i), 0, 0, 0, []byte("x"))); st != 0 {
			t.Fatalf("submit %d: %#x", i, uint32(st))
		}
	}
	e.waitClosed(waitLong)
	st := srv.Stats()
	if st.Operators["mci"].Accepted != 3 || st.Operators["mci"].Disconnects != 1 {
		t.Fatalf("mci %+v", st.Operators["mci"])
	}
	// Other operators are untouched.
	if _, s := other.submit(submitPDU("3000", "989351234567", 0, 0, 0, []byte("x"))); s != 0 {
		t.Fatalf("irancell: %#x", uint32(s))
	}

	// Reconnect, then drop now through the API.
	e = dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	if err := srv.Disconnect("mci", 0); err != nil {
		t.Fatal(err)
	}
	e.waitClosed(waitLong)
	if err := srv.Disconnect("nope", 0); err == nil {
		t.Fatal("unknown operator accepted")
	}

	// An outage refuses connections for a while.
	if code := httpJSON(t, srv, "POST", "/control/disconnect", `{"operator":"irancell","down_ms":1000}`, nil); code != 200 {
		t.Fatalf("outage: %d", code)
	}
	other.waitClosed(waitLong)
	refused := dialESME(t, srv.Addr("irancell"), true)
	refused.waitClosed(waitLong)
	time.Sleep(1100 * time.Millisecond)
	back := dialESME(t, srv.Addr("irancell"), true)
	back.mustBind(srv)
}

// A disconnect fault accepts the part, then drops the connection before
// answering it: no submit_sm_resp comes, the part is stored, its receipt
// comes on the next bind, and past Times the destination is answered again.
func TestDisconnectFault(t *testing.T) {
	const cut = "989120000150"
	srv := startSim(t, Config{SubmitFaults: []SubmitFault{{Dest: cut, Disconnect: true, Times: 1}}})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	if _, st := e.submit(submitPDU("3000", "989120000149", 0, 0, 0, []byte("x"))); st != 0 {
		t.Fatalf("submit before the fault: %#x", uint32(st))
	}
	e.send(submitPDU("3000", cut, 0, 0, 1, []byte("held")))
	e.waitClosed(waitLong)
	select {
	case r := <-e.resps:
		t.Fatalf("the cut part was answered: %s status %#x", r.Header().ID, r.Header().Status)
	default:
	}
	st := srv.Stats().Operators["mci"]
	if st.Accepted != 2 || st.Disconnects != 1 {
		t.Fatalf("mci %+v", st)
	}
	if got := srv.Messages(cut); len(got) != 1 || got[0].Text != "held" {
		t.Fatalf("handset %s received %+v", cut, got)
	}

	back := dialESME(t, srv.Addr("mci"), true)
	back.mustBind(srv)
	d := back.req(waitLong)
	if d.Header().ID != pdu.DeliverSMID || fieldString(d.Fields(), pdufield.SourceAddr) != cut {
		t.Fatalf("after the cut: %s from %q, want the cut part's receipt", d.Header().ID, fieldString(d.Fields(), pdufield.SourceAddr))
	}
	if _, st := back.submit(submitPDU("3000", cut, 0, 0, 0, []byte("again"))); st != 0 {
		t.Fatalf("submit past Times: %#x", uint32(st))
	}
}

func TestCloseStopsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, err := Start(context.Background(), Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	e.submit(submitPDU("3000", "989120000001", 0, 0, 1, []byte("x")))
	e.req(waitLong)
	srv.Close()
	// Bound sessions get an unbind on shutdown.
	if r := e.req(waitLong); r.Header().ID != pdu.UnbindID {
		t.Fatalf("got %s, want unbind", r.Header().ID)
	}
	e.waitClosed(waitLong)
	e.conn.Close()
	http.DefaultClient.CloseIdleConnections()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before }, "goroutines to end")
}
