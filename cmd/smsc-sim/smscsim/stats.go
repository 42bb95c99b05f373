package smscsim

import (
	"sync/atomic"
	"time"
)

// The simulator's counters: per operator, in total, and the snapshot GET /stats serves.

// OperatorStats are the counters of one operator since start or the last
// Reset. Pending and sessions are current values.
type OperatorStats struct {
	Addr         string `json:"addr,omitempty"`
	Sessions     int64  `json:"sessions"`
	Bound        int64  `json:"bound"` // sessions bound now, every system_id
	Receivers    int64  `json:"receivers"`
	Binds        int64  `json:"binds"`
	BindFailures int64  `json:"bind_failures"`
	Unbinds      int64  `json:"unbinds"`
	EnquireLinks int64  `json:"enquire_links"`
	GenericNacks int64  `json:"generic_nacks"`
	SubmitSM     int64  `json:"submit_sm"`
	Accepted     int64  `json:"accepted"`
	Throttled    int64  `json:"throttled"`
	QueueFull    int64  `json:"queue_full"`
	Rejected     int64  `json:"rejected"`
	// Blocked are the accepted messages to numbers blocked at the operator
	// (answered REJECTD with the blocked error).
	Blocked           int64 `json:"blocked"`
	Duplicates        int64 `json:"duplicates"`
	ReceiptsGenerated int64 `json:"receipts_generated"`
	ReceiptsSent      int64 `json:"receipts_sent"`
	ReceiptsResent    int64 `json:"receipts_resent"`
	ReceiptsAcked     int64 `json:"receipts_acked"`
	ReceiptsNacked    int64 `json:"receipts_nacked"`
	ReceiptsPending   int64 `json:"receipts_pending"`
	MOInjected        int64 `json:"mo_injected"`
	MOSent            int64 `json:"mo_sent"`
	MOResent          int64 `json:"mo_resent"`
	MOAcked           int64 `json:"mo_acked"`
	MONacked          int64 `json:"mo_nacked"`
	MOPending         int64 `json:"mo_pending"`
	Disconnects       int64 `json:"disconnects"`
}

func (a *OperatorStats) add(b OperatorStats) {
	a.Sessions += b.Sessions
	a.Bound += b.Bound
	a.Receivers += b.Receivers
	a.Binds += b.Binds
	a.BindFailures += b.BindFailures
	a.Unbinds += b.Unbinds
	a.EnquireLinks += b.EnquireLinks
	a.GenericNacks += b.GenericNacks
	a.SubmitSM += b.SubmitSM
	a.Accepted += b.Accepted
	a.Throttled += b.Throttled
	a.QueueFull += b.QueueFull
	a.Rejected += b.Rejected
	a.Blocked += b.Blocked
	a.Duplicates += b.Duplicates
	a.ReceiptsGenerated += b.ReceiptsGenerated
	a.ReceiptsSent += b.ReceiptsSent
	a.ReceiptsResent += b.ReceiptsResent
	a.ReceiptsAcked += b.ReceiptsAcked
	a.ReceiptsNacked += b.ReceiptsNacked
	a.ReceiptsPending += b.ReceiptsPending
	a.MOInjected += b.MOInjected
	a.MOSent += b.MOSent
	a.MOResent += b.MOResent
	a.MOAcked += b.MOAcked
	a.MONacked += b.MONacked
	a.MOPending += b.MOPending
	a.Disconnects += b.Disconnects
}

// Stats is the simulator's counters, per operator and in total, with the
// duplicate submit_sm detector: Duplicates counts accepted submit_sm whose
// (source, destination, data_coding, short_message bytes including UDH)
// repeat an earlier one since start or the last reset.
type Stats struct {
	StartedAt             time.Time                `json:"started_at"`
	Operators             map[string]OperatorStats `json:"operators"`
	Total                 OperatorStats            `json:"total"`
	Duplicates            int64                    `json:"duplicates"`
	DuplicateDestinations []string                 `json:"duplicate_destinations"`
	Store                 StoreStats               `json:"store"`
}

// Stats returns a snapshot of the counters.
func (srv *Server) Stats() Stats {
	st := Stats{StartedAt: srv.started, Operators: make(map[string]OperatorStats, len(srv.opList))}
	for _, op := range srv.opList {
		os := op.stats()
		st.Operators[op.name] = os
		st.Total.add(os)
	}
	st.Store, st.Duplicates, st.DuplicateDestinations = srv.store.stats()
	return st
}

func (op *operator) stats() OperatorStats {
	c := &op.c
	os := OperatorStats{
		Addr:              op.ln.Addr().String(),
		Binds:             c.binds.Load(),
		BindFailures:      c.bindFailures.Load(),
		Unbinds:           c.unbinds.Load(),
		EnquireLinks:      c.enquireLinks.Load(),
		GenericNacks:      c.genericNacks.Load(),
		SubmitSM:          c.submitSM.Load(),
		Accepted:          c.accepted.Load(),
		Throttled:         c.throttled.Load(),
		QueueFull:         c.queueFull.Load(),
		Rejected:          c.rejected.Load(),
		Blocked:           c.blocked.Load(),
		Duplicates:        c.duplicates.Load(),
		ReceiptsGenerated: c.receiptsGenerated.Load(),
		ReceiptsSent:      c.receiptsSent.Load(),
		ReceiptsResent:    c.receiptsResent.Load(),
		ReceiptsAcked:     c.receiptsAcked.Load(),
		ReceiptsNacked:    c.receiptsNacked.Load(),
		MOInjected:        c.moInjected.Load(),
		MOSent:            c.moSent.Load(),
		MOResent:          c.moResent.Load(),
		MOAcked:           c.moAcked.Load(),
		MONacked:          c.moNacked.Load(),
		Disconnects:       c.disconnects.Load(),
	}
	op.mu.Lock()
	os.Sessions = int64(len(op.sessions))
	for _, n := range op.bound {
		os.Bound += int64(n)
	}
	mbs := make([]*mailbox, 0, len(op.mailboxes))
	for _, mb := range op.mailboxes {
		mbs = append(mbs, mb)
	}
	op.mu.Unlock()
	for _, mb := range mbs {
		r, m, n := mb.counts()
		os.ReceiptsPending += r
		os.MOPending += m
		os.Receivers += int64(n)
	}
	return os
}

// counters are the per-operator event counters.
type counters struct {
	binds, bindFailures, unbinds, enquireLinks, genericNacks       atomic.Int64
	submitSM, accepted, throttled, queueFull, rejected, duplicates atomic.Int64
	receiptsGenerated, receiptsSent, receiptsResent, receiptsAcked atomic.Int64
	receiptsNacked, blocked                                        atomic.Int64
	moInjected, moSent, moResent, moAcked, moNacked                atomic.Int64
	disconnects                                                    atomic.Int64
}

func (c *counters) reset() {
	for _, v := range []*atomic.Int64{
		&c.binds, &c.bindFailures, &c.unbinds, &c.enquireLinks, &c.genericNacks,
		&c.submitSM, &c.accepted, &c.throttled, &c.queueFull, &c.rejected, &c.duplicates,
		&c.receiptsGenerated, &c.receiptsSent, &c.receiptsResent, &c.receiptsAcked,
		&c.receiptsNacked, &c.blocked,
		&c.moInjected, &c.moSent, &c.moResent, &c.moAcked, &c.moNacked,
		&c.disconnects,
	} {
		v.Store(0)
	}
}

func (c *counters) sent(k itemKind, first bool) {
	switch {
	case k == kindMO && first:
		c.moSent.Add(1)
	case k == kindMO:
		c.moResent.Add(1)
	case first:
		c.receiptsSent.Add(1)
	default:
		c.receiptsResent.Add(1)
	}
}

func (c *counters) acked(k itemKind, ok bool) {
	switch {
	case k == kindMO && ok:
		c.moAcked.Add(1)
	case k == kindMO:
		c.moNacked.Add(1)
	case ok:
		c.receiptsAcked.Add(1)
	default:
		c.receiptsNacked.Add(1)
	}
}
