// Package smpp owns Chapar's SMPP 3.4 client (ESME) session layer: binding to a
// carrier SMSC, pipelined submit_sm under a flow-control window and a token
// bucket, deliver_sm (receipts and MO) acknowledged only after the application
// has stored them, enquire_link in both directions, graceful unbind and
// automatic reconnection with capped, jittered exponential back-off.
//
// It uses github.com/fiorix/go-smpp only for its PDU codec (smpp/pdu, pdufield,
// pdutext, pdutlv). The library's own client session is deliberately not used:
// it matches replies by sequence number alone, so a deliver_sm numbered by the
// SMSC collides with an outstanding submit_sm and receipts are lost (see
// docs/architecture.md §9). Here every outstanding request is keyed by (response
// command id, sequence number), and PDUs initiated by the SMSC are dispatched
// by command id before any lookup, so they can never be taken for a response.
//
// # Submit outcomes
//
// Every submit ends in exactly one of three ways:
//
//   - accepted: the SMSC answered ESME_ROK with a message id;
//   - rejected: the SMSC answered an error command_status, reported as a
//     *StatusError (ESME_RTHROTTLED additionally matches ErrThrottled and
//     pauses further submits for Config.ThrottlePause);
//   - unknown: no answer arrived within Config.ResponseTimeout, or the
//     connection was lost while the request was in flight. The error matches
//     ErrUnknown. The caller must not resend: the SMSC may have accepted the
//     message, so it records the outcome and reconciles through the receipt.
//
// Errors that match ErrNotSent guarantee that no byte of the submit_sm reached
// the connection; such a message may safely be submitted again.
//
// # Delivery receipts and MO messages
//
// Each deliver_sm is decoded on the read loop and queued to a bounded set of
// handler goroutines (Config.DeliverWorkers; deliveries from one source
// address always go to the same worker, so their order is preserved). The
// deliver_sm_resp is written only after Config.DeliverHandler returns: ESME_ROK
// when it returned nil, ESME_RX_T_APPNACK otherwise so that the SMSC retries.
// When the queue is full the deliver_sm is answered ESME_RX_T_APPNACK at once,
// so a slow handler never stalls the read loop and submit responses keep
// flowing.
//
// With Config.DeliverBatch instead, one goroutine per session hands the
// handler every deliver_sm that queued up while the previous batch was being
// stored, in arrival order, and writes the batch's answers together, each with
// its own status: under load a batch costs one wake-up and one write rather
// than one of each per deliver_sm.
//
// ParseReceipt extracts the receipt from TLVs first and the conventional
// "id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…" text
// second. NormalizeMessageID and MessageIDKeys reconcile message ids that one
// side reports in hex and the other in decimal.
//
// # Concurrency and throughput
//
// A session runs one read goroutine and one write goroutine per connection.
// Callers encode their own PDUs and append them to a shared output buffer;
// the writer flushes everything accumulated since its previous write in one
// system call, so pipelined submits are batched without per-PDU goroutines or
// per-PDU system calls.
package smpp
