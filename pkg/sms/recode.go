package sms

import "fmt"

// Data codings a GSM-7 part can be re-coded to for an SMSC whose default
// alphabet is not GSM 03.38 (SMPP 3.4 §5.2.19).
const (
	CodingGSM7   byte = 0x00
	CodingIA5    byte = 0x01
	CodingLatin1 byte = 0x03
)

// Recode converts a GSM-7 part's payload (unpacked septets, after its UDH when
// hasUDH) to IA5/ASCII or Latin-1 bytes for an SMSC that expects them: '@' and
// '$' keep their meaning instead of arriving as other characters. Characters
// the target alphabet lacks become '?'. Every GSM-7 character, escaped ones
// too, is one byte in the target, so a part never grows and the split stays as
// it was. The UDH is copied unchanged.
func Recode(payload []byte, hasUDH bool, to byte) ([]byte, error) {
	if to == CodingGSM7 {
		return payload, nil
	}
	if to != CodingIA5 && to != CodingLatin1 {
		return nil, fmt.Errorf("sms: cannot re-code to data_coding 0x%02X", to)
	}
	head := 0
	if hasUDH {
		if len(payload) == 0 || 1+int(payload[0]) > len(payload) {
			return nil, ErrUDH
		}
		head = 1 + int(payload[0])
	}
	text, _, _, _, err := Decode(CodingGSM7, payload[head:], false)
	if err != nil {
		return nil, err
	}
	limit := rune(0xFF)
	if to == CodingIA5 {
		limit = 0x7F
	}
	out := make([]byte, head, head+len(text))
	copy(out, payload[:head])
	for _, r := range text {
		if r > limit {
			r = '?'
		}
		out = append(out, byte(r))
	}
	return out, nil
}
