package smscsim

import (
	"encoding/hex"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Data coding values understood by the simulator.
const (
	codingGSM7   = 0x00
	codingIA5    = 0x01
	codingBinary = 0x02
	codingLatin1 = 0x03
	codingBin2   = 0x04
	codingUCS2   = 0x08
)

// gsm7Basic is the GSM 03.38 default alphabet indexed by septet. Index 0x1B
// is the escape to the extension table and never decoded from this table.
var gsm7Basic = [128]rune{
	'@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å',
	'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', ' ', 'Æ', 'æ', 'ß', 'É',
	' ', '!', '"', '#', '¤', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/',
	'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?',
	'¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O',
	'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§',
	'¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à',
}

// gsm7Ext is the GSM 03.38 extension table (septets following 0x1B).
var gsm7Ext = map[byte]rune{
	0x0A: '\f', 0x14: '^', 0x28: '{', 0x29: '}', 0x2F: '\\',
	0x3C: '[', 0x3D: '~', 0x3E: ']', 0x40: '|', 0x65: '€',
}

var (
	gsm7BasicRev = map[rune]byte{}
	gsm7ExtRev   = map[rune]byte{}
)

func init() {
	for i, r := range gsm7Basic {
		if i == 0x1B {
			continue
		}
		gsm7BasicRev[r] = byte(i)
	}
	for b, r := range gsm7Ext {
		gsm7ExtRev[r] = b
	}
}

// decodeGSM7 decodes unpacked GSM 7-bit septets (one septet per byte),
// including escape sequences to the extension table.
func decodeGSM7(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i] & 0x7F
		if c == 0x1B {
			if i+1 >= len(b) {
				// A dangling escape is shown as a space (3GPP TS 23.038).
				sb.WriteByte(' ')
				break
			}
			i++
			n := b[i] & 0x7F
			if r, ok := gsm7Ext[n]; ok {
				sb.WriteRune(r)
			} else {
				// Unknown extension: display the default-alphabet character.
				sb.WriteRune(gsm7Basic[n])
			}
			continue
		}
		sb.WriteRune(gsm7Basic[c])
	}
	return sb.String()
}

// gsm7Septets reports how many septets s needs in the GSM 7-bit alphabet and
// whether every character is representable.
func gsm7Septets(s string) (int, bool) {
	n := 0
	for _, r := range s {
		if _, ok := gsm7BasicRev[r]; ok {
			n++
			continue
		}
		if _, ok := gsm7ExtRev[r]; ok {
			n += 2
			continue
		}
		return 0, false
	}
	return n, true
}

// encodeGSM7Char appends the unpacked septets of r to dst. The caller has
// checked that r is representable.
func encodeGSM7Char(dst []byte, r rune) []byte {
	if c, ok := gsm7BasicRev[r]; ok {
		return append(dst, c)
	}
	return append(dst, 0x1B, gsm7ExtRev[r])
}

// decodeUCS2 decodes big-endian UTF-16 (UCS-2 as sent by SMPP clients).
func decodeUCS2(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return string(utf16.Decode(u))
}

// decodeLatin1 maps each byte to the Unicode code point of the same value.
func decodeLatin1(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}

// encodingName is the label shown by the inspection API for a data_coding.
func encodingName(dc uint8) string {
	switch {
	case dc == codingGSM7:
		return "GSM7"
	case dc == codingIA5:
		return "IA5"
	case dc == codingLatin1:
		return "LATIN1"
	case dc == codingUCS2:
		return "UCS2"
	case dc == codingBinary || dc == codingBin2:
		return "BINARY"
	case dc&0xF0 == 0xF0:
		if dc&0x04 != 0 {
			return "BINARY"
		}
		return "GSM7"
	default:
		return "LATIN1"
	}
}

// decodeText decodes a short message payload (without UDH) according to its
// data_coding. Binary payloads are shown as hexadecimal.
func decodeText(dc uint8, b []byte) string {
	switch encodingName(dc) {
	case "GSM7":
		return decodeGSM7(b)
	case "UCS2":
		return decodeUCS2(b)
	case "BINARY":
		return hex.EncodeToString(b)
	case "IA5":
		if utf8.Valid(b) {
			return string(b)
		}
		return decodeLatin1(b)
	default:
		return decodeLatin1(b)
	}
}

// receiptSnippet returns the first n characters of the payload for the
// "text:" field of a receipt, restricted to printable ASCII so the receipt
// stays valid in the default alphabet.
func receiptSnippet(dc uint8, b []byte, n int) string {
	// Decoding more than 4 bytes per character is never needed.
	if len(b) > 4*n {
		b = b[:4*n]
	}
	if encodingName(dc) == "UCS2" && len(b)%2 == 1 {
		b = b[:len(b)-1]
	}
	s := decodeText(dc, b)
	out := make([]byte, 0, n)
	for _, r := range s {
		if len(out) == n {
			break
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			out = append(out, ' ')
		case r >= 0x20 && r < 0x7F:
			out = append(out, byte(r))
		default:
			out = append(out, '?')
		}
	}
	return string(out)
}

// concat is the concatenation information of one part.
type concat struct {
	ref   uint16
	wide  bool // 16-bit reference (IEI 0x08)
	total uint8
	seq   uint8
}

// splitUDH separates the user data header from the payload of a short
// message sent with esm_class UDHI. It returns the UDH (including its length
// octet), the payload and the concatenation IE if present. ok is false when
// the UDH is malformed.
func splitUDH(sm []byte) (udh, payload []byte, c concat, has, ok bool) {
	if len(sm) == 0 {
		return nil, nil, c, false, false
	}
	l := int(sm[0])
	if 1+l > len(sm) {
		return nil, nil, c, false, false
	}
	udh, payload = sm[:1+l], sm[1+l:]
	ies := sm[1 : 1+l]
	for len(ies) >= 2 {
		iei, iel := ies[0], int(ies[1])
		if 2+iel > len(ies) {
			return nil, nil, c, false, false
		}
		data := ies[2 : 2+iel]
		switch {
		case iei == 0x00 && iel == 3:
			c = concat{ref: uint16(data[0]), total: data[1], seq: data[2]}
			has = true
		case iei == 0x08 && iel == 4:
			c = concat{ref: uint16(data[0])<<8 | uint16(data[1]), wide: true, total: data[2], seq: data[3]}
			has = true
		}
		ies = ies[2+iel:]
	}
	if has && (c.total == 0 || c.seq == 0 || c.seq > c.total) {
		has = false
	}
	return udh, payload, c, has, true
}

// moPart is one encoded part of a mobile-originated message.
type moPart struct {
	sm  []byte // short_message including the UDH when concatenated
	udh bool
}

// encodeMO encodes text as the handset would: the GSM 7-bit default alphabet
// (unpacked, one septet per byte) when every character is representable,
// UCS-2 otherwise; long texts are split into concatenated parts with an
// 8-bit reference, never inside an escape pair or a surrogate pair.
func encodeMO(text string, ref uint8) (dc uint8, parts []moPart) {
	if n, ok := gsm7Septets(text); ok {
		if n <= 160 {
			var sm []byte
			for _, r := range text {
				sm = encodeGSM7Char(sm, r)
			}
			return codingGSM7, []moPart{{sm: sm}}
		}
		var chunks [][]byte
		var cur []byte
		for _, r := range text {
			enc := encodeGSM7Char(nil, r)
			if len(cur)+len(enc) > 153 {
				chunks = append(chunks, cur)
				cur = nil
			}
			cur = append(cur, enc...)
		}
		chunks = append(chunks, cur)
		return codingGSM7, withUDH(chunks, ref)
	}
	u := utf16.Encode([]rune(text))
	if len(u) <= 70 {
		return codingUCS2, []moPart{{sm: ucs2Bytes(u)}}
	}
	var chunks [][]byte
	for len(u) > 0 {
		n := min(67, len(u))
		if n < len(u) && utf16.IsSurrogate(rune(u[n-1])) && u[n-1] < 0xDC00 {
			n-- // keep a high surrogate with its low surrogate
		}
		chunks = append(chunks, ucs2Bytes(u[:n]))
		u = u[n:]
	}
	return codingUCS2, withUDH(chunks, ref)
}

func ucs2Bytes(u []uint16) []byte {
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c>>8), byte(c)
	}
	return b
}

func withUDH(chunks [][]byte, ref uint8) []moPart {
	parts := make([]moPart, len(chunks))
	for i, c := range chunks {
		sm := make([]byte, 0, 6+len(c))
		sm = append(sm, 0x05, 0x00, 0x03, ref, byte(len(chunks)), byte(i+1))
		parts[i] = moPart{sm: append(sm, c...), udh: true}
	}
	return parts
}
