package smpp

// The read side of a session: the read loop, and deliver_sm handed to the
// handler and answered only after it returned.

import (
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

func (s *Session) readLoop() {
	defer s.wg.Done()
	for {
		f, err := s.fr.next()
		if err != nil {
			s.fail(fmt.Errorf("read: %w", err))
			return
		}
		switch f.id {
		case pdu.SubmitSMRespID:
			r := result{status: f.status}
			id, err := f.messageID()
			switch {
			case err != nil && f.status == StatusOK:
				r.err = fmt.Errorf("%w: undecodable submit_sm_resp: %w", ErrUnknown, err)
			case err == nil:
				r.messageID = id
			}
			if c := s.take(reqKey{f.id, f.seq}); c != nil {
				s.finish(c, r)
			} else {
				s.log.Warn("smpp: submit_sm_resp matches no outstanding submit_sm (late after time-out?)",
					"seq", f.seq, "status", f.status.String(), "message_id", id)
			}
		case pdu.EnquireLinkRespID, pdu.UnbindRespID:
			if c := s.take(reqKey{f.id, f.seq}); c != nil {
				s.finish(c, result{status: f.status})
			}
		case pdu.GenericNACKID:
			s.onGenericNack(f)
		case pdu.DeliverSMID, dataSMID:
			s.onDeliver(f)
		case pdu.EnquireLinkID:
			s.sendPDU(pdu.NewEnquireLinkResp(), f.seq, StatusOK)
		case pdu.UnbindID:
			s.log.Info("smpp: SMSC requested unbind")
			s.closeAfterFlush(pdu.NewUnbindResp(), f.seq, errors.New("unbound by SMSC"))
		default:
			if isResponse(f.id) {
				s.log.Warn("smpp: unexpected response", "command", f.id.String(), "seq", f.seq)
			} else {
				s.log.Warn("smpp: unsupported request, answering generic_nack", "command_id", fmt.Sprintf("0x%08X", uint32(f.id)), "seq", f.seq)
				s.sendPDU(pdu.NewGenericNACK(), f.seq, StatusInvalidCmdID)
			}
		}
	}
}

// onGenericNack completes whichever of our requests carries the sequence
// number; our sequence numbers are unique across request types.
//
// The SMSC numbers its own requests from its own counter, so the sequence
// number of a response we sent to one of them may equal that of a request of
// ours still outstanding. A generic_nack with such a number (we answered a
// request of the SMSC with it within ResponseTimeout: a generic_nack,
// enquire_link_resp or unbind_resp of ours, see answered) may be the SMSC
// nacking our response rather than our request: it settles nothing, and the
// request waits for its own response (or times out with an unknown outcome),
// so a part the SMSC accepted is never taken as rejected.
func (s *Session) onGenericNack(f frame) {
	if s.answered.recent(f.seq, time.Now(), s.cfg.ResponseTimeout) {
		s.log.Warn("smpp: generic_nack with the sequence number of a response of ours; taken as a nack of that response, settling nothing",
			"seq", f.seq, "status", f.status.String())
		return
	}
	for _, id := range []pdu.ID{pdu.SubmitSMRespID, pdu.EnquireLinkRespID, pdu.UnbindRespID} {
		if c := s.take(reqKey{id, f.seq}); c != nil {
			st := f.status
			if st == StatusOK {
				st = StatusUnknownError
			}
			s.finish(c, result{status: st})
			return
		}
	}
	s.log.Warn("smpp: generic_nack matches no outstanding request", "seq", f.seq, "status", f.status.String())
}

func (s *Session) onDeliver(f frame) {
	s.sh.stats.delivers.Add(1)
	if len(s.queues) == 0 {
		s.log.Error("smpp: deliver_sm on a transmitter bind", "seq", f.seq)
		s.sendPDU(pdu.NewDeliverSMResp(), f.seq, StatusInvalidBindStatus)
		return
	}
	seq := f.seq
	decode := decodeDeliver
	if f.id == dataSMID {
		decode = decodeDataSM
	}
	d, err := decode(f, time.Now())
	if err != nil {
		// Retrying cannot make it decodable: refuse it permanently.
		s.log.Error("smpp: undecodable deliver_sm rejected", "command", f.id.String(), "seq", seq, "err", err)
		s.sh.stats.deliverNacks.Add(1)
		s.answer([]Deliver{{Seq: seq, DataSM: f.id == dataSMID}}, []error{errPermanent})
		return
	}
	q := s.queues[0]
	if len(s.queues) > 1 {
		h := fnv.New32a()
		_, _ = h.Write([]byte(d.Source.Addr))
		q = s.queues[h.Sum32()%uint32(len(s.queues))]
	}
	s.mu.Lock()
	s.delivers++
	s.mu.Unlock()
	select {
	case q <- &d:
	default:
		s.doneDeliver()
		s.sh.stats.deliverOverflow.Add(1)
		s.sh.stats.deliverNacks.Add(1)
		s.log.Warn("smpp: deliver queue full, answering ESME_RX_T_APPN", "seq", seq)
		s.answer([]Deliver{d}, []error{errQueueFull})
	}
}

func (s *Session) doneDeliver() {
	s.mu.Lock()
	s.delivers--
	s.checkDrainedLocked()
	s.mu.Unlock()
}

func (s *Session) deliverWorker(q chan *Deliver) {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case d := <-q:
			s.handleDeliver(*d)
		}
	}
}

func (s *Session) handleDeliver(d Deliver) {
	defer s.doneDeliver()
	if s.ctx.Err() != nil {
		return // connection gone: the SMSC will redeliver
	}
	err := s.callHandler(d)
	if s.ctx.Err() != nil {
		return
	}
	s.answer([]Deliver{d}, []error{err})
}

// Errors answer gives without a handler: an undecodable PDU (refused for good)
// and a full deliver queue (the SMSC redelivers).
var (
	errPermanent = errors.New("undecodable")
	errQueueFull = errors.New("deliver queue full")
)

// answer queues the deliver_sm_resp (data_sm_resp for a data_sm) of each of
// ds in one write: ESME_ROK when its error is nil, ESME_RX_P_APPN for an
// undecodable PDU, ESME_RX_T_APPN (the SMSC redelivers) otherwise.
func (s *Session) answer(ds []Deliver, errs []error) {
	buf := getBuf()
	defer putBuf(buf)
	for i, d := range ds {
		st := StatusOK
		switch {
		case errors.Is(errs[i], errPermanent):
			st = StatusAppNackPermanent
		case errors.Is(errs[i], errQueueFull):
			st = StatusAppNackTemporary
		case errs[i] != nil:
			st = StatusAppNackTemporary
			s.sh.stats.deliverNacks.Add(1)
			s.log.Warn("smpp: deliver handler failed, answering ESME_RX_T_APPN", "seq", d.Seq, "source", d.Source.Addr, "err", errs[i])
		default:
			s.sh.stats.deliverAcks.Add(1)
		}
		if n := buf.Len(); appendDeliverResp(buf, &d, st) != nil {
			buf.Truncate(n) // the SMSC redelivers it
			s.log.Error("smpp: encode deliver_sm_resp failed", "seq", d.Seq)
		}
	}
	if err := s.send(nil, buf.Bytes()); err != nil {
		s.log.Debug("smpp: responses dropped", "count", len(ds), "err", err)
	}
}

func (s *Session) callHandler(d Deliver) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("deliver handler panicked: %v", p)
		}
	}()
	return s.cfg.DeliverHandler(s.ctx, d)
}

// deliverBatcher hands the deliveries of q to Config.DeliverBatch: each call
// takes what queued up while the previous one ran.
func (s *Session) deliverBatcher(q chan *Deliver) {
	defer s.wg.Done()
	batch := make([]Deliver, 0, DeliverBatchMax)
	for {
		select {
		case <-s.ctx.Done():
			return
		case d := <-q:
			batch = append(batch[:0], *d)
		}
	fill:
		for len(batch) < DeliverBatchMax {
			select {
			case d := <-q:
				batch = append(batch, *d)
			default:
				break fill
			}
		}
		s.handleBatch(batch)
		clear(batch)
	}
}

// handleBatch stores ds through Config.DeliverBatch and answers them, as
// handleDeliver does for one.
func (s *Session) handleBatch(ds []Deliver) {
	defer s.doneDelivers(len(ds))
	if s.ctx.Err() != nil {
		return // connection gone: the SMSC will redeliver
	}
	errs := s.callBatch(ds)
	if s.ctx.Err() != nil {
		return
	}
	s.answer(ds, errs)
}

// callBatch calls Config.DeliverBatch, turning a panic or a short answer into
// an error for every delivery left without one.
func (s *Session) callBatch(ds []Deliver) (errs []error) {
	defer func() {
		if p := recover(); p != nil {
			errs = nil
			for range ds {
				errs = append(errs, fmt.Errorf("deliver handler panicked: %v", p))
			}
		}
	}()
	errs = s.cfg.DeliverBatch(s.ctx, ds)
	for len(errs) < len(ds) {
		errs = append(errs, errors.New("deliver handler gave no answer"))
	}
	return errs
}

// doneDelivers is doneDeliver for n deliveries at once.
func (s *Session) doneDelivers(n int) {
	s.mu.Lock()
	s.delivers -= n
	s.checkDrainedLocked()
	s.mu.Unlock()
}
