package smscsim

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

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
