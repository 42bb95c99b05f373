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
// recipients (status 5) in chunks of ChunkSize, in id order, with FOR UPDATE
// SKIP LOCKED, moving them to status 7 (submitting) and recording the claim in
// recipient_claims in the same statement, so a duplicated or re-delivered
// task only ever finds rows nobody has claimed. Every part is submitted
// pipelined over the operator's binds, in claim order, but a recipient is
// started only within the claim's grant (recipient_claims.handed): the first
// GrantMin with the claim, then about grantHorizon of the handler's pace at a
// time, asked for ahead of need. So when a gateway dies, only its granted
// recipients may have reached the SMSC (their outcome is unknown); the
// worker's sweeper queues the rest of the claim again. The start journal
// (journal.go) narrows that to the recipients actually started: the next
// gateway on the host lowers a killed one's claims to it. A grant is refused
// once the send is stopped or paused, which stops the chunk at once. Per part
// the outcome is:
//
//   - accepted: the normalised SMSC message id goes to the recorder at once
//     (in the next outcome transaction, not with the recipient's outcome), so
//     a fast receipt finds this message and not an older one the SMSC gave
//     the same id;
//   - throttled (ESME_RTHROTTLED): the bind's adaptive rate is halved (it
//     recovers by 10% every 100 ms without one, see pacer), the session
//     pauses briefly, and the part is submitted again (it was not accepted,
//     so this is no duplicate);
//   - rejected (any other error status): the part failed, was never sent, and
//     is refunded when the send closes;
//   - unknown (no response in time, or the connection dropped while the part
//     was in flight): it is never resent; the recipient is recorded as sent
//     with unknown = true and the part is reconciled through its receipt.
//
// Each sent recipient's part_states records every part's outcome ('a'
// accepted, '?' unknown, 'r' rejected, 'n' never submitted), and the send's
// partial counter the recipients with a part not accepted.
//
// A recipient's outcome goes to the gateway's recorder as soon as every part
// has one. The recorder writes all handlers' outcomes in one transaction every
// recordEvery: it copies the accepted parts' message ids, marks the recipients sent (0) or
// rejected (6, error "smsc:0xNN") and records the sends' counter changes (folded into
// the sends by a worker, send.FoldCounts); at the end
// of a chunk its recipients never started go back to queued and the claim row
// is deleted (the worker that folds the counters announces the send to the live
// publisher). Grants and
// the renewal of the claims in hand go through a second connection, as soon as
// asked for, so they never wait behind a large outcome transaction. The send's status is read again before every chunk: a stopped
// send's queued recipients of the batch become 6 with error "stopped"; a
// paused one's stay queued (resume enqueues the batch again).
//
// # The fast lane
//
// Batches of the critical queues (one-time codes) are served by asynq workers
// of their own (Config.CriticalConcurrency), so they never wait for a worker
// busy with a bulk batch, and their chunks are recorded without holding the
// worker. On every bind, bulk parts never take more than 1 − CriticalShare of
// the window and of the TPS, and stand aside while a critical part is being
// handed over; critical parts skip the bulk gates (lane.go). See the fast lane
// in docs/operations.md.
//
// Recipients of operator "other" are submitted through the binds of the
// operator named by Config.OtherRoute, and their message ids are recorded
// under that operator, the one whose SMSC issued them and whose bind will
// carry their receipts.
//
// # The inbound stream
//
// Each receipt and each MO part (from a deliver_sm or a data_sm) is one entry
// of jobs.InboundStream, added
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
//	text         MO: the decoded text of this part (UDH removed), valid UTF-8
//	             without NUL (CleanText: an invalid sequence becomes U+FFFD)
//	udh_ref      MO part of a concatenated message: its reference,
//	udh_seq      its 1-based sequence number
//	udh_total    and the number of parts; absent for a single-part MO
//	ucs2         MO part of a concatenated UCS-2 message: its user data in
//	             hexadecimal, decoded once joined with the other parts (a
//	             surrogate pair may be split between two parts)
//	received_at  when the gateway read the deliver_sm, RFC 3339 with nanoseconds
//
// Addresses and message ids are stored as the carrier sent them; the worker
// quarantines an entry whose fields it cannot store (pkg/inbound).
// ParseInbound turns an entry's values back into an Inbound; Inbound.Values
// produces them. Both live here so that the format has a single owner.
package gateway
