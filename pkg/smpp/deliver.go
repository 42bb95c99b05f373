package smpp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutext"
)

// TLV tags read from deliver_sm.
const (
	TagReceiptedMessageID uint16 = 0x001E
	TagNetworkErrorCode   uint16 = 0x0423
	TagMessagePayload     uint16 = 0x0424
	TagMessageState       uint16 = 0x0427
)

// Deliver is a decoded deliver_sm: a delivery receipt or a mobile-originated
// message.
type Deliver struct {
	// Seq is the SMSC's sequence number of the deliver_sm.
	Seq uint32
	// ReceivedAt is when the PDU was read.
	ReceivedAt time.Time

	ServiceType        string
	Source             Address
	Dest               Address
	ESMClass           uint8
	ProtocolID         uint8
	PriorityFlag       uint8
	RegisteredDelivery uint8
	DataCoding         uint8

	// ShortMessage is the raw short_message, User Data Header included.
	ShortMessage []byte
	// MessagePayload is the raw message_payload TLV (0x0424), if present.
	MessagePayload []byte
	// TLVs holds every optional parameter by tag.
	TLVs map[uint16][]byte

	// UDH is the parsed User Data Header when esm_class has UDHI set.
	UDH *UDH
	// Text is the user data (message_payload when present, else
	// short_message) without its UDH, decoded per data_coding: GSM 03.38
	// unpacked one septet per octet (escape sequences included), IA5/ASCII,
	// Latin-1, ISO-8859-5 or UCS-2 big endian. It is empty for binary data
	// and for alphabets not listed.
	Text string
	// IsReceipt reports a delivery receipt or intermediate notification:
	// esm_class message type 0x04 or 0x20, or a receipted_message_id or
	// message_state TLV.
	IsReceipt bool
	// DataSM reports that it came as a data_sm (answered data_sm_resp).
	DataSM bool
}

// UCS2 reports whether the user data is UCS-2: the parts of a concatenated
// UCS-2 message are decoded together (a character may straddle two parts).
func (d *Deliver) UCS2() bool { return alphabetOf(d.DataCoding) == alphaUCS2 }

// UDH is a parsed User Data Header.
type UDH struct {
	// Raw is the header including its length octet.
	Raw []byte
	// Concat reports a concatenation element (IEI 0x00 with an 8-bit
	// reference, or IEI 0x08 with a 16-bit reference).
	Concat bool
	Ref    uint16
	Total  uint8
	Part   uint8
}

// UserData returns the message body octets without the UDH: message_payload
// when present, short_message otherwise.
func (d *Deliver) UserData() []byte {
	ud := d.ShortMessage
	if len(d.MessagePayload) > 0 {
		ud = d.MessagePayload
	}
	if d.ESMClass&ESMClassUDHI != 0 && len(ud) > 0 && int(ud[0])+1 <= len(ud) {
		return ud[int(ud[0])+1:]
	}
	return ud
}

// decodeDeliver decodes a deliver_sm frame.
//
// deliver_sm and submit_sm share the same mandatory-parameter layout (SMPP 3.4
// §4.4.1 and §4.6.1), read here field by field as the go-smpp codec reads the
// submit_sm layout (its field map cost the gateway a tenth of its CPU; its
// deliver_sm layout strips the UDH off short_message and reads past sm_length when
// UDHI is set on an empty short_message). TestDecodeDeliverMatchesCodec holds it to
// the codec over random and truncated bodies: a body that ends inside the mandatory
// fields leaves the rest unset, a short_message or TLV longer than what is left is
// an error.
func decodeDeliver(f frame, now time.Time) (Deliver, error) {
	if len(f.raw) > pdu.MaxSize {
		return Deliver{}, fmt.Errorf("decode deliver_sm: %s of %d octets exceeds the codec limit of %d", f.id, len(f.raw), pdu.MaxSize)
	}
	r := bodyReader{b: bytes.Clone(f.raw[pdu.HeaderLen:])} // the frame's buffer is reused
	d := Deliver{Seq: f.seq, ReceivedAt: now}
	var smLength uint8
	// nil: schedule_delivery_time, validity_period, replace_if_present_flag and
	// sm_default_msg_id, read and not kept.
	whole := r.str(&d.ServiceType) && r.u8(&d.Source.TON) && r.u8(&d.Source.NPI) && r.str(&d.Source.Addr) &&
		r.u8(&d.Dest.TON) && r.u8(&d.Dest.NPI) && r.str(&d.Dest.Addr) && r.u8(&d.ESMClass) && r.u8(&d.ProtocolID) &&
		r.u8(&d.PriorityFlag) && r.str(nil) && r.str(nil) && r.u8(&d.RegisteredDelivery) && r.u8(nil) &&
		r.u8(&d.DataCoding) && r.u8(nil) && r.u8(&smLength)
	if !whole {
		d.finish()
		return d, nil
	}
	if len(r.b) < int(smLength) {
		return Deliver{}, fmt.Errorf("decode deliver_sm: short_message of %d octets, %d left", smLength, len(r.b))
	}
	d.ShortMessage, r.b = r.b[:smLength:smLength], r.b[smLength:]
	if err := d.readTLVs(r.b); err != nil {
		return Deliver{}, fmt.Errorf("decode deliver_sm: %w", err)
	}
	d.finish()
	return d, nil
}

// bodyReader reads a PDU body's mandatory fields in order.
type bodyReader struct{ b []byte }

// str reads a C-octet string into to (nil: skipped) without its NUL; a body
// without the NUL ends there (false, nothing left).
func (r *bodyReader) str(to *string) bool {
	i := bytes.IndexByte(r.b, 0)
	if i < 0 {
		r.b = nil
		return false
	}
	if to != nil {
		*to = string(r.b[:i])
	}
	r.b = r.b[i+1:]
	return true
}

// u8 reads one octet into to (nil: skipped); false at the body's end.
func (r *bodyReader) u8(to *uint8) bool {
	if len(r.b) == 0 {
		return false
	}
	if to != nil {
		*to = r.b[0]
	}
	r.b = r.b[1:]
	return true
}

// readTLVs reads the optional parameters that follow short_message: a tag set
// twice keeps its last value, fewer than four octets left are ignored.
func (d *Deliver) readTLVs(b []byte) error {
	for len(b) >= 4 {
		tag, n := binary.BigEndian.Uint16(b[0:2]), int(binary.BigEndian.Uint16(b[2:4]))
		if len(b)-4 < n {
			return fmt.Errorf("TLV 0x%04X of %d octets, %d left", tag, n, len(b)-4)
		}
		if d.TLVs == nil {
			d.TLVs = map[uint16][]byte{}
		}
		d.TLVs[tag], b = b[4:4+n:4+n], b[4+n:]
	}
	d.MessagePayload = d.TLVs[TagMessagePayload]
	return nil
}

// finish derives what the fields imply: receipt or not, the UDH and the text.
func (d *Deliver) finish() {
	d.IsReceipt = looksLikeReceipt(d)
	ud := d.ShortMessage
	if len(d.MessagePayload) > 0 {
		ud = d.MessagePayload
	}
	if d.ESMClass&ESMClassUDHI != 0 {
		d.UDH = parseUDH(ud)
	}
	d.Text = decodeText(d.DataCoding, d.UserData())
}

func looksLikeReceipt(d *Deliver) bool {
	mt := d.ESMClass & ESMClassReceiptMask
	_, hasID := d.TLVs[TagReceiptedMessageID]
	_, hasState := d.TLVs[TagMessageState]
	return mt == ESMClassSMSCReceipt || mt == ESMClassIntermediate || hasID || hasState
}

// parseUDH parses the User Data Header at the start of ud, or returns nil
// when it is malformed.
func parseUDH(ud []byte) *UDH {
	if len(ud) == 0 || int(ud[0])+1 > len(ud) {
		return nil
	}
	h := &UDH{Raw: ud[:int(ud[0])+1]}
	ies := h.Raw[1:]
	for len(ies) >= 2 {
		iei, n := ies[0], int(ies[1])
		if 2+n > len(ies) {
			return nil
		}
		data := ies[2 : 2+n]
		switch {
		case iei == 0x00 && n == 3:
			h.Concat, h.Ref, h.Total, h.Part = true, uint16(data[0]), data[1], data[2]
		case iei == 0x08 && n == 4:
			h.Concat, h.Ref, h.Total, h.Part = true, binary.BigEndian.Uint16(data[0:2]), data[2], data[3]
		}
		ies = ies[2+n:]
	}
	return h
}

type alphabet uint8

const (
	alphaBinary alphabet = iota
	alphaGSM7
	alphaASCII
	alphaLatin1
	alphaCyrillic
	alphaUCS2
)

// alphabetOf maps data_coding to an alphabet: SMPP 3.4 values 0x00-0x0F and
// the GSM 03.38 coding groups above them.
func alphabetOf(dc uint8) alphabet {
	switch {
	case dc == 0x00:
		return alphaGSM7
	case dc == 0x01:
		return alphaASCII
	case dc == 0x03:
		return alphaLatin1
	case dc == 0x06:
		return alphaCyrillic
	case dc == 0x08:
		return alphaUCS2
	case dc < 0x10:
		return alphaBinary
	case dc < 0x80: // general data coding, possibly marked for deletion
		if dc&0x20 != 0 { // compressed
			return alphaBinary
		}
		switch (dc >> 2) & 0x03 {
		case 0:
			return alphaGSM7
		case 2:
			return alphaUCS2
		}
		return alphaBinary
	case dc >= 0xC0 && dc < 0xE0: // message waiting, GSM 7-bit
		return alphaGSM7
	case dc >= 0xE0 && dc < 0xF0: // message waiting, UCS-2
		return alphaUCS2
	case dc >= 0xF0: // data coding/message class
		if dc&0x04 == 0 {
			return alphaGSM7
		}
		return alphaBinary
	}
	return alphaBinary
}

// gsm7ASCII marks the septets the GSM 03.38 default alphabet gives the same
// character as ASCII: line feed, carriage return, space to '#', '%' to '?', 'A' to
// 'Z' and 'a' to 'z' (not '$', '@', '[' to '`', '{' to DEL, nor the other controls).
var gsm7ASCII = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '\n' || c == '\r' || (c >= ' ' && c <= '#') || (c >= '%' && c <= '?') ||
			(c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
	}
	return t
}()

// asciiGSM7 reports whether every septet of b reads the same in ASCII, as a
// receipt's text does ("id:… stat:DELIVRD err:000"): its decoding is b itself.
func asciiGSM7(b []byte) bool {
	for _, c := range b {
		if !gsm7ASCII[c] {
			return false
		}
	}
	return true
}

func decodeText(dc uint8, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	switch alphabetOf(dc) {
	case alphaGSM7:
		if asciiGSM7(b) {
			return string(b) // what the decoder would return, without its table lookups
		}
		return string(pdutext.GSM7(b).Decode())
	case alphaASCII:
		return string(b)
	case alphaLatin1:
		return string(pdutext.Latin1(b).Decode())
	case alphaCyrillic:
		return string(pdutext.ISO88595(b).Decode())
	case alphaUCS2:
		return string(pdutext.UCS2(b[:len(b)&^1]).Decode())
	}
	return ""
}
