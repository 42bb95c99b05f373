package smpp

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutext"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutlv"
)

func TestNormalizeMessageID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"00A1B2", "a1b2"},
		{"a1b2", "a1b2"},
		{"  0000A1b2\x00", "a1b2"},
		{"41394", "41394"},
		{"0041394", "41394"},
		{"0", "0"},
		{"0000", "0"},
		{"1F4A6C2E9B", "1f4a6c2e9b"},
		{"000000001F4A6C2E9B00112233", "1f4a6c2e9b00112233"}, // longer than 16 hex digits
		{"6c3f5e1e-8a1b-4d2e-9a55-0b0f0e1d2c3b", "6c3f5e1e-8a1b-4d2e-9a55-0b0f0e1d2c3b"},
		{"MSG-00042", "msg-00042"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeMessageID(tt.in); got != tt.want {
			t.Errorf("NormalizeMessageID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMessageIDKeys(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// Decimal 41394 is 0xa1b2; read as hex, 0x41394 is 267156 decimal.
		{"41394", []string{"41394", "a1b2", "267156"}},
		{"00A1B2", []string{"a1b2", "41394"}},
		{"ff", []string{"ff", "255"}},
		{"10", []string{"10", "a", "16"}},
		{"MSG-1", []string{"msg-1"}},
		{"", nil},
	}
	for _, tt := range tests {
		got := MessageIDKeys(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("MessageIDKeys(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMessageIDMatching pairs ids the way the gateway does: store
// NormalizeMessageID(submit_sm_resp id), look up MessageIDKeys(receipt id).
func TestMessageIDMatching(t *testing.T) {
	tests := []struct {
		name, submitID, receiptID string
	}{
		{"hex resp, decimal receipt", "00A1B2", "41394"},
		{"decimal resp, hex receipt", "41394", "0000a1b2"},
		{"same hex, case and zeros differ", "0A1B2C3D4E", "a1b2c3d4e"},
		{"same decimal", "1234567890", "1234567890"},
		{"decimal with zeros", "00012345", "12345"},
		{"large hex vs decimal", "3B9ACA07FF", strconvFormat(0x3B9ACA07FF)},
		{"uuid", "6C3F5E1E-8A1B-4D2E-9A55-0B0F0E1D2C3B", "6c3f5e1e-8a1b-4d2e-9a55-0b0f0e1d2c3b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := NormalizeMessageID(tt.submitID)
			if !slices.Contains(MessageIDKeys(tt.receiptID), stored) {
				t.Fatalf("receipt %q keys %q do not contain stored %q", tt.receiptID, MessageIDKeys(tt.receiptID), stored)
			}
		})
	}
	// Different messages stay apart.
	if slices.Contains(MessageIDKeys("41395"), NormalizeMessageID("00A1B2")) {
		t.Fatal("41395 must not match 00A1B2")
	}
}

func strconvFormat(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

func TestParseReceipt(t *testing.T) {
	const std = "id:1234567890 sub:001 dlvrd:001 submit date:2406011230 done date:2406011231 stat:DELIVRD err:000 text:Salam donya"
	tests := []struct {
		name      string
		d         Deliver
		ok        bool
		id        string
		state     MessageState
		hasState  bool
		err, text string
		netErr    *NetworkError
	}{
		{
			name: "standard text", ok: true, id: "1234567890", state: MessageDelivered, hasState: true, err: "000", text: "Salam donya",
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte(std)},
		},
		{
			name: "TLVs win over text", ok: true, id: "00A1B2", state: MessageUndeliverable, hasState: true, err: "000", text: "Salam donya",
			netErr: &NetworkError{Type: 3, Code: 0x0022},
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte(std), TLVs: map[uint16][]byte{
				TagReceiptedMessageID: []byte("00A1B2\x00"),
				TagMessageState:       {5},
				TagNetworkErrorCode:   {3, 0x00, 0x22},
			}},
		},
		{
			name: "TLV only, esm_class default", ok: true, id: "abc", state: MessageExpired, hasState: true,
			d: Deliver{TLVs: map[uint16][]byte{TagReceiptedMessageID: []byte("abc\x00"), TagMessageState: {3}}},
		},
		{
			name: "case-insensitive keys, underscores, odd spacing", ok: true, id: "77", state: MessageExpired, hasState: true, err: "5", text: "",
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("ID:77 SUB:1 DLVRD:0 SUBMIT_DATE:2406011230 DONE_DATE:2406011231  Stat : expired ERR:5 TEXT:")},
		},
		{
			name: "missing fields", ok: true, id: "42", state: MessageRejected, hasState: true,
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("id:42 stat:REJECTD")},
		},
		{
			name: "non-final state", ok: true, id: "9", state: MessageEnroute, hasState: true,
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("id:9 stat:ENROUTE")},
		},
		{
			name: "no stat", ok: true, id: "9", state: MessageUnknown, hasState: false,
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("id:9 sub:001")},
		},
		{
			name: "text field may contain keys", ok: true, id: "5", state: MessageDeleted, hasState: true, text: "id:99 stat:DELIVRD",
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("id:5 stat:DELETED text:id:99 stat:DELIVRD")},
		},
		{
			name: "UCS-2 receipt text", ok: true, id: "88", state: MessageDelivered, hasState: true,
			d: Deliver{ESMClass: 0x04, DataCoding: 0x08, Text: "id:88 stat:DELIVRD"},
		},
		{
			name: "message_payload", ok: true, id: "31", state: MessageUnknown, hasState: true,
			d: Deliver{ESMClass: 0x04, MessagePayload: []byte("id:31 stat:UNKNOWN")},
		},
		{
			name: "MO is not a receipt", ok: false,
			d: Deliver{ESMClass: 0x00, ShortMessage: []byte("id:1 stat:DELIVRD")},
		},
		{
			name: "receipt without id", ok: false,
			d: Deliver{ESMClass: 0x04, ShortMessage: []byte("stat:DELIVRD")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := ParseReceipt(tt.d)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, r)
			}
			if !ok {
				return
			}
			if r.MessageID != tt.id || r.State != tt.state || r.HasState != tt.hasState || r.Err != tt.err || r.Text != tt.text {
				t.Fatalf("got id=%q state=%v has=%v err=%q text=%q; want id=%q state=%v has=%v err=%q text=%q",
					r.MessageID, r.State, r.HasState, r.Err, r.Text, tt.id, tt.state, tt.hasState, tt.err, tt.text)
			}
			if (r.NetworkError == nil) != (tt.netErr == nil) || (r.NetworkError != nil && *r.NetworkError != *tt.netErr) {
				t.Fatalf("network error = %+v, want %+v", r.NetworkError, tt.netErr)
			}
		})
	}
}

func TestParseReceiptDates(t *testing.T) {
	r, _ := ParseReceipt(Deliver{ESMClass: 4, ShortMessage: []byte("id:1 sub:001 dlvrd:001 submit date:2406011230 done date:240601123145 stat:DELIVRD err:000 text:x")})
	if r.SubmitDate != "2406011230" || r.DoneDate != "240601123145" || r.Sub != "001" || r.Dlvrd != "001" {
		t.Fatalf("fields: %+v", r)
	}
	tehran := time.FixedZone("IRST", 3*3600+1800)
	got, err := ParseReceiptTime(r.DoneDate, tehran)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2024, 6, 1, 12, 31, 45, 0, tehran); !got.Equal(want) {
		t.Fatalf("done date = %v, want %v", got, want)
	}
	if _, err := ParseReceiptTime("garbage", time.UTC); err == nil {
		t.Fatal("want error for garbage date")
	}
}

func TestMessageStateFinal(t *testing.T) {
	for s := MessageUnknown; s <= MessageDeleted; s++ {
		want := s != MessageEnroute && s != MessageAccepted
		if s.Final() != want {
			t.Errorf("%v.Final() = %v", s, s.Final())
		}
	}
}

// deliverFrame wraps an encoded deliver_sm for decodeDeliver.
func deliverFrame(t *testing.T, b []byte) frame {
	t.Helper()
	fr := newFrameReader(bytes.NewReader(b))
	f, err := fr.next()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDecodeDeliver(t *testing.T) {
	ucs2 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			if r > 0xFFFF {
				hi, lo := 0xD800+((r-0x10000)>>10), 0xDC00+((r-0x10000)&0x3FF)
				b = append(b, byte(hi>>8), byte(hi), byte(lo>>8), byte(lo))
				continue
			}
			b = append(b, byte(r>>8), byte(r))
		}
		return b
	}
	udh8 := []byte{0x05, 0x00, 0x03, 0xA7, 0x03, 0x02}
	udh16 := []byte{0x06, 0x08, 0x04, 0x12, 0x34, 0x02, 0x01}
	src := Address{Addr: "989121234567", TON: 1, NPI: 1}
	dst := Address{Addr: "30001234", TON: 0, NPI: 1}
	tests := []struct {
		name      string
		esm, dc   uint8
		sm        []byte
		tlvs      []TLV
		text      string
		udh       *UDH
		isReceipt bool
	}{
		{name: "GSM7 with escapes", dc: 0x00, sm: []byte{'a', 0x1B, 0x65, ' ', 0x1B, 0x3C, 'b', 0x1B, 0x3E, 0x00}, text: "a€ [b]@"},
		{name: "ASCII", dc: 0x01, sm: []byte("hello_@"), text: "hello_@"},
		{name: "Latin-1", dc: 0x03, sm: []byte{'c', 'a', 'f', 0xE9}, text: "café"},
		{name: "UCS-2 Persian", dc: 0x08, sm: ucs2("سلام دنیا"), text: "سلام دنیا"},
		{name: "UCS-2 surrogate pair", dc: 0x08, sm: ucs2("ok 😀"), text: "ok 😀"},
		{name: "UCS-2 via GSM coding group", dc: 0x18, sm: ucs2("لغو۱۱"), text: "لغو۱۱"},
		{name: "binary", dc: 0x04, sm: []byte{0x01, 0x02}, text: ""},
		{
			name: "concat 8-bit ref", esm: 0x40, dc: 0x08, sm: append(slices.Clone(udh8), ucs2("بخش دوم")...), text: "بخش دوم",
			udh: &UDH{Raw: udh8, Concat: true, Ref: 0xA7, Total: 3, Part: 2},
		},
		{
			name: "concat 16-bit ref", esm: 0x40, dc: 0x00, sm: append(slices.Clone(udh16), []byte("part one")...), text: "part one",
			udh: &UDH{Raw: udh16, Concat: true, Ref: 0x1234, Total: 2, Part: 1},
		},
		{
			name: "UDHI with empty short_message and payload", esm: 0x40, dc: 0x08,
			tlvs: []TLV{{TagMessagePayload, append(slices.Clone(udh8), ucs2("پیام")...)}}, text: "پیام",
			udh: &UDH{Raw: udh8, Concat: true, Ref: 0xA7, Total: 3, Part: 2},
		},
		{name: "receipt by esm_class", esm: 0x04, dc: 0x00, sm: []byte("id:1 stat:DELIVRD"), text: "id:1 stat:DELIVRD", isReceipt: true},
		{name: "receipt by TLV", dc: 0x00, tlvs: []TLV{{TagReceiptedMessageID, []byte("1\x00")}}, isReceipt: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := encodeTestDeliver(7, src, dst, tt.esm, tt.dc, tt.sm, tt.tlvs)
			d, err := decodeDeliver(deliverFrame(t, b), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if d.Seq != 7 || d.Source != src || d.Dest != dst || d.ESMClass != tt.esm || d.DataCoding != tt.dc {
				t.Fatalf("header fields: %+v", d)
			}
			if !bytes.Equal(d.ShortMessage, tt.sm) {
				t.Fatalf("short_message = % x, want raw % x", d.ShortMessage, tt.sm)
			}
			if d.Text != tt.text {
				t.Fatalf("text = %q, want %q", d.Text, tt.text)
			}
			if d.IsReceipt != tt.isReceipt {
				t.Fatalf("IsReceipt = %v", d.IsReceipt)
			}
			switch {
			case tt.udh == nil && d.UDH != nil:
				t.Fatalf("unexpected UDH %+v", d.UDH)
			case tt.udh != nil && (d.UDH == nil || !bytes.Equal(d.UDH.Raw, tt.udh.Raw) || d.UDH.Concat != tt.udh.Concat ||
				d.UDH.Ref != tt.udh.Ref || d.UDH.Total != tt.udh.Total || d.UDH.Part != tt.udh.Part):
				t.Fatalf("UDH = %+v, want %+v", d.UDH, tt.udh)
			}
			for _, tlv := range tt.tlvs {
				if !bytes.Equal(d.TLVs[tlv.Tag], tlv.Value) {
					t.Fatalf("TLV 0x%04X = % x", tlv.Tag, d.TLVs[tlv.Tag])
				}
			}
		})
	}
}

func TestDecodeDeliverMalformedUDH(t *testing.T) {
	b := encodeTestDeliver(1, Address{Addr: "1"}, Address{Addr: "2"}, 0x40, 0x00, []byte{0x09, 0x00, 0x03}, nil)
	d, err := decodeDeliver(deliverFrame(t, b), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if d.UDH != nil {
		t.Fatalf("malformed UDH parsed as %+v", d.UDH)
	}
}

func TestSenderLineAndMobile(t *testing.T) {
	tests := []struct {
		in   string
		want Address
	}{
		{"30001234567", Address{"30001234567", TONUnknown, NPIISDN}},
		{"1000", Address{"1000", TONUnknown, NPIISDN}},
		{"989121234567", Address{"989121234567", TONInternational, NPIISDN}},
		{"+989121234567", Address{"989121234567", TONInternational, NPIISDN}},
		{"Chapar", Address{"Chapar", TONAlphanumeric, NPIUnknown}},
		{"Bank-Melli", Address{"Bank-Melli", TONAlphanumeric, NPIUnknown}},
	}
	for _, tt := range tests {
		if got := SenderLine(tt.in); got != tt.want {
			t.Errorf("SenderLine(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if got := Mobile("+989121234567"); got != (Address{"989121234567", 1, 1}) {
		t.Errorf("Mobile = %+v", got)
	}
}

func TestSubmitSMEncode(t *testing.T) {
	udh := []byte{0x05, 0x00, 0x03, 0x01, 0x02, 0x01}
	m := &SubmitSM{
		Source:       SenderLine("30001234"),
		Dest:         Mobile("989121234567"),
		ShortMessage: append(slices.Clone(udh), 0x06, 0x33),
		DataCoding:   0x08,
		UDH:          true,
		TLVs:         []TLV{{0x1400, []byte("x")}},
	}
	var b bytes.Buffer
	if err := m.encode(42, &b); err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(b.Bytes()[0:4]) != uint32(b.Len()) {
		t.Fatal("command_length does not match")
	}
	p, err := pdu.Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	f := p.Fields()
	fixed := func(k pdufield.Name) uint8 { return f[k].(*pdufield.Fixed).Data }
	if p.Header().ID != pdu.SubmitSMID || p.Header().Seq != 42 {
		t.Fatalf("header %+v", p.Header())
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"source", f[pdufield.SourceAddr].String(), "30001234"},
		{"source ton", fixed(pdufield.SourceAddrTON), TONUnknown},
		{"source npi", fixed(pdufield.SourceAddrNPI), NPIISDN},
		{"dest", f[pdufield.DestinationAddr].String(), "989121234567"},
		{"dest ton", fixed(pdufield.DestAddrTON), TONInternational},
		{"dest npi", fixed(pdufield.DestAddrNPI), NPIISDN},
		{"esm_class", fixed(pdufield.ESMClass), uint8(0x40)},
		{"registered_delivery", fixed(pdufield.RegisteredDelivery), uint8(1)},
		{"data_coding", fixed(pdufield.DataCoding), uint8(0x08)},
		{"sm_length", fixed(pdufield.SMLength), uint8(len(m.ShortMessage))},
		{"short_message", string(f[pdufield.ShortMessage].Bytes()), string(m.ShortMessage)},
		{"tlv", string(p.TLVFields()[0x1400].Bytes()), "x"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}

	bad := []*SubmitSM{
		{Dest: Address{}},
		{Dest: Mobile("98912"), ShortMessage: make([]byte, 255)},
		{Dest: Mobile("98912"), UDH: true, ShortMessage: []byte{0x05, 0x00}},
		{Dest: Mobile("123456789012345678901")},
	}
	for i, m := range bad {
		if err := m.encode(1, &b); err == nil {
			t.Errorf("bad[%d]: want error", i)
		}
	}
	if (&SubmitSM{NoReceipt: true}).registeredDelivery() != 0 || (&SubmitSM{RegisteredDelivery: 2}).registeredDelivery() != 2 {
		t.Error("registered_delivery override")
	}
}

func TestStatusErrors(t *testing.T) {
	err := error(&StatusError{Command: "submit_sm", Status: StatusThrottled})
	if !IsThrottled(err) || IsUnknown(err) || IsNotSent(err) {
		t.Fatal("throttled classification")
	}
	if st, ok := StatusOf(err); !ok || st != 0x58 {
		t.Fatalf("StatusOf = %v %v", st, ok)
	}
	if IsThrottled(&StatusError{Status: StatusMsgQueueFull}) {
		t.Fatal("queue full is not throttling")
	}
	if s := StatusThrottled.String(); s != "0x00000058 (throttling error)" {
		t.Fatalf("String = %q", s)
	}
}

// codecSubmitSM is the submit_sm as the go-smpp codec writes it: the reference
// the hand-laid encoder is held to.
func codecSubmitSM(t *testing.T, m *SubmitSM, seq uint32) []byte {
	t.Helper()
	p := pdu.NewSubmitSM(nil)
	p.Header().Seq = seq
	f := p.Fields()
	for k, v := range map[pdufield.Name]any{
		pdufield.ServiceType: m.ServiceType, pdufield.SourceAddrTON: m.Source.TON, pdufield.SourceAddrNPI: m.Source.NPI,
		pdufield.SourceAddr: m.Source.Addr, pdufield.DestAddrTON: m.Dest.TON, pdufield.DestAddrNPI: m.Dest.NPI,
		pdufield.DestinationAddr: m.Dest.Addr, pdufield.ESMClass: m.esmClass(), pdufield.ProtocolID: m.ProtocolID,
		pdufield.PriorityFlag: m.PriorityFlag, pdufield.ScheduleDeliveryTime: m.ScheduleDeliveryTime,
		pdufield.ValidityPeriod: m.ValidityPeriod, pdufield.RegisteredDelivery: m.registeredDelivery(),
		pdufield.DataCoding: m.DataCoding, pdufield.ShortMessage: m.ShortMessage,
	} {
		if err := f.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tl := range m.TLVs {
		if err := p.TLVFields().Set(pdutlv.Tag(tl.Tag), tl.Value); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := p.SerializeTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The submit_sm encoder writes, octet for octet, what the go-smpp codec wrote for
// the same message: random addresses, texts of every length up to 254 octets,
// every flag, and at most one TLV (the codec writes several in a random order;
// a tag set twice keeps its last value in both).
func TestSubmitSMEncodeMatchesCodec(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 44))
	str := func(max int, alphabet string) string {
		b := make([]byte, rng.IntN(max+1))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for i := range 3000 {
		sm := make([]byte, rng.IntN(MaxShortMessage+1))
		for j := range sm {
			sm[j] = byte(rng.IntN(256))
		}
		m := &SubmitSM{
			Source:       Address{Addr: str(20, "0123456789ABCZ"), TON: uint8(rng.IntN(7)), NPI: uint8(rng.IntN(2))},
			Dest:         Address{Addr: "98" + str(18, "0123456789"), TON: uint8(rng.IntN(7)), NPI: uint8(rng.IntN(2))},
			ShortMessage: sm, DataCoding: uint8(rng.IntN(256)), ESMClass: uint8(rng.IntN(256)),
			RegisteredDelivery: uint8(rng.IntN(3)), NoReceipt: rng.IntN(4) == 0, ServiceType: str(5, "CMTWAP"),
			ProtocolID: uint8(rng.IntN(256)), PriorityFlag: uint8(rng.IntN(4)),
			ScheduleDeliveryTime: str(16, "0123456789+R"), ValidityPeriod: str(16, "0123456789+R"),
		}
		if len(sm) > 0 && int(sm[0])+1 <= len(sm) {
			m.UDH = rng.IntN(2) == 0
		}
		switch rng.IntN(3) {
		case 1:
			m.TLVs = []TLV{{uint16(rng.IntN(0x10000)), []byte(str(40, "xyz\x00"))}}
		case 2:
			m.TLVs = []TLV{{0x1400, []byte("first")}, {0x1400, []byte(str(10, "ab"))}}
		}
		seq := rng.Uint32()
		var got bytes.Buffer
		got.WriteString("prefix") // the encoder appends to what the buffer holds
		if err := m.encode(seq, &got); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if want := codecSubmitSM(t, m, seq); !bytes.Equal(got.Bytes()[6:], want) {
			t.Fatalf("case %d: %+v\n got %x\nwant %x", i, m, got.Bytes()[6:], want)
		}
	}
}

// The GSM 7-bit decoding of a text whose every septet reads the same in ASCII is
// the text itself (decodeText skips the decoder for it), byte by byte over the
// whole alphabet, and any other septet still goes through the decoder.
func TestGSM7ASCIIFastPath(t *testing.T) {
	for c := range 256 {
		b := []byte{'a', byte(c), 'Z'}
		want := string(pdutext.GSM7(b).Decode())
		if got := decodeText(0x00, b); got != want {
			t.Errorf("septet 0x%02X: %q, the decoder gives %q", c, got, want)
		}
		if asciiGSM7(b) && want != string(b) {
			t.Errorf("septet 0x%02X is taken as ASCII but decodes to %q", c, want)
		}
	}
	receipt := []byte("id:1A2b3C sub:001 dlvrd:001 submit date:2612071200 done date:2612071201 stat:DELIVRD err:000 text:Chapar")
	if !asciiGSM7(receipt) || decodeText(0x00, receipt) != string(receipt) {
		t.Fatal("a receipt's text is not taken as it is")
	}
}

// A submit_sm_resp's message_id reads as the codec reads it, whatever the body:
// the id and its NUL, an id without one, bytes after the NUL, an empty id, noise.
func TestMessageIDMatchesCodec(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 7))
	bodies := [][]byte{[]byte("1A2B3C\x00"), []byte("1A2B3C"), []byte("\x00"), []byte("abc\x00\x14\x00\x00\x01x"),
		[]byte("ab\x00cd\x00"), {}}
	for range 2000 {
		b := make([]byte, rng.IntN(70))
		for i := range b {
			b[i] = "0123456789abcdef\x00"[rng.IntN(17)]
		}
		bodies = append(bodies, b)
	}
	for _, body := range bodies {
		raw := make([]byte, pdu.HeaderLen, pdu.HeaderLen+len(body))
		binary.BigEndian.PutUint32(raw[0:4], uint32(pdu.HeaderLen+len(body)))
		binary.BigEndian.PutUint32(raw[4:8], uint32(pdu.SubmitSMRespID))
		raw = append(raw, body...)
		f := frame{id: pdu.SubmitSMRespID, raw: raw}
		got, gotErr := f.messageID()
		want, wantErr := "", error(nil)
		if len(body) > 0 {
			var p pdu.Body
			if p, wantErr = pdu.Decode(bytes.NewReader(raw)); wantErr == nil && p.Fields()[pdufield.MessageID] != nil {
				want = p.Fields()[pdufield.MessageID].String()
			}
		}
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("body %q: %q, %v; the codec reads %q, %v", body, got, gotErr, want, wantErr)
		}
	}
}

// codecDeliver is a deliver_sm as the go-smpp codec reads it (with the submit_sm
// layout): the reference the field-by-field reader is held to.
func codecDeliver(f frame, now time.Time) (Deliver, error) {
	raw := bytes.Clone(f.raw)
	binary.BigEndian.PutUint32(raw[4:8], uint32(pdu.SubmitSMID))
	f.raw = raw
	p, err := f.decode()
	if err != nil {
		return Deliver{}, err
	}
	fields := p.Fields()
	fixed := func(k pdufield.Name) uint8 {
		if v, ok := fields[k].(*pdufield.Fixed); ok {
			return v.Data
		}
		return 0
	}
	str := func(k pdufield.Name) string {
		if v := fields[k]; v != nil {
			return v.String()
		}
		return ""
	}
	d := Deliver{Seq: f.seq, ReceivedAt: now, ServiceType: str(pdufield.ServiceType),
		Source:   Address{Addr: str(pdufield.SourceAddr), TON: fixed(pdufield.SourceAddrTON), NPI: fixed(pdufield.SourceAddrNPI)},
		Dest:     Address{Addr: str(pdufield.DestinationAddr), TON: fixed(pdufield.DestAddrTON), NPI: fixed(pdufield.DestAddrNPI)},
		ESMClass: fixed(pdufield.ESMClass), ProtocolID: fixed(pdufield.ProtocolID), PriorityFlag: fixed(pdufield.PriorityFlag),
		RegisteredDelivery: fixed(pdufield.RegisteredDelivery), DataCoding: fixed(pdufield.DataCoding)}
	if sm, ok := fields[pdufield.ShortMessage].(*pdufield.SM); ok {
		d.ShortMessage = sm.Data
	}
	if tlvs := p.TLVFields(); len(tlvs) > 0 {
		d.TLVs = make(map[uint16][]byte, len(tlvs))
		for tag, v := range tlvs {
			d.TLVs[uint16(tag)] = v.Bytes()
		}
		d.MessagePayload = d.TLVs[TagMessagePayload]
	}
	d.finish()
	return d, nil
}

// A deliver_sm reads as the codec reads it: whole receipts and messages with
// random fields, UDH and TLVs (a tag twice, message_payload), and the same cut
// short at every length, with a byte changed, or over the codec's size limit.
func TestDecodeDeliverMatchesCodec(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1404))
	now := time.Unix(1_790_000_000, 0)
	bytesOf := func(n int, alphabet string) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	body := func() []byte {
		var b bytes.Buffer
		cstr := func(max int) { b.Write(bytesOf(rng.IntN(max+1), "0123456789ABCabc:+ ")); b.WriteByte(0) }
		cstr(5)
		b.Write([]byte{uint8(rng.IntN(7)), uint8(rng.IntN(2))})
		cstr(20)
		b.Write([]byte{uint8(rng.IntN(7)), uint8(rng.IntN(2))})
		cstr(20)
		b.Write([]byte{[]uint8{0, 0x04, 0x20, 0x40, 0x44}[rng.IntN(5)], uint8(rng.IntN(256)), uint8(rng.IntN(4))})
		cstr(16)
		cstr(16)
		sm := bytesOf(rng.IntN(161), "id:1A2b sub:001 stat:DELIVRD err:000 text:\x00\x05\x03\xff")
		b.Write([]byte{uint8(rng.IntN(3)), 0, []uint8{0, 0x08, 0x03, 0xF0, 0x04}[rng.IntN(5)], 0, uint8(len(sm))})
		b.Write(sm)
		for range rng.IntN(4) {
			v := bytesOf(rng.IntN(30), "0123456789abcdef\x00")
			tag := []uint16{TagReceiptedMessageID, TagMessageState, TagMessagePayload, TagNetworkErrorCode, 0x1400}[rng.IntN(5)]
			b.Write([]byte{byte(tag >> 8), byte(tag), 0, byte(len(v))})
			b.Write(v)
		}
		return b.Bytes()
	}
	check := func(body []byte) {
		t.Helper()
		raw := make([]byte, pdu.HeaderLen, pdu.HeaderLen+len(body))
		binary.BigEndian.PutUint32(raw[0:4], uint32(pdu.HeaderLen+len(body)))
		binary.BigEndian.PutUint32(raw[4:8], uint32(pdu.DeliverSMID))
		binary.BigEndian.PutUint32(raw[12:16], 77)
		raw = append(raw, body...)
		f := frame{id: pdu.DeliverSMID, seq: 77, raw: raw}
		want, wantErr := codecDeliver(f, now)
		got, gotErr := decodeDeliver(f, now)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("body %x:\n got %+v, %v\nwant %+v, %v", body, got, gotErr, want, wantErr)
		}
	}
	for range 400 {
		b := body()
		check(b)
		for n := range len(b) {
			check(b[:n])
		}
		b[rng.IntN(len(b))] = byte(rng.IntN(256))
		check(b)
	}
	check(make([]byte, pdu.MaxSize))
}

// A data_sm reads as the deliver_sm with the same fields, an empty short_message
// and the same TLVs (the fields data_sm lacks left zero); cut anywhere before
// data_coding it is an error, and a TLV cut short is one too.
func TestDecodeDataSMAsDeliver(t *testing.T) {
	now := time.Unix(1_790_000_000, 0)
	tlv := []byte{0x04, 0x27, 0, 1, 2, 0x00, 0x1E, 0, 5, 'a', 'b', '1', '2', 0, 0x04, 0x24, 0, 4, 't', 'e', 'x', 't'}
	head := []byte("CMT\x00\x01\x01983000\x00\x01\x01989121234567\x00\x04\x01\x00")
	pduOf := func(id pdu.ID, body []byte) frame {
		raw := make([]byte, pdu.HeaderLen, pdu.HeaderLen+len(body))
		binary.BigEndian.PutUint32(raw[0:4], uint32(pdu.HeaderLen+len(body)))
		binary.BigEndian.PutUint32(raw[4:8], uint32(id))
		return frame{id: id, seq: 9, raw: append(raw, body...)}
	}
	// deliver_sm: … esm_class, protocol_id, priority_flag, two times, registered_delivery,
	// replace_if_present_flag, data_coding, sm_default_msg_id, sm_length 0.
	deliver := append([]byte("CMT\x00\x01\x01983000\x00\x01\x01989121234567\x00\x04\x00\x00\x00\x00\x01\x00\x00\x00\x00"), tlv...)
	want, err := decodeDeliver(pduOf(pdu.DeliverSMID, deliver), now)
	if err != nil {
		t.Fatal(err)
	}
	want.DataSM = true
	got, err := decodeDataSM(pduOf(dataSMID, append(slices.Clone(head), tlv...)), now)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("data_sm %+v, %v\nwant %+v", got, err, want)
	}
	if !got.IsReceipt || got.Text != "text" || string(got.TLVs[TagReceiptedMessageID]) != "ab12\x00" {
		t.Fatalf("data_sm receipt read as %+v", got)
	}
	for n := range len(head) {
		if _, err := decodeDataSM(pduOf(dataSMID, head[:n]), now); err == nil {
			t.Fatalf("data_sm cut at %d of %d octets: no error", n, len(head))
		}
	}
	if _, err := decodeDataSM(pduOf(dataSMID, append(slices.Clone(head), tlv[:len(tlv)-1]...)), now); err == nil {
		t.Fatal("data_sm with a TLV cut short: no error")
	}
}
