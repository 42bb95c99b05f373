package sms

import (
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// udhLen is the length of the concatenation user data header Split writes:
// UDHL 05, IEI 00 (8-bit reference), IEDL 03, reference, total, sequence.
const udhLen = 6

// Errors of Split and Decode.
var (
	ErrTooManyParts = errors.New("پیامک بیش از ۲۵۵ بخش دارد و قابل ارسال نیست")
	ErrDataCoding   = errors.New("کدگذاری (data_coding) پیامک پشتیبانی نمی‌شود")
	ErrUDH          = errors.New("سرآیند داده کاربر (UDH) پیامک نامعتبر است")
	ErrSeptet       = errors.New("پیامک شامل کد نامعتبر الفبای GSM است")
	ErrOddUCS2      = errors.New("طول داده UCS-2 پیامک فرد است")
)

// Part is one short message of a split text, ready for an SMPP submit_sm.
type Part struct {
	Seq      int      // 1-based position
	Total    int      // number of parts of the message
	Ref      uint8    // concatenation reference (meaningful when Total > 1)
	Encoding Encoding // alphabet of the whole message
	Units    int      // septets or UTF-16 units of text in this part
	// Payload is the short_message: for a concatenated message the six-byte
	// header 05 00 03 ref total seq, then the text as unpacked GSM-7 septets
	// (one per byte, an extension character as 0x1B and its code) or as
	// UTF-16 big-endian.
	Payload []byte
}

// DataCoding returns the submit_sm data_coding: 0x00 for GSM-7, 0x08 for
// UCS-2.
func (p Part) DataCoding() byte { return p.Encoding.DataCoding() }

// UDHI reports whether Payload starts with a user data header, in which case
// esm_class must have ESMClassUDHI (0x40) set.
func (p Part) UDHI() bool { return p.Total > 1 }

// Body returns Payload without the user data header.
func (p Part) Body() []byte {
	if p.UDHI() {
		return p.Payload[udhLen:]
	}
	return p.Payload
}

// AirOctets returns the size of the part's user data over the air, where the
// SMSC packs GSM-7 septets into 7 bits (after the header and its fill bits).
// It is at most 140 for every part Split makes.
func (p Part) AirOctets() int {
	if p.Encoding == UCS2 {
		return len(p.Payload)
	}
	bits := 7 * p.Units
	if p.UDHI() {
		// The header is padded to a septet boundary.
		bits += (udhLen*8 + 6) / 7 * 7
	}
	return (bits + 7) / 8
}

// Split encodes text (already composed: see Compose) into the parts to
// submit, using ref as the concatenation reference. A text that fits in one
// part gives a single part without a header; the empty text gives no parts.
// len(parts) always equals Count's Parts for the same text. Invalid UTF-8
// bytes are sent as U+FFFD. It fails with ErrTooManyParts beyond MaxParts.
func Split(text string, ref uint8) ([]Part, error) {
	m := measurement{gsm: true}
	m.add(text)
	enc, n, pairs := m.result()
	if n == 0 {
		return nil, nil
	}
	single, multi := enc.capacities()
	body := encode(enc, text, n)
	if n <= single {
		return []Part{{Seq: 1, Total: 1, Ref: ref, Encoding: enc, Units: n, Payload: body}}, nil
	}

	// Unit offsets at which each part starts.
	var starts []int
	if pairs {
		p := packer{capacity: multi}
		for off := 0; off < n; {
			w := 1
			if enc == GSM7 && body[off] == escape {
				w = 2
			} else if enc == UCS2 && utf16.IsSurrogate(rune(body[2*off])<<8|rune(body[2*off+1])) {
				w = 2
			}
			if p.add(w) {
				starts = append(starts, off)
			}
			off += w
		}
	} else {
		starts = make([]int, 0, (n+multi-1)/multi)
		for off := 0; off < n; off += multi {
			starts = append(starts, off)
		}
	}
	total := len(starts)
	if total > MaxParts {
		return nil, ErrTooManyParts
	}

	unitBytes := 1
	if enc == UCS2 {
		unitBytes = 2
	}
	buf := make([]byte, 0, len(body)+udhLen*total)
	parts := make([]Part, total)
	for i, start := range starts {
		end := n
		if i+1 < total {
			end = starts[i+1]
		}
		from := len(buf)
		buf = append(buf, 0x05, 0x00, 0x03, ref, byte(total), byte(i+1))
		buf = append(buf, body[start*unitBytes:end*unitBytes]...)
		parts[i] = Part{
			Seq: i + 1, Total: total, Ref: ref, Encoding: enc,
			Units: end - start, Payload: buf[from:len(buf):len(buf)],
		}
	}
	return parts, nil
}

// encode returns text in enc: unpacked septets or UTF-16 big-endian. n is
// its length in units.
func encode(enc Encoding, text string, n int) []byte {
	if enc == GSM7 {
		out := make([]byte, 0, n)
		for _, r := range text {
			code, ext, _ := gsmCode(r)
			if ext {
				out = append(out, escape)
			}
			out = append(out, code)
		}
		return out
	}
	out := make([]byte, 0, 2*n)
	for _, r := range text {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			out = append(out, byte(hi>>8), byte(hi), byte(lo>>8), byte(lo))
		} else {
			out = append(out, byte(r>>8), byte(r))
		}
	}
	return out
}

// Decode reads a received short_message: dataCoding is the SMPP data_coding
// (0x00 GSM-7 unpacked septets, 0x01 IA5/ASCII, 0x03 Latin-1, 0x08 UCS-2) and
// hasUDH tells whether esm_class has UDHI set. For a concatenated part ref,
// total and seq come from the header's concatenation element (8-bit or
// 16-bit reference); otherwise they are 0, 1, 1. Joining the texts of all
// parts in seq order gives the message Split was given.
//
// GSM-7 follows 3GPP TS 23.038: an escape before a code missing from the
// extension table gives the default-alphabet character, and a dangling
// escape a space. UCS-2 decodes as UTF-16, an unpaired surrogate giving
// U+FFFD.
func Decode(dataCoding byte, payload []byte, hasUDH bool) (text string, ref, total, seq int, err error) {
	total, seq = 1, 1
	body := payload
	if hasUDH {
		if len(payload) == 0 || 1+int(payload[0]) > len(payload) {
			return "", 0, 0, 0, ErrUDH
		}
		ies := payload[1 : 1+int(payload[0])]
		body = payload[1+int(payload[0]):]
		for len(ies) > 0 {
			if len(ies) < 2 || 2+int(ies[1]) > len(ies) {
				return "", 0, 0, 0, ErrUDH
			}
			id, data := ies[0], ies[2:2+int(ies[1])]
			ies = ies[2+int(ies[1]):]
			var r, t, s int
			switch {
			case id == 0x00 && len(data) == 3:
				r, t, s = int(data[0]), int(data[1]), int(data[2])
			case id == 0x08 && len(data) == 4:
				r, t, s = int(data[0])<<8|int(data[1]), int(data[2]), int(data[3])
			default:
				continue
			}
			// TS 23.040 9.2.3.24.1: an element with a zero count, a zero
			// sequence or a sequence past the count is ignored.
			if t > 0 && s > 0 && s <= t {
				ref, total, seq = r, t, s
			}
		}
	}

	switch dataCoding {
	case DataCodingGSM7:
		text, err = decodeGSM7(body)
	case 0x01, 0x03:
		// IA5 (ASCII) is a subset of Latin-1, whose bytes are the first 256
		// code points.
		var b strings.Builder
		b.Grow(len(body))
		for _, c := range body {
			b.WriteRune(rune(c))
		}
		text = b.String()
	case DataCodingUCS2:
		if len(body)%2 != 0 {
			return "", 0, 0, 0, ErrOddUCS2
		}
		u := make([]uint16, len(body)/2)
		for i := range u {
			u[i] = uint16(body[2*i])<<8 | uint16(body[2*i+1])
		}
		text = string(utf16.Decode(u))
	default:
		err = ErrDataCoding
	}
	if err != nil {
		return "", 0, 0, 0, err
	}
	return text, ref, total, seq, nil
}

func decodeGSM7(septets []byte) (string, error) {
	out := make([]byte, 0, len(septets)+len(septets)/2)
	for i := 0; i < len(septets); i++ {
		c := septets[i]
		if c >= 0x80 {
			return "", ErrSeptet
		}
		if c != escape {
			out = utf8.AppendRune(out, gsmDefault[c])
			continue
		}
		i++
		if i == len(septets) {
			out = append(out, ' ')
			break
		}
		c = septets[i]
		if c >= 0x80 {
			return "", ErrSeptet
		}
		if r, ok := gsmExtension[c]; ok {
			out = utf8.AppendRune(out, r)
		} else if c == escape {
			out = append(out, ' ')
		} else {
			out = utf8.AppendRune(out, gsmDefault[c])
		}
	}
	return string(out), nil
}
