package sms

import (
	"bytes"
	"testing"
)

func TestRecode(t *testing.T) {
	parts, err := Split("Price: 10$ @shop £5 é {x} €", 0)
	if err != nil || len(parts) != 1 || parts[0].DataCoding() != CodingGSM7 {
		t.Fatalf("split: %v %+v", err, parts)
	}
	ascii, err := Recode(parts[0].Payload, false, CodingIA5)
	if err != nil || string(ascii) != "Price: 10$ @shop ?5 ? {x} ?" {
		t.Fatalf("ascii %q %v", ascii, err)
	}
	latin, err := Recode(parts[0].Payload, false, CodingLatin1)
	if err != nil || !bytes.Equal(latin, []byte("Price: 10$ @shop \xa35 \xe9 {x} ?")) {
		t.Fatalf("latin-1 %q %v", latin, err)
	}
	// A concatenated part keeps its UDH and its length.
	long, err := Split(string(bytes.Repeat([]byte("a@$"), 70)), 0)
	if err != nil || len(long) != 2 {
		t.Fatalf("split long: %v %d", err, len(long))
	}
	p := long[1]
	got, err := Recode(p.Payload, true, CodingIA5)
	if err != nil || !bytes.Equal(got[:6], p.Payload[:6]) || len(got) != len(p.Payload) || bytes.IndexByte(got[6:], 0) >= 0 {
		t.Fatalf("udh part %q -> %q %v", p.Payload, got, err)
	}
	if _, err := Recode(p.Payload, false, 0x08); err == nil {
		t.Fatal("re-coding to UCS-2 accepted")
	}
}
