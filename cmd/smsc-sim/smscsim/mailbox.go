package smscsim

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"
)

type itemKind uint8

const (
	kindReceipt itemKind = iota
	kindMO
)

// item is one deliver_sm (receipt or MO) waiting for a deliver_sm_resp.
type item struct {
	kind itemKind
	mb   *mailbox
	// raw is the encoded deliver_sm; its sequence number (bytes 12..16) is
	// replaced on every send, since each send is a new PDU of a session.
	raw []byte
	// Guarded by mb.mu.
	sess   *session
	seq    uint32
	sentAt time.Time
	sends  int
}

// mailbox holds the deliver_sm of one (operator, system_id) until a bound
// receiver acknowledges them. It outlives sessions, so nothing is lost when
// a bind drops: in-flight PDUs go back to the queue and are sent again on
// the next bind.
type mailbox struct {
	op       *operator
	systemID string
	max      int
	window   int
	timeout  time.Duration

	high int // queue length above which submitters pause (see congestion)

	mu       sync.Mutex
	queue    deque[*item]
	pending  [2]int64 // per kind: admitted and not yet acknowledged or dropped
	sessions []*session
	// receipts mirrors pending[kindReceipt] for the lock-free check of
	// receiptsFull.
	receipts atomic.Int64
}

func newMailbox(op *operator, systemID string, cfg *Config) *mailbox {
	return &mailbox{
		op:       op,
		systemID: systemID,
		max:      cfg.MaxPending,
		window:   cfg.DeliverWindow,
		timeout:  cfg.RetryTimeout,
	}
}

// admit counts a new deliver_sm as pending from the moment it is generated,
// including while it waits for its delivery delay.
func (mb *mailbox) admit(k itemKind) {
	mb.mu.Lock()
	mb.addPendingLocked(k, 1)
	mb.mu.Unlock()
}

func (mb *mailbox) addPendingLocked(k itemKind, n int64) {
	mb.pending[k] += n
	if k == kindReceipt {
		mb.receipts.Store(mb.pending[k])
	}
}

// full reports whether MaxPending deliver_sm of any kind are pending.
func (mb *mailbox) full() bool {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.pending[kindReceipt]+mb.pending[kindMO] >= int64(mb.max)
}

// receiptsFull reports whether MaxPending receipts already wait for this
// system_id; submit_sm asking for a receipt is then throttled so receipts
// are never dropped.
func (mb *mailbox) receiptsFull() bool {
	return mb.receipts.Load() >= int64(mb.max)
}

// enqueue makes an admitted item available to the bound receivers.
func (mb *mailbox) enqueue(it *item, front bool) {
	mb.mu.Lock()
	if front {
		mb.queue.pushFront(it)
	} else {
		mb.queue.pushBack(it)
	}
	mb.wakeLocked()
	mb.mu.Unlock()
}

func (mb *mailbox) wakeLocked() {
	if mb.queue.len() == 0 {
		return
	}
	for _, s := range mb.sessions {
		s.signal()
	}
}

// attach registers a receiver session.
func (mb *mailbox) attach(s *session) {
	mb.mu.Lock()
	s.inflight = make(map[uint32]*item)
	mb.sessions = append(mb.sessions, s)
	s.signal()
	mb.mu.Unlock()
}

// detach unregisters a session and puts its unacknowledged PDUs back at the
// front of the queue for the next receiver.
func (mb *mailbox) detach(s *session) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	for i, x := range mb.sessions {
		if x == s {
			mb.sessions = append(mb.sessions[:i], mb.sessions[i+1:]...)
			break
		}
	}
	for _, it := range s.inflight {
		it.sess = nil
		mb.queue.pushFront(it)
	}
	s.inflight = nil
	s.detached = true
	mb.wakeLocked()
}

// outPDU is a deliver_sm handed to a session's writer.
type outPDU struct {
	raw []byte
	seq uint32
}

// take moves up to the session's free window of queued items in flight on s,
// assigning each a new sequence number of the session.
func (mb *mailbox) take(s *session, now time.Time, dst []outPDU) []outPDU {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if s.detached {
		return dst
	}
	for len(s.inflight) < mb.window && mb.queue.len() > 0 {
		it := mb.queue.popFront()
		it.sess = s
		it.seq = s.nextSeq()
		it.sentAt = now
		it.sends++
		s.inflight[it.seq] = it
		mb.op.c.sent(it.kind, it.sends == 1)
		dst = append(dst, outPDU{raw: it.raw, seq: it.seq})
	}
	return dst
}

// ack handles a deliver_sm_resp of session s. It returns the item and
// whether it was known; a negative response schedules a retry.
func (mb *mailbox) ack(s *session, seq uint32, status uint32) (*item, bool) {
	mb.mu.Lock()
	it, ok := s.inflight[seq]
	if !ok {
		mb.mu.Unlock()
		return nil, false
	}
	delete(s.inflight, seq)
	it.sess = nil
	if status == 0 {
		mb.addPendingLocked(it.kind, -1)
	}
	if mb.queue.len() > 0 {
		s.signal()
	}
	mb.mu.Unlock()
	return it, true
}

// expire puts the PDUs of s unacknowledged for longer than the retry
// time-out back in the queue.
func (mb *mailbox) expire(s *session, now time.Time) int {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	n := 0
	for seq, it := range s.inflight {
		if now.Sub(it.sentAt) >= mb.timeout {
			delete(s.inflight, seq)
			it.sess = nil
			mb.queue.pushFront(it)
			n++
		}
	}
	if n > 0 {
		mb.wakeLocked()
	}
	return n
}

func (mb *mailbox) counts() (receipts, mo int64, receivers int) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.pending[kindReceipt], mb.pending[kindMO], len(mb.sessions)
}

// deque is a growable ring buffer.
type deque[T any] struct {
	buf        []T
	head, size int
}

func (d *deque[T]) len() int { return d.size }

func (d *deque[T]) grow() {
	if d.size < len(d.buf) {
		return
	}
	n := max(16, 2*len(d.buf))
	buf := make([]T, n)
	for i := range d.size {
		buf[i] = d.buf[(d.head+i)%len(d.buf)]
	}
	d.buf, d.head = buf, 0
}

func (d *deque[T]) pushBack(v T) {
	d.grow()
	d.buf[(d.head+d.size)%len(d.buf)] = v
	d.size++
}

func (d *deque[T]) pushFront(v T) {
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = v
	d.size++
}

func (d *deque[T]) popFront() T {
	var zero T
	v := d.buf[d.head]
	d.buf[d.head] = zero
	d.head = (d.head + 1) % len(d.buf)
	d.size--
	if d.size == 0 {
		d.head = 0
		if len(d.buf) > 4096 {
			d.buf = nil // release the memory of a drained burst
		}
	}
	return v
}

// scheduler releases items into their mailbox at a due time (receipt delay,
// retry after a negative deliver_sm_resp) with one goroutine and a heap.
type scheduler struct {
	mu   sync.Mutex
	h    dueHeap
	wake chan struct{}
}

type due struct {
	at    time.Time
	it    *item
	front bool
}

type dueHeap []due

// Len returns the number of scheduled items.
func (h dueHeap) Len() int { return len(h) }

// Less orders items by due time, earliest first.
func (h dueHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }

// Swap swaps items i and j.
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push appends x, a due, for container/heap.
func (h *dueHeap) Push(x any) { *h = append(*h, x.(due)) }

// Pop removes and returns the last item, for container/heap.
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = due{}
	*h = old[:len(old)-1]
	return x
}

func newScheduler() *scheduler {
	return &scheduler{wake: make(chan struct{}, 1)}
}

func (sc *scheduler) add(at time.Time, it *item, front bool) {
	sc.mu.Lock()
	heap.Push(&sc.h, due{at: at, it: it, front: front})
	first := sc.h[0].it == it
	sc.mu.Unlock()
	if first {
		select {
		case sc.wake <- struct{}{}:
		default:
		}
	}
}

func (sc *scheduler) run(done <-chan struct{}) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	var ready []due
	for {
		now := time.Now()
		sc.mu.Lock()
		for len(sc.h) > 0 && !sc.h[0].at.After(now) {
			ready = append(ready, heap.Pop(&sc.h).(due))
		}
		wait := time.Hour
		if len(sc.h) > 0 {
			wait = sc.h[0].at.Sub(now)
		}
		sc.mu.Unlock()
		for i, d := range ready {
			d.it.mb.enqueue(d.it, d.front)
			ready[i] = due{}
		}
		ready = ready[:0]
		t.Reset(wait)
		select {
		case <-done:
			return
		case <-sc.wake:
		case <-t.C:
		}
	}
}
