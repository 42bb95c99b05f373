package smscsim

import (
	"fmt"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

func TestMOInjection(t *testing.T) {
	srv := startSim(t, Config{})
	// A transmitter must not get MO.
	tx := dialESME(t, srv.Addr("mci"), true)
	if st := tx.bind(pdu.BindTransmitterID, "chapar", "secret"); st != 0 {
		t.Fatalf("bind tx %#x", uint32(st))
	}
	e := dialESME(t, srv.Addr("mci"), false)
	e.mustBind(srv)

	if code := httpJSON(t, srv, "POST", "/mo", `{"operator":"mci","from":"989121234567","to":"30001234","text":"11"}`, nil); code != 202 {
		t.Fatalf("POST /mo: %d", code)
	}
	d := e.req(waitLong)
	f := d.Fields()
	if d.Header().ID != pdu.DeliverSMID || fieldByte(f, pdufield.ESMClass) != 0 || fieldByte(f, pdufield.DataCoding) != 0 ||
		string(fieldBytes(f, pdufield.ShortMessage)) != "11" || fieldString(f, pdufield.SourceAddr) != "989121234567" ||
		fieldString(f, pdufield.DestinationAddr) != "30001234" {
		t.Fatalf("MO deliver_sm %v", f)
	}
	if d.Header().Seq != 1 {
		t.Fatalf("first deliver_sm seq %d, want 1", d.Header().Seq)
	}
	e.respond(pdu.NewDeliverSMResp(), d.Header().Seq, 0)

	// Persian goes as UCS-2, long Persian as concatenated parts.
	if _, err := srv.InjectMO(MO{Operator: "mci", From: "989121234567", To: "30001234", Text: "لغو۱۱"}); err != nil {
		t.Fatal(err)
	}
	d = e.req(waitLong)
	if fieldByte(d.Fields(), pdufield.DataCoding) != 8 || decodeText(codingUCS2, fieldBytes(d.Fields(), pdufield.ShortMessage)) != "لغو۱۱" {
		t.Fatalf("UCS-2 MO %v", d.Fields())
	}
	e.respond(pdu.NewDeliverSMResp(), d.Header().Seq, 0)

	long := persianText(100)
	n, err := srv.InjectMO(MO{Operator: "mci", From: "989121234567", To: "30001234", Text: long})
	if err != nil || n != 2 {
		t.Fatalf("long MO: %d parts, %v", n, err)
	}
	var got []uint16
	for range 2 {
		d = e.req(waitLong)
		f := d.Fields()
		if fieldByte(f, pdufield.ESMClass) != 0x40 {
			t.Fatalf("esm_class %#x", fieldByte(f, pdufield.ESMClass))
		}
		// go-smpp's decoder strips the UDH into gsm_sms_ud.udh.
		udh, ok := f[pdufield.GSMUserData].(*pdufield.UDHList)
		if !ok || len(udh.Data) != 1 || udh.Data[0].IEI.Data != 0 {
			t.Fatalf("UDH %v", f[pdufield.GSMUserData])
		}
		sm := fieldBytes(f, pdufield.ShortMessage)
		for i := 0; i+1 < len(sm); i += 2 {
			got = append(got, uint16(sm[i])<<8|uint16(sm[i+1]))
		}
		e.respond(pdu.NewDeliverSMResp(), d.Header().Seq, 0)
	}
	if string(utf16.Decode(got)) != long {
		t.Fatalf("long MO reassembled to %q", string(utf16.Decode(got)))
	}
	waitFor(t, func() bool { st := srv.Stats().Operators["mci"]; return st.MOAcked == 4 && st.MOPending == 0 }, "MO acked")
	tx.noReq(100 * time.Millisecond)

	if code := httpJSON(t, srv, "POST", "/mo", `{"operator":"nope","from":"1","to":"2","text":"x"}`, nil); code != 404 {
		t.Fatalf("unknown operator: %d", code)
	}
}

func TestMOWaitsForReceiver(t *testing.T) {
	srv := startSim(t, Config{})
	if _, err := srv.InjectMO(MO{Operator: "rightel", From: "989211234567", To: "3000", Text: "12"}); err != nil {
		t.Fatal(err)
	}
	if p := srv.Stats().Operators["rightel"].MOPending; p != 1 {
		t.Fatalf("pending %d", p)
	}
	e := dialESME(t, srv.Addr("rightel"), true)
	if st := e.bind(pdu.BindReceiverID, "chapar", "secret"); st != 0 {
		t.Fatalf("bind rx %#x", uint32(st))
	}
	d := e.req(waitLong)
	if string(fieldBytes(d.Fields(), pdufield.ShortMessage)) != "12" {
		t.Fatalf("MO %v", d.Fields())
	}
	waitFor(t, func() bool { return srv.Stats().Operators["rightel"].MOPending == 0 }, "MO acked")
}

func TestUnackedReceiptRedeliveredAfterRebind(t *testing.T) {
	srv := startSim(t, Config{RetryTimeout: time.Minute})
	e := dialESME(t, srv.Addr("mci"), false)
	e.mustBind(srv)
	// Use sequence numbers that collide with the SMSC's own numbering.
	id, _ := e.submit(submitPDU("3000", "989120000009", 0, 0, 1, gsm7("hello")))
	d := e.req(waitLong)
	if got := cstring(tlv(d, tagReceiptedMsgID)); got != id || d.Header().Seq != 1 {
		t.Fatalf("receipt for %q seq %d", got, d.Header().Seq)
	}
	// Drop without acknowledging.
	e.conn.Close()
	waitFor(t, func() bool { return srv.Stats().Operators["mci"].Sessions == 0 }, "session gone")
	if p := srv.Stats().Operators["mci"].ReceiptsPending; p != 1 {
		t.Fatalf("pending %d", p)
	}

	e2 := dialESME(t, srv.Addr("mci"), false)
	if st := e2.bind(pdu.BindReceiverID, "chapar", "secret"); st != 0 {
		t.Fatalf("bind %#x", uint32(st))
	}
	d = e2.req(waitLong)
	if got := cstring(tlv(d, tagReceiptedMsgID)); got != id {
		t.Fatalf("redelivered receipt for %q, want %q", got, id)
	}
	if d.Header().Seq != 1 {
		t.Fatalf("new session seq %d, want 1", d.Header().Seq)
	}
	// A deliver_sm_resp with an unknown sequence number is ignored.
	e2.respond(pdu.NewDeliverSMResp(), 999, 0)
	e2.respond(pdu.NewDeliverSMResp(), d.Header().Seq, 0)
	waitFor(t, func() bool { return srv.Stats().Operators["mci"].ReceiptsPending == 0 }, "receipt acked")
	st := srv.Stats().Operators["mci"]
	if st.ReceiptsSent != 1 || st.ReceiptsResent != 1 || st.ReceiptsAcked != 1 {
		t.Fatalf("counters %+v", st)
	}
}

func TestUnackedReceiptRetriedAfterTimeout(t *testing.T) {
	srv := startSim(t, Config{RetryTimeout: 150 * time.Millisecond})
	e := dialESME(t, srv.Addr("mci"), false)
	e.mustBind(srv)
	id, _ := e.submit(submitPDU("3000", "989120000010", 0, 0, 1, gsm7("retry me")))
	d1 := e.req(waitLong)
	start := time.Now()
	d2 := e.req(waitLong)
	if el := time.Since(start); el < 100*time.Millisecond {
		t.Fatalf("retried after %v", el)
	}
	if cstring(tlv(d1, tagReceiptedMsgID)) != id || cstring(tlv(d2, tagReceiptedMsgID)) != id {
		t.Fatal("retry is not the same receipt")
	}
	if d2.Header().Seq == d1.Header().Seq {
		t.Fatal("retry reuses the sequence number")
	}
	// A negative response is retried too.
	e.respond(pdu.NewDeliverSMResp(), d2.Header().Seq, 0x64)
	d3 := e.req(waitLong)
	if cstring(tlv(d3, tagReceiptedMsgID)) != id {
		t.Fatal("not retried after a negative response")
	}
	e.respond(pdu.NewDeliverSMResp(), d3.Header().Seq, 0)
	waitFor(t, func() bool { return srv.Stats().Operators["mci"].ReceiptsPending == 0 }, "acked")
	e.noReq(300 * time.Millisecond)
}

func TestReceiptQueueFullPushesBack(t *testing.T) {
	srv := startSim(t, Config{MaxPending: 3, NoHTTP: true})
	tx := dialESME(t, srv.Addr("mci"), true)
	if st := tx.bind(pdu.BindTransmitterID, "chapar", "secret"); st != 0 {
		t.Fatalf("bind %#x", uint32(st))
	}
	ok, throttled := 0, 0
	for i := range 5 {
		switch _, st := tx.submit(submitPDU("3000", fmt.Sprint("98912000000", i), 0, 0, 1, []byte("r"))); st {
		case 0:
			ok++
		case StatusThrottled:
			throttled++
		default:
			t.Fatalf("status %#x", uint32(st))
		}
	}
	if ok != 3 || throttled != 2 {
		t.Fatalf("accepted %d throttled %d", ok, throttled)
	}
	// Without a receipt request nothing is queued: accepted.
	if _, st := tx.submit(submitPDU("3000", "989120000009", 0, 0, 0, []byte("r"))); st != 0 {
		t.Fatalf("no-receipt submit: %#x", uint32(st))
	}
	if _, err := srv.InjectMO(MO{Operator: "mci", From: "989120000001", To: "3000", Text: "x"}); err != ErrQueueFull {
		t.Fatalf("InjectMO: %v", err)
	}
	st := srv.Stats().Operators["mci"]
	if st.QueueFull != 2 || st.ReceiptsPending != 3 {
		t.Fatalf("counters %+v", st)
	}
	rx := dialESME(t, srv.Addr("mci"), true)
	if st := rx.bind(pdu.BindReceiverID, "chapar", "secret"); st != 0 {
		t.Fatalf("bind rx %#x", uint32(st))
	}
	for range 3 {
		rx.req(waitLong)
	}
	waitFor(t, func() bool { return srv.Stats().Operators["mci"].ReceiptsPending == 0 }, "receipts drained")
	if _, st := tx.submit(submitPDU("3000", "989120000008", 0, 0, 1, []byte("r"))); st != 0 {
		t.Fatalf("after drain: %#x", uint32(st))
	}
}
