package smpp

// data_sm (SMPP 3.4 §4.7): an SMSC may send delivery receipts and MO messages
// as data_sm instead of deliver_sm. It is decoded into a Deliver (its text and
// options in message_payload and the other TLVs) and answered data_sm_resp.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

// Command ids of data_sm and data_sm_resp.
const (
	dataSMID     pdu.ID = 0x00000103
	dataSMRespID pdu.ID = 0x80000103
)

var errShortDataSM = errors.New("data_sm body ends before data_coding")

// decodeDataSM decodes a data_sm frame. Its mandatory parameters are those of
// deliver_sm without protocol_id, priority_flag, the two times,
// replace_if_present_flag, sm_default_msg_id and short_message (left zero and
// empty); its TLVs (message_payload, receipted_message_id, …) are read as a
// deliver_sm's. Unlike a deliver_sm, a body that ends before data_coding is an
// error.
func decodeDataSM(f frame, now time.Time) (Deliver, error) {
	r := bodyReader{b: bytes.Clone(f.raw[pdu.HeaderLen:])} // the frame's buffer is reused
	d := Deliver{Seq: f.seq, ReceivedAt: now, DataSM: true, ShortMessage: []byte{}}
	whole := r.str(&d.ServiceType) && r.u8(&d.Source.TON) && r.u8(&d.Source.NPI) && r.str(&d.Source.Addr) &&
		r.u8(&d.Dest.TON) && r.u8(&d.Dest.NPI) && r.str(&d.Dest.Addr) && r.u8(&d.ESMClass) &&
		r.u8(&d.RegisteredDelivery) && r.u8(&d.DataCoding)
	if !whole {
		return Deliver{}, fmt.Errorf("decode data_sm: %w", errShortDataSM)
	}
	if err := d.readTLVs(r.b); err != nil {
		return Deliver{}, fmt.Errorf("decode data_sm: %w", err)
	}
	d.finish()
	return d, nil
}

// appendDeliverResp appends the answer to d: deliver_sm_resp, or data_sm_resp
// (an empty message_id) for a data_sm.
func appendDeliverResp(buf *bytes.Buffer, d *Deliver, st Status) error {
	if !d.DataSM {
		return encodePDU(buf, pdu.NewDeliverSMResp(), d.Seq, st)
	}
	var b [pdu.HeaderLen + 1]byte
	binary.BigEndian.PutUint32(b[0:4], uint32(len(b)))
	binary.BigEndian.PutUint32(b[4:8], uint32(dataSMRespID))
	binary.BigEndian.PutUint32(b[8:12], uint32(st))
	binary.BigEndian.PutUint32(b[12:16], d.Seq)
	buf.Write(b[:])
	return nil
}
