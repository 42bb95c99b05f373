package smscsim

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

const waitLong = 3 * time.Second

func httpJSON(t *testing.T, srv *Server, method, path, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+srv.HTTPAddr()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: decode: %v", method, path, err)
		}
	}
	return res.StatusCode
}

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

func TestSubmitGSM7SinglePart(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)

	text := "Hello [Chapar] {ok} 100€ @home ^_^"
	id, st := e.submit(submitPDU("30001234", "989121111111", 0, 0, 0, gsm7(text)))
	if st != 0 {
		t.Fatalf("status %#x", uint32(st))
	}
	if !regexp.MustCompile(`^[0-9A-F]{8,}$`).MatchString(id) {
		t.Fatalf("message id %q is not uppercase hex", id)
	}
	msgs := srv.Messages("989121111111")
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	m := msgs[0]
	if m.Text != text || m.Parts != 1 || m.Encoding != "GSM7" || m.From != "30001234" ||
		m.Operator != "mci" || len(m.MessageIDs) != 1 || m.MessageIDs[0] != id || m.Ref != nil {
		t.Fatalf("unexpected message %+v", m)
	}

	// The same through the HTTP API.
	var list struct {
		Count    int       `json:"count"`
		Messages []Message `json:"messages"`
	}
	since := m.FirstSubmit.Add(-time.Second).Format(time.RFC3339Nano)
	if code := httpJSON(t, srv, "GET", "/messages?to=989121111111&since="+since, "", &list); code != 200 {
		t.Fatalf("GET /messages: %d", code)
	}
	if list.Count != 1 || list.Messages[0].Text != text {
		t.Fatalf("GET /messages: %+v", list)
	}
	future := time.Now().Add(time.Hour).Format(time.RFC3339)
	if code := httpJSON(t, srv, "GET", "/messages?to=989121111111&since="+future, "", &list); code != 200 || list.Count != 0 {
		t.Fatalf("since in the future: %d messages", list.Count)
	}
	var latest Message
	if code := httpJSON(t, srv, "GET", "/messages/latest?to=989121111111", "", &latest); code != 200 || latest.Text != text {
		t.Fatalf("latest: %d %+v", code, latest)
	}
	if code := httpJSON(t, srv, "DELETE", "/messages", "", nil); code != 200 {
		t.Fatalf("DELETE /messages: %d", code)
	}
	if code := httpJSON(t, srv, "GET", "/messages/latest?to=989121111111", "", nil); code != 404 {
		t.Fatalf("latest after reset: %d", code)
	}

	// Latin-1 and IA5 are decoded byte for byte.
	e.submit(submitPDU("30001234", "989121111112", 0, 3, 0, []byte("caf\xe9")))
	e.submit(submitPDU("30001234", "989121111113", 0, 1, 0, []byte("plain ascii")))
	if m, _ := srv.Latest("989121111112"); m.Text != "café" || m.Encoding != "LATIN1" {
		t.Fatalf("latin1: %+v", m)
	}
	if m, _ := srv.Latest("989121111113"); m.Text != "plain ascii" || m.Encoding != "IA5" {
		t.Fatalf("ia5: %+v", m)
	}
}

// persianText returns a Persian text of n UTF-16 units.
func persianText(n int) string {
	const phrase = "سلام، این پیام آزمایشی چاپار برای بررسی بازسازی پیام‌های چندبخشی است. "
	var u []uint16
	for len(u) < n {
		u = append(u, utf16.Encode([]rune(phrase))...)
	}
	return string(utf16.Decode(u[:n]))
}

func ucs2Parts(text string, per int) [][]byte {
	u := utf16.Encode([]rune(text))
	var parts [][]byte
	for len(u) > 0 {
		n := min(per, len(u))
		parts = append(parts, ucs2Bytes(u[:n]))
		u = u[n:]
	}
	return parts
}

func TestSubmitUCS2ThreePartsReassembled(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("rightel"), true)
	e.mustBind(srv)

	text := persianText(67*2 + 40)
	parts := ucs2Parts(text, 67)
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	dest := "989211234567"
	// 8-bit reference (IEI 0x00), parts out of order.
	var ids [3]string
	for _, i := range []int{2, 0, 1} {
		sm := append([]byte{0x05, 0x00, 0x03, 0xA7, 3, byte(i + 1)}, parts[i]...)
		id, st := e.submit(submitPDU("3000555", dest, 0x40, 8, 0, sm))
		if st != 0 {
			t.Fatalf("part %d: status %#x", i+1, uint32(st))
		}
		ids[i] = id
		if i != 1 && len(srv.Messages(dest)) != 0 {
			t.Fatal("message listed before all parts arrived")
		}
	}
	msgs := srv.Messages(dest)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.Text != text {
		t.Fatalf("text mismatch:\n got %q\nwant %q", m.Text, text)
	}
	if m.Parts != 3 || m.Encoding != "UCS2" || m.Ref == nil || *m.Ref != 0xA7 ||
		fmt.Sprint(m.MessageIDs) != fmt.Sprint(ids[:]) || m.From != "3000555" || m.LastSubmit.Before(m.FirstSubmit) {
		t.Fatalf("unexpected message %+v", m)
	}

	// 16-bit reference (IEI 0x08), with a surrogate pair split across parts.
	text2 := persianText(66) + "😀" + persianText(20)
	u := utf16.Encode([]rune(text2))
	p1, p2 := ucs2Bytes(u[:67]), ucs2Bytes(u[67:])
	for i, p := range [][]byte{p1, p2} {
		sm := append([]byte{0x06, 0x08, 0x04, 0x12, 0x34, 2, byte(i + 1)}, p...)
		if _, st := e.submit(submitPDU("3000555", "989211234568", 0x40, 8, 0, sm)); st != 0 {
			t.Fatalf("status %#x", uint32(st))
		}
	}
	m2, ok := srv.Latest("989211234568")
	if !ok || m2.Text != text2 || m2.Parts != 2 || *m2.Ref != 0x1234 {
		t.Fatalf("16-bit ref message: %+v", m2)
	}

	// A malformed UDH is refused.
	if _, st := e.submit(submitPDU("3000555", dest, 0x40, 8, 0, []byte{0x09, 0x00})); st != StatusInvEsmClass {
		t.Fatalf("bad UDH: status %#x", uint32(st))
	}
}

var receiptRE = regexp.MustCompile(`^id:(\S+) sub:001 dlvrd:(\d{3}) submit date:(\d{10}) done date:(\d{10}) stat:([A-Z]+) err:(\d{3}) text:(.*)$`)

func TestReceiptsCarryTLVsAndText(t *testing.T) {
	srv := startSim(t, Config{
		ReceiptDelayMin: 20 * time.Millisecond,
		ReceiptDelayMax: 60 * time.Millisecond,
		ForcedOutcomes:  map[string]Stat{"989120000003": StatExpired},
	})
	e := dialESME(t, srv.Addr("mci"), false)
	e.mustBind(srv)
	if err := srv.ForceOutcome("989120000002", StatUndeliverable); err != nil {
		t.Fatal(err)
	}
	// And one through HTTP.
	if code := httpJSON(t, srv, "POST", "/control/outcome", `{"to":"989120000004","stat":"REJECTD"}`, nil); code != 200 {
		t.Fatalf("POST /control/outcome: %d", code)
	}

	cases := []struct {
		to    string
		stat  Stat
		state uint8
		dlvrd string
	}{
		{"989120000001", StatDelivered, 2, "001"},
		{"989120000002", StatUndeliverable, 5, "000"},
		{"989120000003", StatExpired, 3, "000"},
		{"989120000004", StatRejected, 8, "000"},
	}
	want := map[string]int{} // message id → case index
	for i, c := range cases {
		id, st := e.submit(submitPDU("3000", c.to, 0, 0, 1, gsm7("Your code is 123456, do not share it")))
		if st != 0 {
			t.Fatalf("status %#x", uint32(st))
		}
		want[id] = i
	}
	var firstSeq uint32
	for range cases {
		d := e.req(waitLong)
		h := d.Header()
		if h.ID != pdu.DeliverSMID {
			t.Fatalf("got %s", h.ID)
		}
		if firstSeq == 0 {
			firstSeq = h.Seq
		}
		f := d.Fields()
		if esm := fieldByte(f, pdufield.ESMClass); esm != 0x04 {
			t.Fatalf("esm_class %#x", esm)
		}
		id := cstring(tlv(d, tagReceiptedMsgID))
		i, ok := want[id]
		if !ok {
			t.Fatalf("receipted_message_id %q unknown (TLV bytes %q)", id, tlv(d, tagReceiptedMsgID))
		}
		if b := tlv(d, tagReceiptedMsgID); b[len(b)-1] != 0 {
			t.Fatal("receipted_message_id is not a C-string")
		}
		c := cases[i]
		if ms := tlv(d, tagMessageState); len(ms) != 1 || ms[0] != c.state {
			t.Fatalf("%s: message_state %v, want %d", c.to, ms, c.state)
		}
		txt := string(fieldBytes(f, pdufield.ShortMessage))
		mm := receiptRE.FindStringSubmatch(txt)
		if mm == nil {
			t.Fatalf("receipt text %q does not match the standard format", txt)
		}
		if mm[1] != id || mm[2] != c.dlvrd || mm[5] != string(c.stat) || mm[7] != "Your code is 123456," {
			t.Fatalf("receipt text %q for %+v", txt, c)
		}
		if fieldString(f, pdufield.SourceAddr) != c.to || fieldString(f, pdufield.DestinationAddr) != "3000" {
			t.Fatalf("receipt addresses %q → %q", fieldString(f, pdufield.SourceAddr), fieldString(f, pdufield.DestinationAddr))
		}
		e.respond(pdu.NewDeliverSMResp(), h.Seq, 0)
		delete(want, id)
	}
	// The SMSC numbers its own PDUs per session from 1.
	if firstSeq != 1 {
		t.Fatalf("first deliver_sm seq %d, want 1", firstSeq)
	}
	waitFor(t, func() bool { return srv.Stats().Total.ReceiptsAcked == 4 }, "4 receipts acked")
	st := srv.Stats().Operators["mci"]
	if st.ReceiptsSent != 4 || st.ReceiptsPending != 0 || st.ReceiptsResent != 0 {
		t.Fatalf("receipt counters %+v", st)
	}
	if m, _ := srv.Latest("989120000002"); len(m.Outcomes) != 1 || m.Outcomes[0] != StatUndeliverable {
		t.Fatalf("stored outcome %+v", m.Outcomes)
	}

	// registered_delivery 2 (failure only): no receipt for a delivered message.
	e.submit(submitPDU("3000", "989120000001", 0, 0, 2, gsm7("only on failure")))
	e.noReq(200 * time.Millisecond)
	e.submit(submitPDU("3000", "989120000002", 0, 0, 2, gsm7("only on failure")))
	if d := e.req(waitLong); d.Header().ID != pdu.DeliverSMID {
		t.Fatalf("got %s", d.Header().ID)
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestThrottling(t *testing.T) {
	srv := startSim(t, Config{Rate: 10, Burst: 3})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	const n = 20
	start := time.Now()
	for i := range n {
		e.send(submitPDU("3000", fmt.Sprintf("98912000%04d", i), 0, 0, 0, []byte("hi")))
	}
	ok, throttled := 0, 0
	for range n {
		r := e.resp(waitLong)
		switch r.Header().Status {
		case 0:
			ok++
		case StatusThrottled:
			throttled++
			if id := fieldString(r.Fields(), pdufield.MessageID); id != "" {
				t.Fatalf("throttled response carries message id %q", id)
			}
		default:
			t.Fatalf("status %#x", uint32(r.Header().Status))
		}
	}
	// Burst 3, plus what 10/s refilled meanwhile (a loaded machine is slow).
	if limit := 3 + int(time.Since(start).Seconds()*10) + 1; ok < 3 || ok > limit || throttled != n-ok {
		t.Fatalf("accepted %d throttled %d", ok, throttled)
	}
	st := srv.Stats().Operators["mci"]
	if st.Throttled != int64(throttled) || st.Accepted != int64(ok) || st.SubmitSM != n {
		t.Fatalf("counters %+v", st)
	}
	if got := srv.Stats().Store.Completed; got != int64(ok) {
		t.Fatalf("%d messages stored, want only the %d accepted", got, ok)
	}
	// After a pause the bucket refills.
	time.Sleep(350 * time.Millisecond)
	if _, st := e.submit(submitPDU("3000", "989129999999", 0, 0, 0, []byte("later"))); st != 0 {
		t.Fatalf("after refill: status %#x", uint32(st))
	}
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

func TestDuplicateCounter(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	sm := append([]byte{0x05, 0x00, 0x03, 0x01, 2, 1}, ucs2Bytes(utf16.Encode([]rune("بخش اول")))...)
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm))
	e.submit(submitPDU("3000", "989120000002", 0x40, 8, 1, sm)) // other destination: not a duplicate
	if d := srv.Stats().Duplicates; d != 0 {
		t.Fatalf("duplicates %d before resubmission", d)
	}
	// The same PDU resubmitted (as after a lost submit_sm_resp).
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm))
	var st Stats
	httpJSON(t, srv, "GET", "/stats", "", &st)
	if st.Duplicates != 1 || len(st.DuplicateDestinations) != 1 || st.DuplicateDestinations[0] != "989120000001" ||
		st.Operators["mci"].Duplicates != 1 {
		t.Fatalf("duplicates %d %v", st.Duplicates, st.DuplicateDestinations)
	}
	// Same text, different UDH (part 2): not a duplicate.
	sm2 := append([]byte{0x05, 0x00, 0x03, 0x01, 2, 2}, sm[6:]...)
	e.submit(submitPDU("3000", "989120000001", 0x40, 8, 1, sm2))
	if d := srv.Stats().Duplicates; d != 1 {
		t.Fatalf("duplicates %d", d)
	}
	// The duplicate part did not change the reassembled text.
	if m, _ := srv.Latest("989120000001"); m.Text != "بخش اولبخش اول" || m.Parts != 2 {
		t.Fatalf("message %+v", m)
	}
	if code := httpJSON(t, srv, "POST", "/reset", "", nil); code != 200 {
		t.Fatalf("reset %d", code)
	}
	if st := srv.Stats(); st.Duplicates != 0 || st.Total.SubmitSM != 0 || st.Store.Stored != 0 {
		t.Fatalf("after reset %+v", st)
	}
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

func TestDecimalIDsAndSeededOutcomes(t *testing.T) {
	mix := []Outcome{{StatDelivered, 0.5}, {StatUndeliverable, 0.5}}
	run := func() []Stat {
		srv := startSim(t, Config{Seed: 42, Outcomes: mix, MessageIDFormat: IDDecimal, NoHTTP: true})
		e := dialESME(t, srv.Addr("mci"), true)
		e.mustBind(srv)
		var out []Stat
		for i := range 40 {
			id, _ := e.submit(submitPDU("3000", fmt.Sprintf("98912%07d", i), 0, 0, 0, []byte("same text")))
			if !regexp.MustCompile(`^[0-9]+$`).MatchString(id) {
				t.Fatalf("id %q is not decimal", id)
			}
		}
		for i := range 40 {
			m, _ := srv.Latest(fmt.Sprintf("98912%07d", i))
			out = append(out, m.Outcomes[0])
		}
		return out
	}
	a, b := run(), run()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("seeded outcomes differ:\n%v\n%v", a, b)
	}
	if !strings.Contains(fmt.Sprint(a), "UNDELIV") || !strings.Contains(fmt.Sprint(a), "DELIVRD") {
		t.Fatalf("mix not applied: %v", a)
	}
}

func TestHealthzAndStatsShape(t *testing.T) {
	srv := startSim(t, Config{Operators: []OperatorConfig{{Name: "mci", Addr: "127.0.0.1:0"}}})
	var h struct {
		Status    string            `json:"status"`
		Operators map[string]string `json:"operators"`
	}
	if code := httpJSON(t, srv, "GET", "/healthz", "", &h); code != 200 || h.Status != "ok" || h.Operators["mci"] != srv.Addr("mci") {
		t.Fatalf("healthz %d %+v", code, h)
	}
	var raw map[string]any
	httpJSON(t, srv, "GET", "/log", "", &raw)
	for _, k := range []string{"operators", "total", "duplicates", "duplicate_destinations", "store"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("stats lacks %q: %v", k, raw)
		}
	}
	if code := httpJSON(t, srv, "POST", "/control/disconnect", `{"operator":"mci","bogus":1}`, nil); code != 400 {
		t.Fatalf("unknown field: %d", code)
	}
	if code := httpJSON(t, srv, "POST", "/control/outcome", `{"to":"1","stat":"NOPE"}`, nil); code != 400 {
		t.Fatalf("bad stat: %d", code)
	}
}

func TestStoreCaps(t *testing.T) {
	// Ring: the newest messages are kept.
	srv := startSim(t, Config{MaxStored: 5, NoHTTP: true})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 8 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 0, []byte(fmt.Sprint("m", i))))
	}
	msgs := srv.Messages("989120000001")
	if len(msgs) != 5 || msgs[0].Text != "m3" || msgs[4].Text != "m7" {
		t.Fatalf("ring kept %v", msgs)
	}
	// Count only: the first messages are kept, then only counters.
	cfg, _ := Profile("bench")
	cfg.MaxStored, cfg.NoHTTP = 3, true
	srv = startSim(t, cfg)
	e = dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 6 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 1, []byte(fmt.Sprint("m", i))))
	}
	st := srv.Stats()
	if st.Store.Stored != 3 || st.Store.CountedOnly != 3 || st.Total.Accepted != 6 {
		t.Fatalf("store %+v", st.Store)
	}
	waitFor(t, func() bool { return srv.Stats().Total.ReceiptsAcked == 6 }, "bench receipts")

	// KeepFrom: a kept sender line is stored above the count-only cap.
	cfg.KeepFrom = []string{"1000"}
	srv = startSim(t, cfg)
	e = dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 5 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 0, []byte(fmt.Sprint("m", i))))
	}
	e.submit(submitPDU("1000", "989120000002", 0, 0, 0, []byte("code 123456")))
	if got := srv.Messages("989120000002"); len(got) != 1 || got[0].Text != "code 123456" || got[0].FirstSubmit.IsZero() {
		t.Fatalf("kept sender line: %v", got)
	}
	if st := srv.Stats(); st.Store.CountedOnly != 2 {
		t.Fatalf("store %+v", st.Store)
	}
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
