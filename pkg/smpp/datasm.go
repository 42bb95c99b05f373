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
// replace_if_present_flag, sm_default_msg_id and short_message: they are
// filled in (all zero, an empty short_message) and the frame is decoded as a
// deliver_sm, its TLVs (message_payload, receipted_message_id, …) untouched.
func decodeDataSM(f frame, now time.Time) (Deliver, error) {
	body := f.raw[pdu.HeaderLen:]
	off := 0
	cstr := func() error {
		i := bytes.IndexByte(body[min(off, len(body)):], 0)
		if i < 0 {
			return errShortDataSM
		}
		off += i + 1
		return nil
	}
	fixed := func(n int) error {
		if off+n > len(body) {
			return errShortDataSM
		}
		off += n
		return nil
	}
	// service_type, source TON/NPI/addr, destination TON/NPI/addr, then
	// esm_class, registered_delivery and data_coding.
	for _, step := range []func() error{cstr, func() error { return fixed(2) }, cstr, func() error { return fixed(2) }, cstr, func() error { return fixed(3) }} {
		if err := step(); err != nil {
			return Deliver{}, fmt.Errorf("decode data_sm: %w", err)
		}
	}
	esm, rd, dc := body[off-3], body[off-2], body[off-1]
	out := make([]byte, 0, len(f.raw)+8)
	out = append(out, f.raw[:pdu.HeaderLen]...)
	out = append(out, body[:off-3]...)
	// esm_class, protocol_id, priority_flag, schedule_delivery_time,
	// validity_period, registered_delivery, replace_if_present_flag,
	// data_coding, sm_default_msg_id, sm_length.
	out = append(out, esm, 0, 0, 0, 0, rd, 0, dc, 0, 0)
	out = append(out, body[off:]...)
	binary.BigEndian.PutUint32(out[0:4], uint32(len(out)))
	d, err := decodeDeliver(frame{id: pdu.DeliverSMID, status: f.status, seq: f.seq, raw: out}, now)
	if err != nil {
		return Deliver{}, fmt.Errorf("decode data_sm: %w", err)
	}
	d.DataSM = true
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
