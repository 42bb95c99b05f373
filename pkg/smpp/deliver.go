package smpp

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
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

// decodeDeliver decodes a deliver_sm frame. The frame buffer is modified.
//
// deliver_sm and submit_sm share the same mandatory-parameter layout (SMPP
// 3.4 §4.4.1 and §4.6.1), so the body is decoded with the codec's submit_sm
// layout: the codec's deliver_sm layout strips the UDH off short_message and
// reads past sm_length when UDHI is set on an empty short_message.
func decodeDeliver(f frame, now time.Time) (Deliver, error) {
	binary.BigEndian.PutUint32(f.raw[4:8], uint32(pdu.SubmitSMID))
	p, err := f.decode()
	if err != nil {
		return Deliver{}, fmt.Errorf("decode deliver_sm: %w", err)
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
	d := Deliver{
		Seq:                f.seq,
		ReceivedAt:         now,
		ServiceType:        str(pdufield.ServiceType),
		Source:             Address{Addr: str(pdufield.SourceAddr), TON: fixed(pdufield.SourceAddrTON), NPI: fixed(pdufield.SourceAddrNPI)},
		Dest:               Address{Addr: str(pdufield.DestinationAddr), TON: fixed(pdufield.DestAddrTON), NPI: fixed(pdufield.DestAddrNPI)},
		ESMClass:           fixed(pdufield.ESMClass),
		ProtocolID:         fixed(pdufield.ProtocolID),
		PriorityFlag:       fixed(pdufield.PriorityFlag),
		RegisteredDelivery: fixed(pdufield.RegisteredDelivery),
		DataCoding:         fixed(pdufield.DataCoding),
	}
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
	d.IsReceipt = looksLikeReceipt(&d)

	ud := d.ShortMessage
	if len(d.MessagePayload) > 0 {
		ud = d.MessagePayload
	}
	if d.ESMClass&ESMClassUDHI != 0 {
		d.UDH = parseUDH(ud)
	}
	d.Text = decodeText(d.DataCoding, d.UserData())
	return d, nil
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
