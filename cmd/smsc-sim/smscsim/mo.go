package smscsim

import (
	"errors"
	"fmt"
	"unicode/utf16"

	"github.com/chapar/chapar/pkg/sms"
)

// MO encodings the injection accepts (MO.Encoding).
const (
	MOAuto   = ""       // GSM 7-bit when possible, UCS-2 otherwise
	MOGSM7   = "gsm7"   // GSM 7-bit, unpacked (fails on characters outside the alphabet)
	MOUCS2   = "ucs2"   // UCS-2 big endian, even for GSM text
	MOLatin1 = "latin1" // ISO-8859-1 (fails on characters above U+00FF)
)

// Errors of an MO that cannot be encoded as asked.
var (
	ErrMOEncoding = errors.New("smscsim: text not representable in the requested encoding")
	ErrMOParts    = errors.New("smscsim: parts must name part numbers of the message, each once")
)

// moBodies encodes text into the per-part bodies (without UDH) and the
// data_coding, as a handset would for the encoding asked; udhLen is the header
// each part of a long message will carry.
func moBodies(text, enc string, udhLen int) (uint8, [][]byte, error) {
	switch enc {
	case MOAuto, MOGSM7:
		ps, err := sms.Split(text, 0)
		if err != nil {
			return 0, nil, err
		}
		if len(ps) == 0 {
			return codingGSM7, [][]byte{{}}, nil
		}
		if enc == MOGSM7 && ps[0].Encoding != sms.GSM7 {
			return 0, nil, ErrMOEncoding
		}
		if ps[0].Encoding == sms.UCS2 {
			return codingUCS2, chunk(ucs2(text), 140, 140-udhLen, true), nil
		}
		out := make([][]byte, len(ps))
		for i, p := range ps {
			out[i] = p.Body()
		}
		return codingGSM7, out, nil
	case MOUCS2:
		return codingUCS2, chunk(ucs2(text), 140, 140-udhLen, true), nil
	case MOLatin1:
		b := make([]byte, 0, len(text))
		for _, r := range text {
			if r > 0xFF {
				return 0, nil, ErrMOEncoding
			}
			b = append(b, byte(r))
		}
		return codingLatin1, chunk(b, 140, 140-udhLen, false), nil
	}
	return 0, nil, fmt.Errorf("smscsim: unknown encoding %q", enc)
}

func ucs2(text string) []byte {
	units := utf16.Encode([]rune(text))
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

// chunk cuts b into one body when it fits single, else bodies of at most multi
// octets (an even number for UCS-2, never between the halves of a surrogate pair).
func chunk(b []byte, single, multi int, wide bool) [][]byte {
	if len(b) <= single {
		return [][]byte{b}
	}
	if wide {
		multi &^= 1
	}
	var out [][]byte
	for len(b) > 0 {
		n := min(multi, len(b))
		if wide && n < len(b) && n >= 2 && b[n-2]&0xFC == 0xD8 { // high surrogate last
			n -= 2
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// cutEven cuts UCS-2 octets into bodies of n octets (n made even), even between
// the halves of a surrogate pair, as some handsets do.
func cutEven(b []byte, n int) [][]byte {
	n &^= 1
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

// moParts builds the short messages of an MO: the bodies with a concatenation
// header (8-bit reference, or 16-bit when ref16) when there are several, in the
// order of order (1-based part numbers; empty: all in order, a missing number is
// a part never sent).
func moParts(bodies [][]byte, ref uint16, ref16 bool, order []int) ([]moPart, error) {
	if len(bodies) > 255 {
		return nil, sms.ErrTooManyParts
	}
	if len(order) == 0 {
		for i := range bodies {
			order = append(order, i+1)
		}
	}
	seen := map[int]bool{}
	out := make([]moPart, 0, len(order))
	for _, n := range order {
		if n < 1 || n > len(bodies) || seen[n] {
			return nil, ErrMOParts
		}
		seen[n] = true
		if len(bodies) == 1 {
			out = append(out, moPart{sm: bodies[0]})
			continue
		}
		udh := []byte{5, 0x00, 3, byte(ref), byte(len(bodies)), byte(n)}
		if ref16 {
			udh = []byte{6, 0x08, 4, byte(ref >> 8), byte(ref), byte(len(bodies)), byte(n)}
		}
		out = append(out, moPart{sm: append(udh, bodies[n-1]...), udh: true})
	}
	return out, nil
}

// encodeMOAs encodes an MO as asked by its Encoding, Ref16 and Parts fields.
func encodeMOAs(mo MO, ref uint16) (uint8, []moPart, error) {
	udhLen := 6
	if mo.Ref16 {
		udhLen = 7
	}
	var dc uint8
	var bodies [][]byte
	var err error
	switch {
	case mo.Poison == PoisonText:
		dc, bodies = codingIA5, [][]byte{append([]byte(mo.Text), poisonBytes...)}
	case mo.SplitSurrogates:
		dc, bodies = codingUCS2, cutEven(ucs2(mo.Text), 140-udhLen)
	default:
		dc, bodies, err = moBodies(mo.Text, mo.Encoding, udhLen)
	}
	if err != nil {
		return 0, nil, err
	}
	if !mo.Ref16 {
		ref &= 0xFF
	}
	parts, err := moParts(bodies, ref, mo.Ref16, mo.Parts)
	return dc, parts, err
}
