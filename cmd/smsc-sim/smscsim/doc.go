// Package smscsim is Chapar's carrier simulator: an SMPP 3.4 server (SMSC)
// with one TCP listener per mobile operator, used by `make run`, by the tests
// of other packages (started in-process on random ports) and by benchmarks.
//
// It owns everything a simulated carrier does: bind authentication
// (bind_transmitter, bind_receiver, bind_transceiver), enquire_link, unbind,
// generic_nack for unknown commands, submit_sm with per-bind throttling
// (ESME_RTHROTTLED), message id assignment, delivery receipts (deliver_sm with
// esm_class 0x04, the standard receipt text and the receipted_message_id and
// message_state TLVs) after a configurable delay and outcome mix, MO
// injection, disconnect injection and an inspection store of what each
// simulated handset received, reassembled from its concatenated parts, with a
// duplicate submit_sm detector.
//
// Like a real SMSC it numbers its own deliver_sm PDUs per session starting at
// 1, matches deliver_sm_resp to the outstanding deliver_sm of that session,
// and keeps undelivered or unacknowledged deliver_sm per (operator,
// system_id) across sessions: they are retried after a time-out and on the
// next bind, so a receipt is never lost while the process runs.
//
// PDUs are encoded and decoded with the codec packages of
// github.com/fiorix/go-smpp (smpp/pdu, pdufield, pdutext, pdutlv); the
// session layer is this package's own.
//
// Start a simulator with Start; control and inspect it through the Server
// methods or the JSON HTTP API served on Server.HTTPAddr (see Server.Handler).
package smscsim
