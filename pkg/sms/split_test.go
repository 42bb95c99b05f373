package sms

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestSplitSinglePart(t *testing.T) {
	tests := []struct {
		text string
		dc   byte
		want []byte
	}{
		{"Hi@", 0x00, []byte{0x48, 0x69, 0x00}},
		{"a€[", 0x00, []byte{0x61, 0x1B, 0x65, 0x1B, 0x3C}},
		{"£\n\f", 0x00, []byte{0x01, 0x0A, 0x1B, 0x0A}},
		{"سلام", 0x08, []byte{0x06, 0x33, 0x06, 0x44, 0x06, 0x27, 0x06, 0x45}},
		{"a😀", 0x08, []byte{0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00}},
		{"۱\n", 0x08, []byte{0x06, 0xF1, 0x00, 0x0A}},
		{"\xff", 0x08, []byte{0xFF, 0xFD}},
	}
	for _, tt := range tests {
		parts, err := Split(tt.text, 9)
		if err != nil || len(parts) != 1 {
			t.Fatalf("Split(%q) = %d parts, %v", tt.text, len(parts), err)
		}
		p := parts[0]
		if p.Seq != 1 || p.Total != 1 || p.UDHI() || p.DataCoding() != tt.dc {
			t.Errorf("Split(%q) = %+v", tt.text, p)
		}
		if !bytes.Equal(p.Payload, tt.want) || !bytes.Equal(p.Body(), tt.want) {
			t.Errorf("Split(%q) payload % X, want % X", tt.text, p.Payload, tt.want)
		}
	}
	if parts, err := Split("", 1); parts != nil || err != nil {
		t.Errorf("Split(\"\") = %v, %v", parts, err)
	}
}

func TestSplitMultiPartBytes(t *testing.T) {
	// 161 GSM characters: 153 + 8, with the header 05 00 03 ref total seq.
	parts, err := Split(rep("a", 161), 0xA7)
	if err != nil || len(parts) != 2 {
		t.Fatalf("Split = %d parts, %v", len(parts), err)
	}
	want1 := append([]byte{0x05, 0x00, 0x03, 0xA7, 0x02, 0x01}, bytes.Repeat([]byte{0x61}, 153)...)
	want2 := append([]byte{0x05, 0x00, 0x03, 0xA7, 0x02, 0x02}, bytes.Repeat([]byte{0x61}, 8)...)
	if !bytes.Equal(parts[0].Payload, want1) || !bytes.Equal(parts[1].Payload, want2) {
		t.Errorf("payloads\n% X\n% X", parts[0].Payload, parts[1].Payload)
	}
	for i, p := range parts {
		if !p.UDHI() || p.DataCoding() != DataCodingGSM7 || p.Ref != 0xA7 || p.Seq != i+1 || p.Total != 2 {
			t.Errorf("part %d = %+v", i+1, p)
		}
	}
	if parts[0].AirOctets() != 140 || parts[1].AirOctets() != 14 { // (49 + 8×7) bits
		t.Errorf("AirOctets %d, %d", parts[0].AirOctets(), parts[1].AirOctets())
	}

	// The escape pair moves whole into part 2.
	parts, _ = Split(rep("a", 152)+"€"+rep("b", 10), 1)
	if len(parts) != 2 || parts[0].Units != 152 || !bytes.Equal(parts[1].Body(), append([]byte{0x1B, 0x65}, bytes.Repeat([]byte{0x62}, 10)...)) {
		t.Errorf("escape straddle: %d parts, part 2 % X", len(parts), parts[len(parts)-1].Body())
	}

	// UCS-2: 67 units per part; the surrogate pair moves whole into part 2.
	parts, _ = Split(rep(fa, 66)+emoji+fa+rep(fa, 3), 0xFF)
	if len(parts) != 2 || parts[0].Units != 66 || parts[1].Units != 6 {
		t.Fatalf("surrogate straddle: %+v", parts)
	}
	if got := parts[1].Payload[:10]; !bytes.Equal(got, []byte{0x05, 0x00, 0x03, 0xFF, 0x02, 0x02, 0xD8, 0x3D, 0xDE, 0x00}) {
		t.Errorf("part 2 starts % X", got)
	}
	if parts[0].DataCoding() != DataCodingUCS2 || len(parts[0].Payload) != 6+132 || parts[0].AirOctets() != 138 {
		t.Errorf("part 1: dc %#x, %d bytes", parts[0].DataCoding(), len(parts[0].Payload))
	}
	full, _ := Split(rep(fa, 134), 3)
	if len(full) != 2 || len(full[0].Payload) != 140 || len(full[1].Payload) != 140 {
		t.Errorf("134 units: %d parts", len(full))
	}
}

func TestSplitTooManyParts(t *testing.T) {
	if parts, err := Split(rep("a", MaxParts*MultiPartGSM7), 1); err != nil || len(parts) != MaxParts {
		t.Errorf("255 full parts: %d, %v", len(parts), err)
	}
	if _, err := Split(rep("a", MaxParts*MultiPartGSM7+1), 1); !errors.Is(err, ErrTooManyParts) {
		t.Errorf("256 parts: err = %v", err)
	}
	if _, err := Split(rep(emoji, 33*MaxParts+1), 1); !errors.Is(err, ErrTooManyParts) {
		t.Errorf("256 emoji parts: err = %v", err)
	}
}

// reassemble decodes parts as a receiver would and checks their headers.
func reassemble(t testing.TB, parts []Part) string {
	t.Helper()
	var b strings.Builder
	for i, p := range parts {
		text, ref, total, seq, err := Decode(p.DataCoding(), p.Payload, p.UDHI())
		if err != nil {
			t.Fatalf("Decode part %d: %v", i+1, err)
		}
		wantRef := int(p.Ref)
		if len(parts) == 1 {
			wantRef = 0
		}
		if ref != wantRef || total != len(parts) || seq != i+1 {
			t.Fatalf("Decode part %d: ref %d total %d seq %d", i+1, ref, total, seq)
		}
		b.WriteString(text)
	}
	return b.String()
}

// checkSplitInvariants checks what must hold for any text.
func checkSplitInvariants(t testing.TB, text string, ref uint8) {
	t.Helper()
	parts, err := Split(text, ref)
	if err != nil {
		t.Fatalf("Split(%q): %v", text, err)
	}
	if want := Count(text, false); len(parts) != want.Parts {
		t.Fatalf("Split(%q) made %d parts, Count says %d", text, len(parts), want.Parts)
	}
	// Invalid UTF-8 bytes travel as U+FFFD.
	if got, want := reassemble(t, parts), string([]rune(text)); got != want {
		t.Fatalf("round trip of %q gave %q", want, got)
	}
	for i, p := range parts {
		if p.AirOctets() > 140 {
			t.Fatalf("part %d of %q takes %d octets", i+1, text, p.AirOctets())
		}
		if p.Encoding == UCS2 && len(p.Payload) > 140 {
			t.Fatalf("part %d of %q is %d bytes", i+1, text, len(p.Payload))
		}
		body := p.Body()
		if p.Encoding == GSM7 {
			if len(body) != p.Units || (len(body) > 0 && body[len(body)-1] == escape) {
				t.Fatalf("part %d of %q: % X", i+1, text, body)
			}
			continue
		}
		if len(body) != 2*p.Units || len(body) == 0 {
			t.Fatalf("part %d of %q: % X", i+1, text, body)
		}
		first := rune(body[0])<<8 | rune(body[1])
		last := rune(body[len(body)-2])<<8 | rune(body[len(body)-1])
		if first >= 0xDC00 && first <= 0xDFFF || last >= 0xD800 && last <= 0xDBFF {
			t.Fatalf("part %d of %q splits a surrogate pair: % X", i+1, text, body)
		}
	}
}

func TestSplitRoundTrip(t *testing.T) {
	for _, tt := range boundaryCases {
		checkSplitInvariants(t, Compose(tt.text, tt.cancel11), 200)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		text := randomText(r, r.IntN(900), i%2 == 0)
		checkSplitInvariants(t, Compose(text, i%5 == 0), uint8(i))
	}
}

func TestDecode(t *testing.T) {
	udh8 := []byte{0x05, 0x00, 0x03, 0x11, 0x03, 0x02}
	udh16 := []byte{0x06, 0x08, 0x04, 0x12, 0x34, 0x04, 0x03}
	// Another element (a 16-bit port address) before the concatenation one.
	udhPort := []byte{0x0B, 0x05, 0x04, 0x0B, 0x84, 0x23, 0xF0, 0x00, 0x03, 0x22, 0x02, 0x01}
	cat := func(a ...[]byte) []byte { return bytes.Join(a, nil) }
	ucs2 := func(s string) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	tests := []struct {
		name            string
		dc              byte
		payload         []byte
		udh             bool
		text            string
		ref, total, seq int
		err             error
	}{
		{"gsm single", 0x00, []byte("Hello"), false, "Hello", 0, 1, 1, nil},
		{"gsm table", 0x00, []byte{0x00, 0x01, 0x10, 0x1F, 0x40, 0x60, 0x7F}, false, "@£ΔÉ¡¿à", 0, 1, 1, nil},
		{"gsm extension", 0x00, []byte{0x1B, 0x65, 0x1B, 0x14, 0x1B, 0x0A, 0x1B, 0x2F}, false, "€^\f\\", 0, 1, 1, nil},
		{"gsm unknown extension", 0x00, []byte{0x1B, 0x41, 0x62}, false, "Ab", 0, 1, 1, nil},
		{"gsm double escape", 0x00, []byte{0x61, 0x1B, 0x1B}, false, "a ", 0, 1, 1, nil},
		{"gsm dangling escape", 0x00, []byte{0x61, 0x1B}, false, "a ", 0, 1, 1, nil},
		{"gsm 8-bit byte", 0x00, []byte{0x61, 0x80}, false, "", 0, 0, 0, ErrSeptet},
		{"gsm 8-bit after escape", 0x00, []byte{0x1B, 0xE5}, false, "", 0, 0, 0, ErrSeptet},
		{"gsm 8-bit ref", 0x00, cat(udh8, []byte("abc")), true, "abc", 0x11, 3, 2, nil},
		{"gsm 16-bit ref", 0x00, cat(udh16, []byte("xyz")), true, "xyz", 0x1234, 4, 3, nil},
		{"other element first", 0x08, cat(udhPort, ucs2("سلام")), true, "سلام", 0x22, 2, 1, nil},
		{"ucs2 single", 0x08, ucs2("سلام 😀"), false, "سلام 😀", 0, 1, 1, nil},
		{"ucs2 lone surrogate", 0x08, []byte{0xD8, 0x3D, 0x00, 0x61}, false, "\uFFFDa", 0, 1, 1, nil},
		{"ucs2 odd", 0x08, []byte{0x06, 0x33, 0x06}, false, "", 0, 0, 0, ErrOddUCS2},
		{"ucs2 odd after header", 0x08, cat(udh8, []byte{0x06}), true, "", 0, 0, 0, ErrOddUCS2},
		{"latin1", 0x03, []byte{0x63, 0x61, 0x66, 0xE9}, false, "café", 0, 1, 1, nil},
		{"ia5", 0x01, []byte("ok"), false, "ok", 0, 1, 1, nil},
		{"unknown data coding", 0x04, []byte{1, 2}, false, "", 0, 0, 0, ErrDataCoding},
		{"empty", 0x00, nil, false, "", 0, 1, 1, nil},
		{"header only", 0x08, udh8, true, "", 0x11, 3, 2, nil},
		{"no header byte", 0x00, nil, true, "", 0, 0, 0, ErrUDH},
		{"header longer than payload", 0x00, []byte{0x05, 0x00, 0x03}, true, "", 0, 0, 0, ErrUDH},
		{"element longer than header", 0x00, []byte{0x03, 0x00, 0x03, 0x01, 0x61}, true, "", 0, 0, 0, ErrUDH},
		{"element cut", 0x00, []byte{0x01, 0x00, 0x61}, true, "", 0, 0, 0, ErrUDH},
		{"zero total ignored", 0x00, []byte{0x05, 0x00, 0x03, 0x09, 0x00, 0x01, 0x61}, true, "a", 0, 1, 1, nil},
		{"seq past total ignored", 0x00, []byte{0x05, 0x00, 0x03, 0x09, 0x02, 0x03, 0x61}, true, "a", 0, 1, 1, nil},
		{"zero seq ignored", 0x00, []byte{0x05, 0x00, 0x03, 0x09, 0x02, 0x00, 0x61}, true, "a", 0, 1, 1, nil},
		{"wrong element length ignored", 0x00, []byte{0x04, 0x00, 0x02, 0x09, 0x02, 0x61}, true, "a", 0, 1, 1, nil},
	}
	for _, tt := range tests {
		text, ref, total, seq, err := Decode(tt.dc, tt.payload, tt.udh)
		if !errors.Is(err, tt.err) || text != tt.text || ref != tt.ref || total != tt.total || seq != tt.seq {
			t.Errorf("%s: Decode = %q, %d, %d, %d, %v; want %q, %d, %d, %d, %v",
				tt.name, text, ref, total, seq, err, tt.text, tt.ref, tt.total, tt.seq, tt.err)
		}
	}
	// Every septet decodes, and every GSM character encodes back to itself.
	for c := 0; c < 128; c++ {
		if c == escape {
			continue
		}
		text, _, _, _, err := Decode(0x00, []byte{byte(c)}, false)
		if err != nil || utf8.RuneCountInString(text) != 1 {
			t.Fatalf("septet %#x: %q, %v", c, text, err)
		}
		parts, _ := Split(text, 0)
		if len(parts) != 1 || !bytes.Equal(parts[0].Payload, []byte{byte(c)}) {
			t.Errorf("septet %#x (%q) re-encodes as % X", c, text, parts[0].Payload)
		}
	}
}

func TestErrorsArePersian(t *testing.T) {
	for _, err := range []error{ErrTooLong, ErrTooManyParts, ErrDataCoding, ErrUDH, ErrSeptet, ErrOddUCS2} {
		if !strings.ContainsAny(err.Error(), "ابپتسیکگمنو") {
			t.Errorf("error %q is not Persian", err)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, tt := range boundaryCases {
		if len(tt.text) < 1000 {
			f.Add(Compose(tt.text, tt.cancel11), uint8(len(tt.text)))
		}
	}
	f.Add("\xff\xfe\x1b€", uint8(0))
	f.Fuzz(func(t *testing.T, text string, ref uint8) {
		if utf8.RuneCountInString(text) > 4*MaxTextRunes {
			return
		}
		checkSplitInvariants(t, text, ref)
	})
}
