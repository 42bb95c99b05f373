package smscsim

import (
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

func TestDecodeGSM7(t *testing.T) {
	// "A{€}@" with escapes, then a dangling escape.
	in := []byte{0x41, 0x1B, 0x28, 0x1B, 0x65, 0x1B, 0x29, 0x00, 0x1B}
	if got := decodeText(codingGSM7, in); got != "A{€}@ " {
		t.Fatalf("got %q", got)
	}
	if dc, _ := encodeMO("سلام", 1); dc != codingUCS2 {
		t.Fatal("Persian is not GSM 7-bit")
	}
}

func TestEncodeMOSplitsSafely(t *testing.T) {
	// GSM7: 152 septets then an escape pair must not be split.
	text := strings.Repeat("a", 152) + "€" + strings.Repeat("b", 10)
	dc, parts := encodeMO(text, 7)
	if dc != codingGSM7 || len(parts) != 2 {
		t.Fatalf("dc %d parts %d", dc, len(parts))
	}
	var joined []byte
	for i, p := range parts {
		udh, payload, c, has, ok := splitUDH(p.sm)
		if !ok || !has || c.ref != 7 || c.total != 2 || int(c.seq) != i+1 || len(udh) != 6 || len(payload) > 153 {
			t.Fatalf("part %d: %v %v %+v", i, has, ok, c)
		}
		if payload[len(payload)-1] == 0x1B {
			t.Fatalf("part %d ends with an escape", i)
		}
		joined = append(joined, payload...)
	}
	if decodeText(codingGSM7, joined) != text {
		t.Fatal("GSM7 round trip")
	}

	// UCS-2: a surrogate pair at the boundary stays whole.
	text = strings.Repeat("س", 66) + "😀" + strings.Repeat("ب", 10)
	dc, parts = encodeMO(text, 9)
	if dc != codingUCS2 || len(parts) != 2 {
		t.Fatalf("dc %d parts %d", dc, len(parts))
	}
	var units []byte
	for _, p := range parts {
		_, payload, _, _, _ := splitUDH(p.sm)
		u := []uint16{uint16(payload[len(payload)-2])<<8 | uint16(payload[len(payload)-1])}
		if utf16.IsSurrogate(rune(u[0])) && u[0] < 0xDC00 {
			t.Fatal("part ends with a high surrogate")
		}
		units = append(units, payload...)
	}
	if decodeText(codingUCS2, units) != text {
		t.Fatal("UCS-2 round trip")
	}

	if _, parts := encodeMO("short", 1); len(parts) != 1 || parts[0].udh {
		t.Fatal("short text split")
	}
}

func TestSplitUDHRejectsMalformed(t *testing.T) {
	for _, sm := range [][]byte{{}, {0x05, 0x00, 0x03}, {0x03, 0x00, 0x05, 0x01}} {
		if _, _, _, _, ok := splitUDH(sm); ok {
			t.Fatalf("%x accepted", sm)
		}
	}
	// An unrelated IE (port addressing) is skipped.
	_, payload, _, has, ok := splitUDH([]byte{0x06, 0x05, 0x04, 0x0B, 0x84, 0x23, 0xF0, 'x'})
	if !ok || has || string(payload) != "x" {
		t.Fatalf("ok %v has %v payload %q", ok, has, payload)
	}
}

func TestParsers(t *testing.T) {
	ops, err := ParseOperators("mci:2775, irancell:0.0.0.0:2776,rightel:0", "127.0.0.1")
	if err != nil || len(ops) != 3 || ops[0].Addr != "127.0.0.1:2775" || ops[1].Addr != "0.0.0.0:2776" || ops[2].Addr != "127.0.0.1:0" {
		t.Fatalf("%v %v", ops, err)
	}
	for _, bad := range []string{"", "mci", "mci:x", "mci:1,mci:2", ":1"} {
		if _, err := ParseOperators(bad, "127.0.0.1"); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
	lo, hi, err := ParseDelay("500-3000")
	if err != nil || lo != 500*time.Millisecond || hi != 3*time.Second {
		t.Fatalf("%v %v %v", lo, hi, err)
	}
	if lo, hi, err := ParseDelay("0"); err != nil || lo != 0 || hi != 0 {
		t.Fatalf("%v %v %v", lo, hi, err)
	}
	if _, _, err := ParseDelay("3000-500"); err == nil {
		t.Fatal("inverted range accepted")
	}
	mix, err := ParseOutcomes("DELIVRD=0.95,undeliv=0.03,EXPIRED=0.02")
	if err != nil || len(mix) != 3 || mix[1].Stat != StatUndeliverable {
		t.Fatalf("%v %v", mix, err)
	}
	if _, err := ParseOutcomes("NOPE=1"); err == nil {
		t.Fatal("bad stat accepted")
	}
	tab := newOutcomeTable(mix)
	if tab.pick(0) != StatDelivered || tab.pick(0.96) != StatUndeliverable || tab.pick(0.999) != StatExpired {
		t.Fatalf("pick %v", tab)
	}
	for _, p := range []string{"", "bench", "test", "default"} {
		if _, err := Profile(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Profile("prod"); err == nil {
		t.Fatal("unknown profile accepted")
	}
	if IDHex.format(0x5F3A9C01) != "5F3A9C01" || IDHex.format(0xAB) != "000000AB" || IDDecimal.format(42) != "42" {
		t.Fatal("id format")
	}
}

func TestReceiptSnippet(t *testing.T) {
	if s := receiptSnippet(codingUCS2, ucs2Bytes(utf16.Encode([]rune("کد: 1234 abc"))), 20); s != "??: 1234 abc" {
		t.Fatalf("%q", s)
	}
	if s := receiptSnippet(codingGSM7, gsm7("line1\nline2 is long enough to cut"), 20); s != "line1 line2 is long " {
		t.Fatalf("%q", s)
	}
}

// TestDeliverSMWireFormat checks the exact bytes of a deliver_sm, so other
// ESMEs (not only go-smpp's symmetric decoder) read it right.
func TestDeliverSMWireFormat(t *testing.T) {
	raw, err := encodeMODeliver("989121234567", "3000", 0, moPart{sm: []byte("11")})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("\x00" + // service_type
		"\x01\x01989121234567\x00" + // source
		"\x00\x013000\x00" + // destination
		"\x00\x00\x00" + // esm_class, protocol_id, priority_flag
		"\x00\x00" + // schedule_delivery_time, validity_period
		"\x00\x00\x00\x00" + // registered_delivery, replace_if_present, data_coding, sm_default_msg_id
		"\x0211") // sm_length, short_message
	if len(raw) != 16+len(body) || string(raw[16:]) != string(body) {
		t.Fatalf("deliver_sm body\n got %q\nwant %q", raw[16:], body)
	}
	if l := int(raw[0])<<24 | int(raw[1])<<16 | int(raw[2])<<8 | int(raw[3]); l != len(raw) {
		t.Fatalf("command_length %d, len %d", l, len(raw))
	}

	// A receipt: body then exactly the two TLVs.
	r := receipt{msgID: "5F3A9C01", textID: "5F3A9C01", handset: "989121234567", esme: "3000",
		submitAt: time.Date(2026, 3, 1, 10, 4, 0, 0, time.UTC), doneAt: time.Date(2026, 3, 1, 10, 5, 0, 0, time.UTC),
		stat: StatDelivered, snippet: "hello", location: time.UTC}
	raw, err = r.encode()
	if err != nil {
		t.Fatal(err)
	}
	text := "id:5F3A9C01 sub:001 dlvrd:001 submit date:2603011004 done date:2603011005 stat:DELIVRD err:000 text:hello"
	i := strings.Index(string(raw), text)
	if i < 0 || raw[i-1] != byte(len(text)) {
		t.Fatalf("receipt text missing or sm_length wrong: %q", raw)
	}
	tlvs := string(raw[i+len(text):])
	want1 := "\x00\x1e\x00\x095F3A9C01\x00"
	want2 := "\x04\x27\x00\x01\x02"
	if tlvs != want1+want2 && tlvs != want2+want1 {
		t.Fatalf("TLVs %q", tlvs)
	}
	head := "\x00" + "\x00\x00989121234567\x00" + "\x00\x003000\x00" +
		"\x04\x00\x00" + "\x00\x00" + "\x00\x00\x00\x00" + string(rune(len(text)))
	if string(raw[16:i]) != head {
		t.Fatalf("receipt head %q, want %q", raw[16:i], head)
	}
}

func ucs2Bytes(u []uint16) []byte {
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c>>8), byte(c)
	}
	return b
}

func TestParseFaults(t *testing.T) {
	got, err := ParseFaults("989121234567:2=0x45, 989121234568=0x08*2,*:3=drop,*=20,989120000150=disconnect*1")
	if err != nil {
		t.Fatal(err)
	}
	want := []SubmitFault{
		{Dest: "989121234567", Part: 2, Status: 0x45},
		{Dest: "989121234568", Status: 0x08, Times: 2},
		{Part: 3, DropResponse: true},
		{Status: 20},
		{Dest: "989120000150", Disconnect: true, Times: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"x", "a=0", "a:0=0x08", "a=0x08*0", "a=nope"} {
		if _, err := ParseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// encodeMO is the default encoding of an injected MO with an 8-bit reference.
func encodeMO(text string, ref uint8) (uint8, []moPart) {
	dc, parts, err := encodeMOAs(MO{Text: text}, uint16(ref))
	if err != nil {
		panic(err)
	}
	return dc, parts
}

func TestEncodeMOAsked(t *testing.T) {
	long := strings.Repeat("سلام ", 30) // 150 characters, 300 octets: 3 UCS-2 parts
	dc, parts, err := encodeMOAs(MO{Text: long, Ref16: true, Parts: []int{3, 1}}, 0x1234)
	if err != nil || dc != codingUCS2 || len(parts) != 2 {
		t.Fatalf("dc %d parts %d err %v", dc, len(parts), err)
	}
	for i, want := range []uint8{3, 1} {
		udh, _, c, has, ok := splitUDH(parts[i].sm)
		if !ok || !has || !c.wide || c.ref != 0x1234 || c.total != 3 || c.seq != want || len(udh) != 7 {
			t.Fatalf("part %d: %+v", i, c)
		}
	}
	dc, parts, err = encodeMOAs(MO{Text: "café déjà", Encoding: MOLatin1}, 1)
	if err != nil || dc != codingLatin1 || len(parts) != 1 || decodeText(codingLatin1, parts[0].sm) != "café déjà" {
		t.Fatalf("latin1: dc %d %v", dc, err)
	}
	if dc, parts, _ = encodeMOAs(MO{Text: "hello", Encoding: MOUCS2}, 1); dc != codingUCS2 || decodeText(dc, parts[0].sm) != "hello" {
		t.Fatal("forced UCS-2")
	}
	for _, bad := range []MO{{Text: "سلام", Encoding: MOLatin1}, {Text: "سلام", Encoding: MOGSM7},
		{Text: long, Parts: []int{1, 1}}, {Text: long, Parts: []int{4}}, {Text: "x", Encoding: "ebcdic"}} {
		if _, _, err := encodeMOAs(bad, 1); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
}
