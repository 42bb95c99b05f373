package gateway

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/chapar/chapar/pkg/smpp"
	"github.com/chapar/chapar/pkg/sms"
)

// recipientState tracks one claimed recipient's parts through submission.
type recipientState struct {
	id       int64
	mobile   string
	parts    []sms.Part
	ids      []string // normalised message id per accepted part
	states   []byte   // per part: partAccepted, partUnknown, partRejected or 0 (never submitted)
	accepted int
	unknown  int
	rejected int
	lastID   *msgRow     // the accepted part that settled it, recorded with the outcome
	status   smpp.Status // first SMSC rejection
	errText  string      // local failure (text, encoding)
	emitted  bool        // its outcome went to the recorder
}

// settled reports whether every part has its final answer.
func (st *recipientState) settled() bool {
	return st.accepted+st.unknown+st.rejected == len(st.parts)
}

type partRef struct{ r, p int32 }

type submitResult struct {
	ref  partRef
	id   string
	err  error
	bind *bind
}

// retryAt is a part to submit again, not before at.
type retryAt struct {
	ref partRef
	at  time.Time
}

// chunkRun is what runChunk leaves to the handler.
type chunkRun struct {
	revert  []int64 // never handed to the SMSC: back to queued
	refused bool    // a grant was refused (send stopped or paused, claim taken over)
	unknown int64   // recipients recorded as sent with an unknown outcome
}

// runChunk submits every part of the claimed recipients in claim order,
// pipelined over the operator's binds, and hands each recipient's outcome to
// the recorder as soon as all its parts have one. It starts a recipient only
// within the claim's grant, asking the recorder for more ahead of need (sized
// by grants from the handler's pace), so a gateway killed now leaves at most
// the granted recipients with an unknown outcome; the rest of the claim is
// known never to have been submitted. Once
// the gateway starts stopping, or a grant is refused, it begins no further
// recipient but completes those it started; once ctx ends it submits nothing
// more. Parts never submitted count as failed for a recipient that was sent,
// and a recipient with nothing submitted goes back to the queue.
func (h *batchHandler) runChunk(ctx context.Context, r *batchRun, send sendRow, acc *claimAcc, c claimed) chunkRun {
	k := &chunk{h: h, ctx: ctx, ob: r.ob, acc: acc, grants: &r.grants, granted: c.handed,
		src: smpp.SenderLine(send.Sender), critical: r.critical, slot: h.journal.take(c.claimID)}
	defer h.journal.release(k.slot)
	totalParts := k.prepare(send, c.recs)
	// Buffered for every part, so a callback (on a session's read loop)
	// never blocks: each submitted part has at most one outcome pending.
	k.results = make(chan submitResult, max(totalParts, 1))
	k.loop()
	for i := range k.states {
		if st := &k.states[i]; !st.emitted {
			if k.emit(st); !st.emitted {
				k.run.revert = append(k.run.revert, st.id)
			}
		}
	}
	return k.run
}

// chunk is one runChunk in progress: the claimed recipients' states, the
// submit cursor, the outstanding submits and the grant in hand.
type chunk struct {
	h      *batchHandler
	ctx    context.Context
	ob     *operatorBinds
	acc    *claimAcc
	grants *grantSizer
	src    smpp.Address
	// critical: the batch came from a critical queue; its parts take the
	// bind's fast lane (see lane).
	critical bool
	states   []recipientState
	results  chan submitResult
	run      chunkRun

	retries     []retryAt
	tries       map[partRef]int // retries after statuses other than throttling
	cur         partRef
	outstanding int
	halted      bool // ctx ended or the bind closed: submit nothing more
	granted     int
	grantCh     <-chan grantResult
	stalled     bool // waiting for grantCh with nothing else to start
	// slot journals the recipients started, before each is (see journal.go).
	slot *journalSlot
}

// prepare splits each recipient's text into parts (a recipient whose text
// cannot be sent is emitted as failed at once) and returns the parts in all.
func (k *chunk) prepare(send sendRow, recs []claimedRecipient) int {
	k.states = make([]recipientState, len(recs))
	totalParts := 0
	sendParts, sendErr := k.h.texts.parts(send.ID, send.Text, send.Cancel11)
	for i, rc := range recs {
		st := &k.states[i]
		st.id, st.mobile = rc.ID, rc.Mobile
		parts, err := k.h.recipientParts(send, rc, sendParts, sendErr)
		switch {
		case err != nil:
			st.errText = "text:too_many_parts"
		case len(parts) == 0:
			st.errText = "text:empty"
		default:
			st.parts, st.ids, st.states = parts, make([]string, len(parts)), make([]byte, len(parts))
			totalParts += len(parts)
		}
	}
	for i := range k.states {
		if k.states[i].errText != "" {
			k.emit(&k.states[i])
		}
	}
	return totalParts
}

// emit hands a recipient's outcome to the recorder once; a recipient with
// nothing submitted is left for the revert at the end.
func (k *chunk) emit(st *recipientState) {
	if st.emitted {
		return
	}
	o, ok := outcomeOf(k.acc, st)
	if !ok {
		return
	}
	st.emitted = true
	if o.unknown {
		k.run.unknown++
	}
	k.h.stats.partsAccepted.Add(int64(st.accepted))
	k.h.stats.partsUnknown.Add(int64(st.unknown))
	k.h.stats.partsRejected.Add(int64(st.rejected))
	k.h.rec.add(o, st.lastID)
}

func (k *chunk) requestGrant() {
	k.grantCh = k.h.rec.grant(k.acc, min(len(k.states), k.granted+k.grants.next(time.Now())))
}

// next returns the next part to submit; wait reports that the next recipient
// is beyond the grant.
func (k *chunk) next() (ref partRef, ok, wait bool) {
	if k.halted {
		return partRef{}, false, false
	}
	if ref, ok := k.dueRetry(time.Now()); ok {
		return ref, true, false
	}
	for int(k.cur.r) < len(k.states) {
		if int(k.cur.p) >= len(k.states[k.cur.r].parts) {
			k.cur.r, k.cur.p = k.cur.r+1, 0
			continue
		}
		if k.cur.p == 0 {
			if k.run.refused || k.h.stoppingNow() {
				return partRef{}, false, false // never start a recipient then
			}
			if int(k.cur.r) >= k.granted {
				return partRef{}, false, true
			}
			if k.grantCh == nil && k.granted < len(k.states) && k.granted-int(k.cur.r) <= k.grants.size/2 {
				k.requestGrant()
			}
			k.grants.started(time.Now())
			k.slot.start(int(k.cur.r) + 1)
		}
		ref := k.cur
		k.cur.p++
		return ref, true, false
	}
	return partRef{}, false, false
}

// submit hands one part to a bind of the route, paced by that bind.
func (k *chunk) submit(ref partRef) {
	st := &k.states[ref.r]
	part := st.parts[ref.p]
	payload := part.Payload
	if part.UDHI() {
		// The cached split uses reference 0; each recipient gets the low
		// byte of its id, so a message is always sent with the same one.
		payload = bytes.Clone(payload)
		payload[3] = byte(st.id)
	}
	b := k.ob.pick()
	m := &smpp.SubmitSM{
		ShortMessage:       payload,
		DataCoding:         part.DataCoding(),
		UDH:                part.UDHI(),
		RegisteredDelivery: smpp.DefaultRegisteredDelivery,
	}
	m.Source, m.Dest = b.cfg.addresses(k.src, smpp.Mobile(st.mobile))
	if to := alphabets[b.cfg.Alphabet]; m.DataCoding == sms.CodingGSM7 && to != sms.CodingGSM7 {
		if rec, err := sms.Recode(payload, part.UDHI(), to); err == nil {
			m.ShortMessage, m.DataCoding = rec, to
		}
	}
	release, ok := k.admit(b)
	if !ok {
		k.halted = true // this part and the rest stay unsent
		return
	}
	err := b.submitAsync(k.ctx, m, func(id string, err error) {
		release()
		b.pace.observe(err)
		k.results <- submitResult{ref: ref, id: id, err: err, bind: b}
	})
	if k.critical {
		b.lane.critical.Add(-1)
	}
	if err != nil {
		release() // never written: the callback is not called
	}
	switch {
	case err == nil:
		k.outstanding++
	case k.ctx.Err() != nil || errors.Is(err, smpp.ErrClosed):
		k.halted = true // this part and the rest stay unsent
	default:
		// The session refused to encode it (address or length): a
		// resubmission would fail the same way.
		st.rejected++
		st.states[ref.p] = partRejected
		if st.errText == "" {
			st.errText = "submit:invalid"
		}
		k.h.log.Warn("gateway: submit_sm refused locally", "recipient_id", st.id, "err", err)
		if st.settled() {
			k.emit(st)
		}
	}
}

// admit waits until a part may go to bind b: a bulk part for the bind's
// adaptive pacer and its bulk lane (see lane), a critical part for nothing; it
// is counted on the bind's lane until SubmitAsync returns, so bulk parts stand
// aside meanwhile. release gives back the bulk window slot; ok is false when
// ctx ended first.
func (k *chunk) admit(b *bind) (release func(), ok bool) {
	if k.critical {
		b.lane.critical.Add(1)
		return noRelease, true
	}
	if err := b.pace.wait(k.ctx); err != nil {
		return nil, false
	}
	release, err := b.lane.bulk(k.ctx)
	return release, err == nil
}

// handle records the SMSC's answer to one part.
func (k *chunk) handle(res submitResult) {
	k.outstanding--
	st := &k.states[res.ref.r]
	switch {
	case res.err == nil:
		// An id that cannot be stored (bytes that are not UTF-8 …) is no id:
		// the part is reconciled by its receipt's handset, like a lost one.
		if id := smpp.NormalizeMessageID(res.id); smpp.UsableMessageID(id) {
			st.ids[res.ref.p] = id
			st.states[res.ref.p] = partAccepted
			st.accepted++
			// Recorded at once, not with the recipient's outcome: a fast
			// receipt must find this message, not an older one with the id.
			// The part that settles the recipient goes with its outcome.
			row := msgRow{claim: k.acc, recipient: st.id, part: int16(res.ref.p + 1), id: id, at: time.Now()}
			if st.settled() {
				st.lastID = &row
			} else {
				k.h.rec.accepted(row)
			}
		} else {
			st.unknown++ // accepted without an id: reconcile by receipt
			st.states[res.ref.p] = partUnknown
		}
	case k.retry(res):
		// Not accepted, for a transient reason: the part goes again.
		k.h.stats.partsRetry.Add(1)
		return
	case smpp.IsUnknown(res.err):
		st.unknown++ // never resent
		st.states[res.ref.p] = partUnknown
	default:
		st.rejected++
		st.states[res.ref.p] = partRejected
		if s, ok := smpp.StatusOf(res.err); ok && st.status == 0 {
			st.status = s
		}
	}
	if st.settled() {
		k.emit(st)
	}
}

// retry schedules a part answered with one of its bind's retry statuses to go
// again: at once after throttling (the bind's pacer slows down), after a
// doubling back-off otherwise, while the part has tries left. It reports
// whether the part will go again; a halted chunk submits nothing more.
func (k *chunk) retry(res submitResult) bool {
	st, ok := smpp.StatusOf(res.err)
	if !ok || res.bind == nil || !res.bind.cfg.retries(st) || k.halted || k.ctx.Err() != nil {
		return false
	}
	at := time.Time{}
	if st != smpp.StatusThrottled {
		if k.tries == nil {
			k.tries = map[partRef]int{}
		}
		n := k.tries[res.ref]
		if n >= res.bind.cfg.RetryMax {
			return false
		}
		k.tries[res.ref] = n + 1
		at = time.Now().Add(res.bind.cfg.RetryBackoff << n)
	}
	k.retries = append(k.retries, retryAt{ref: res.ref, at: at})
	return true
}

// dueRetry takes the first retry whose time has come.
func (k *chunk) dueRetry(now time.Time) (partRef, bool) {
	for i, r := range k.retries {
		if !r.at.After(now) {
			k.retries = append(k.retries[:i], k.retries[i+1:]...)
			return r.ref, true
		}
	}
	return partRef{}, false
}

// retryTimer fires when the earliest waiting retry is due; nil when none waits.
func (k *chunk) retryTimer() <-chan time.Time {
	if len(k.retries) == 0 || k.halted {
		return nil
	}
	first := k.retries[0].at
	for _, r := range k.retries[1:] {
		if r.at.Before(first) {
			first = r.at
		}
	}
	return time.After(time.Until(first))
}

func (k *chunk) gotGrant(g grantResult) {
	k.grantCh, k.stalled = nil, false
	if g.err != nil || !g.ok {
		k.run.refused = true
		return
	}
	k.granted = max(k.granted, g.handed)
}

// drain takes every answer and grant already waiting, without blocking.
func (k *chunk) drain() {
	for {
		select {
		case res := <-k.results:
			k.handle(res)
		case g := <-k.grantCh:
			k.gotGrant(g)
		default:
			return
		}
	}
}

// loop submits until nothing is left to start and nothing is outstanding.
func (k *chunk) loop() {
	for {
		k.drain()
		ref, ok, wait := k.next()
		if ok {
			k.submit(ref)
			continue
		}
		if wait {
			if !k.stalled {
				k.stalled = true
				k.h.rec.waited()
			}
			if k.grantCh == nil {
				k.requestGrant()
			}
		}
		timer := k.retryTimer()
		if k.outstanding == 0 && timer == nil && (!wait || k.grantCh == nil) {
			return
		}
		// pkg/smpp completes every written submit exactly once, at the
		// latest after its response time-out or when its session ends.
		select {
		case res := <-k.results:
			k.handle(res)
		case g := <-k.grantCh:
			k.gotGrant(g)
		case <-timer:
		}
	}
}
