// Package gateway owns Chapar's SMPP gateway: it keeps the SMPP binds to the
// carriers' SMSCs (pkg/smpp), consumes the per-operator batch queues
// (jobs.TypeSendBatch on jobs.CarrierQueueCritical and jobs.CarrierQueue),
// submits every part of every queued recipient, records the outcome in
// PostgreSQL, and writes each delivery receipt and mobile-originated (MO)
// message durably to the Redis stream jobs.InboundStream before the SMSC's
// deliver_sm is acknowledged. It also serves the bind status over HTTP and
// publishes a heartbeat for the API's readiness check.
//
// # Submitting a batch
//
// A batch task is idempotent by recipient state. The handler claims queued
// recipients (status 5) in chunks of ChunkSize with FOR UPDATE SKIP LOCKED,
// moving them to status 7 (submitting), so a duplicated or re-delivered task
// only ever finds rows nobody has claimed. Every part is submitted pipelined
// over the operator's binds; per part the outcome is:
//
//   - accepted: the normalised SMSC message id is recorded in message_ids;
//   - throttled (ESME_RTHROTTLED): the bind pauses and the part is submitted
//     again (it was not accepted, so this is no duplicate);
//   - rejected (any other error status): the part failed;
//   - unknown (no response in time, or the connection dropped while the part
//     was in flight): it is never resent; the recipient is recorded as sent
//     with unknown = true and reconciled through its receipt.
//
// After each chunk one transaction copies the message ids, marks the
// recipients sent (0) or rejected (6, error "smsc:0xNN") and adds to the
// send's counters; then the send id is added to jobs.DirtySends. The send's
// status is read again before every chunk, so a stop takes effect within one
// chunk: the batch's remaining queued recipients become 6 with error
// "stopped". Recipients a crashed gateway left at status 7 belong to the
// worker's sweeper.
//
// Recipients of operator "other" are submitted through the binds of the
// operator named by Config.OtherRoute, and their message ids are recorded
// under that operator, the one whose SMSC issued them and whose bind will
// carry their receipts.
//
// # The inbound stream
//
// Each receipt and each MO part is one entry of jobs.InboundStream, added
// (XADD, no trimming) before the deliver_sm is answered ESME_ROK; if the XADD
// fails the deliver_sm is answered with an error status and the SMSC
// redelivers it, so an entry may occasionally appear twice and consumers must
// be idempotent. Every value is a string. The fields, named by the Field
// constants:
//
//	kind         "receipt" or "mo" (KindReceipt, KindMO)
//	operator     the operator of the bind that received it (mci, irancell, rightel)
//	msg_id       receipt: the receipted message id, normalised with
//	             smpp.NormalizeMessageID (the key message_ids.msg_id is recorded under)
//	msg_id_alt   receipt, when any: the other keys of smpp.MessageIDKeys,
//	             comma-separated (hex/decimal reinterpretations); try them in
//	             order after msg_id, confirming a hit by mobile
//	stat         receipt: the delivery state as a small integer:
//	             1 (StatPending) accepted/enroute, not final;
//	             2 (StatDelivered) delivered to the handset;
//	             3 (StatFailed) undeliverable, expired, rejected, deleted or
//	             unknown to the SMSC: final failure;
//	             0 (StatNone) the receipt carried no recognisable state
//	state        receipt: the state's conventional name (DELIVRD, UNDELIV, ...)
//	err          receipt, when any: the receipt's err code text
//	mobile       the handset: deliver_sm source_addr (receipt and MO)
//	line         deliver_sm dest_addr: the sender line (MO; also set on receipts)
//	text         MO: the decoded text of this part (UDH removed)
//	udh_ref      MO part of a concatenated message: its reference,
//	udh_seq      its 1-based sequence number
//	udh_total    and the number of parts; absent for a single-part MO
//	received_at  when the gateway read the deliver_sm, RFC 3339 with nanoseconds
//
// ParseInbound turns an entry's values back into an Inbound; Inbound.Values
// produces them. Both live here so that the format has a single owner.
package gateway
