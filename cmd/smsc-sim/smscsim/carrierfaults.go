package smscsim

// Faults of the inbound side, the way real carriers misbehave: receipts and MO
// carrying bytes that are not UTF-8, receipts and MO sent as data_sm, a
// submit_sm_resp held back until the test releases it, and a generic_nack that
// reuses the sequence number of an outstanding submit_sm.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

// PoisonField names the field of a receipt (Config.PoisonReceipts) or MO
// (MO.Poison) that gets bytes which are not valid UTF-8.
type PoisonField string

// Poisonable fields.
const (
	PoisonID     PoisonField = "id"     // the submit_sm_resp's message_id, the receipted_message_id and the receipt text's id
	PoisonSource PoisonField = "source" // source_addr (the handset)
	PoisonDest   PoisonField = "dest"   // destination_addr (the line)
	PoisonText   PoisonField = "text"   // the MO text (sent as IA5, data_coding 0x01)
)

// poisonBytes are appended to a poisoned field: 0xFF never occurs in UTF-8,
// and 0xC3 starts a sequence the next byte does not continue.
const poisonBytes = "\xff\xc3("

// ParsePoison reads SIM_POISON_RECEIPTS: comma-separated DEST=FIELD where
// FIELD is id, source or dest, e.g. "989121234567=id,989121234568=source":
// the receipts of messages to DEST carry invalid bytes in that field (and, for
// id, the submit_sm_resp too).
func ParsePoison(s string) (map[string]PoisonField, error) {
	out := map[string]PoisonField{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		dest, field, ok := strings.Cut(item, "=")
		f := PoisonField(field)
		if !ok || dest == "" || (f != PoisonID && f != PoisonSource && f != PoisonDest) {
			return nil, fmt.Errorf("smscsim: poison %q: want DEST=id|source|dest", item)
		}
		out[dest] = f
	}
	return out, nil
}

// poison returns v with invalid bytes appended when field is the poisoned one.
func poison(v string, field, poisoned PoisonField) string {
	if field != poisoned || poisoned == "" {
		return v
	}
	return v + poisonBytes
}

// asDataSM rewrites a deliver_sm the simulator encoded into a data_sm
// (SMPP 3.4 §4.7.1): the same addresses, esm_class, registered_delivery,
// data_coding and TLVs, the short message moved into message_payload.
func asDataSM(raw []byte) ([]byte, error) {
	body := raw[pdu.HeaderLen:]
	off := 0
	var err error
	cstr := func() {
		if err != nil {
			return
		}
		i := bytes.IndexByte(body[off:], 0)
		if i < 0 {
			err = fmt.Errorf("smscsim: malformed deliver_sm")
			return
		}
		off += i + 1
	}
	cstr() // service_type
	off += 2
	cstr() // source_addr
	off += 2
	cstr() // destination_addr
	addrEnd := off
	esm := body[off]
	off += 3 // esm_class, protocol_id, priority_flag
	cstr()   // schedule_delivery_time
	cstr()   // validity_period
	if err != nil || off+5 > len(body) {
		return nil, fmt.Errorf("smscsim: malformed deliver_sm")
	}
	rd, dc, n := body[off], body[off+2], int(body[off+4])
	sm := body[off+5 : off+5+n]
	tlvs := body[off+5+n:]
	out := make([]byte, pdu.HeaderLen, len(raw)+8)
	copy(out, raw[:pdu.HeaderLen])
	out = append(out, body[:addrEnd]...)
	out = append(out, esm, rd, dc)
	out = append(out, tlvs...)
	if len(sm) > 0 {
		out = binary.BigEndian.AppendUint16(out, 0x0424)
		out = binary.BigEndian.AppendUint16(out, uint16(len(sm)))
		out = append(out, sm...)
	}
	binary.BigEndian.PutUint32(out[0:4], uint32(len(out)))
	binary.BigEndian.PutUint32(out[4:8], uint32(dataSMID))
	return out, nil
}

// Command ids of data_sm and data_sm_resp, and of query_sm (sent by the nack
// collision fault: an ESME answers it generic_nack).
const (
	dataSMID     pdu.ID = 0x00000103
	dataSMRespID pdu.ID = 0x80000103
	querySMID    pdu.ID = 0x00000003
)

// sendQuerySM writes a query_sm (an empty message_id and source address) with
// sequence number seq: a request an ESME does not serve and answers
// generic_nack with that sequence number.
func (s *session) sendQuerySM(seq uint32) {
	b := make([]byte, pdu.HeaderLen, pdu.HeaderLen+4)
	b = append(b, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(b[0:4], uint32(len(b)))
	binary.BigEndian.PutUint32(b[4:8], uint32(querySMID))
	binary.BigEndian.PutUint32(b[12:16], seq)
	s.write(b)
}

// nackEcho handles the ESME's generic_nack of a query_sm sent by the nack
// collision fault (SubmitFault.NackEcho): it nacks that generic_nack with the
// same sequence number, which is also the sequence number of the submit_sm
// still unanswered, and only then answers the submit_sm. It reports whether
// seq was such a sequence number.
func (s *session) nackEcho(seq uint32) bool {
	resp, ok := s.echoes[seq]
	if !ok {
		return false
	}
	delete(s.echoes, seq)
	s.op.c.genericNacks.Add(1)
	s.respond(pdu.NewGenericNACK(), seq, StatusInvCmdID)
	s.respond(resp, seq, StatusOK)
	return true
}

// holdResponse keeps the answer to a submit_sm until ReleaseHeld.
func (srv *Server) holdResponse(s *session, resp pdu.Body, seq uint32) {
	srv.heldMu.Lock()
	srv.held = append(srv.held, func() { s.respond(resp, seq, StatusOK); _ = s.flush() })
	srv.heldMu.Unlock()
}

// ReleaseHeld answers the submit_sm whose responses a "hold" fault kept back
// and returns how many.
func (srv *Server) ReleaseHeld() int {
	srv.heldMu.Lock()
	held := srv.held
	srv.held = nil
	srv.heldMu.Unlock()
	for _, f := range held {
		f()
	}
	return len(held)
}

// Held is how many submit_sm responses a "hold" fault keeps back now.
func (srv *Server) Held() int {
	srv.heldMu.Lock()
	defer srv.heldMu.Unlock()
	return len(srv.held)
}
