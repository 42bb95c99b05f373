package smscsim

import (
	"encoding/hex"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/sms"
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
	case "BINARY":
		return hex.EncodeToString(b)
	case "IA5":
		if utf8.Valid(b) {
			return string(b)
		}
	case "UCS2":
		if len(b)%2 == 1 {
			b = b[:len(b)-1] // a truncated unit is dropped, as handsets do
		}
	}
	if dc != codingGSM7 && dc != codingUCS2 && dc != codingIA5 {
		dc = codingLatin1 // unknown codings are shown byte by byte
	}
	text, _, _, _, err := sms.Decode(dc, b, false)
	if err != nil {
		return hex.EncodeToString(b)
	}
	return text
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
