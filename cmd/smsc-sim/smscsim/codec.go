package smscsim

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
	"github.com/fiorix/go-smpp/smpp/pdu/pdutlv"
)

// SMPP 3.4 command_status values used by the simulator.
const (
	StatusOK            = 0x00000000
	StatusInvMsgLen     = 0x00000001 // ESME_RINVMSGLEN
	StatusInvCmdLen     = 0x00000002 // ESME_RINVCMDLEN
	StatusInvCmdID      = 0x00000003 // ESME_RINVCMDID
	StatusInvBndSts     = 0x00000004 // ESME_RINVBNDSTS
	StatusAlyBnd        = 0x00000005 // ESME_RALYBND
	StatusSysErr        = 0x00000008 // ESME_RSYSERR
	StatusInvDstAdr     = 0x0000000B // ESME_RINVDSTADR
	StatusBindFail      = 0x0000000D // ESME_RBINDFAIL
	StatusInvPaswd      = 0x0000000E // ESME_RINVPASWD
	StatusInvEsmClass   = 0x00000043 // ESME_RINVESMCLASS
	StatusThrottled     = 0x00000058 // ESME_RTHROTTLED
	tagSCInterfaceVer   = pdutlv.Tag(0x0210)
	tagMessageState     = pdutlv.TagMessageStateOption // 0x0427 message_state
	tagReceiptedMsgID   = pdutlv.TagReceiptedMessageID // 0x001E
	maxFrame            = 64 * 1024
	receiptSnippetChars = 20
)

// omitted is a zero-length field value. go-smpp's codec serialises every
// field of a PDU's field list; setting a field to omitted leaves it out of
// the wire format. It is used for the bodies of negative responses (SMPP
// 3.4: no body when command_status is not 0) and for the UDH pseudo-fields
// of deliver_sm, whose default would otherwise add a stray 0x00 octet.
var omitted pdufield.Body = &pdufield.SM{}

// encode serialises a PDU with the given sequence number and status.
func encode(p pdu.Body, seq uint32, status uint32) ([]byte, error) {
	h := p.Header()
	h.Seq = seq
	h.Status = pdu.Status(status)
	if status != StatusOK {
		for _, name := range p.FieldList() {
			p.Fields()[name] = omitted
		}
	}
	var b bytes.Buffer
	b.Grow(p.Len() + 16)
	if err := p.SerializeTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func fieldString(f pdufield.Map, name pdufield.Name) string {
	if v, ok := f[name]; ok && v != nil {
		return v.String()
	}
	return ""
}

func fieldByte(f pdufield.Map, name pdufield.Name) uint8 {
	if v, ok := f[name].(*pdufield.Fixed); ok {
		return v.Data
	}
	return 0
}

func fieldBytes(f pdufield.Map, name pdufield.Name) []byte {
	if v, ok := f[name]; ok && v != nil {
		return v.Bytes()
	}
	return nil
}

// newDeliverSM returns a deliver_sm whose UDH pseudo-fields are left out, so
// short_message carries the UDH itself when esm_class has UDHI set.
func newDeliverSM() pdu.Body {
	p := pdu.NewDeliverSM()
	f := p.Fields()
	f[pdufield.UDHLength] = omitted
	f[pdufield.GSMUserData] = omitted
	return p
}

// addrTON guesses TON/NPI of an address: international E.164, short code
// or alphanumeric.
func addrTON(a string) (ton, npi uint8) {
	digits := a != ""
	for i := 0; i < len(a); i++ {
		if a[i] < '0' || a[i] > '9' {
			digits = false
			break
		}
	}
	switch {
	case !digits:
		return 5, 0
	case len(a) >= 10 && strings.HasPrefix(a, "98"):
		return 1, 1
	default:
		return 0, 1
	}
}

// receipt describes one delivery receipt to encode.
type receipt struct {
	msgID    string // receipted_message_id and submit_sm_resp id
	textID   string // id in the receipt text
	handset  string // destination of the submit_sm; source of the receipt
	handTON  uint8
	handNPI  uint8
	esme     string // source of the submit_sm; destination of the receipt
	esmeTON  uint8
	esmeNPI  uint8
	submitAt time.Time
	doneAt   time.Time
	stat     Stat
	err      string // the "err:" code; empty: the stat's own
	snippet  string
	location *time.Location
	poison   PoisonField // a field given invalid bytes (Config.PoisonReceipts)
}

// receiptText is the de-facto standard receipt text (SMPP 3.4 Appendix B).
func (r *receipt) text() string {
	dlvrd := "000"
	if r.stat == StatDelivered {
		dlvrd = "001"
	}
	const layout = "0601021504"
	code := r.err
	if code == "" {
		code = r.stat.errCode()
	}
	return fmt.Sprintf("id:%s sub:001 dlvrd:%s submit date:%s done date:%s stat:%s err:%s text:%s",
		poison(r.textID, PoisonID, r.poison), dlvrd, r.submitAt.In(r.location).Format(layout), r.doneAt.In(r.location).Format(layout),
		r.stat, code, r.snippet)
}

// encode builds the receipt deliver_sm: esm_class 0x04, data_coding 0, the
// receipt text and the receipted_message_id and message_state TLVs.
func (r *receipt) encode() ([]byte, error) {
	p := newDeliverSM()
	f := p.Fields()
	f.Set(pdufield.SourceAddrTON, r.handTON)
	f.Set(pdufield.SourceAddrNPI, r.handNPI)
	f.Set(pdufield.SourceAddr, poison(r.handset, PoisonSource, r.poison))
	f.Set(pdufield.DestAddrTON, r.esmeTON)
	f.Set(pdufield.DestAddrNPI, r.esmeNPI)
	f.Set(pdufield.DestinationAddr, poison(r.esme, PoisonDest, r.poison))
	f.Set(pdufield.ESMClass, uint8(0x04))
	f.Set(pdufield.DataCoding, uint8(0))
	if err := f.Set(pdufield.ShortMessage, []byte(r.text())); err != nil {
		return nil, err
	}
	t := p.TLVFields()
	t.Set(tagReceiptedMsgID, pdutlv.CString(poison(r.msgID, PoisonID, r.poison)))
	t.Set(tagMessageState, r.stat.MessageState())
	return encode(p, 0, StatusOK)
}

// encodeMODeliver builds the deliver_sm of one MO part.
func encodeMODeliver(from, to string, dc uint8, part moPart) ([]byte, error) {
	p := newDeliverSM()
	f := p.Fields()
	ston, snpi := addrTON(from)
	dton, dnpi := addrTON(to)
	f.Set(pdufield.SourceAddrTON, ston)
	f.Set(pdufield.SourceAddrNPI, snpi)
	f.Set(pdufield.SourceAddr, from)
	f.Set(pdufield.DestAddrTON, dton)
	f.Set(pdufield.DestAddrNPI, dnpi)
	f.Set(pdufield.DestinationAddr, to)
	esm := uint8(0x00)
	if part.udh {
		esm = 0x40
	}
	f.Set(pdufield.ESMClass, esm)
	f.Set(pdufield.DataCoding, dc)
	if err := f.Set(pdufield.ShortMessage, part.sm); err != nil {
		return nil, err
	}
	return encode(p, 0, StatusOK)
}
