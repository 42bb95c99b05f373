package smpp

// Tests of the read side: deliver_sm handed to the handler, answered after it
// returned, in order per source, and the queues that hold them.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// receiptLog records receipts handed to a DeliverHandler under every key
// their id may match.
type receiptLog struct {
	mu       sync.Mutex
	byKey    map[string]int
	returned map[string]bool
	calls    atomic.Int64
}

func newReceiptLog() *receiptLog {
	return &receiptLog{byKey: map[string]int{}, returned: map[string]bool{}}
}

func (l *receiptLog) record(d Deliver) (Receipt, error) {
	l.calls.Add(1)
	r, ok := ParseReceipt(d)
	if !ok {
		return r, errors.New("not a receipt")
	}
	if !r.HasState || r.State != MessageDelivered {
		return r, fmt.Errorf("receipt %s state %v", r.MessageID, r.State)
	}
	return r, nil
}

func (l *receiptLog) stored(r Receipt) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range MessageIDKeys(r.MessageID) {
		l.byKey[k]++
		l.returned[k] = true
	}
}

func (l *receiptLog) has(id string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byKey[NormalizeMessageID(id)]
}

func (l *receiptLog) handlerReturned(serverID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.returned[NormalizeMessageID(serverID)]
}

// TestPipelinedSubmitsWithInterleavedReceipts is the regression test for the
// go-smpp trap: the SMSC numbers its deliver_sm from 1 per session, so they
// collide with outstanding submit_sm sequence numbers, and receipts arrive
// before, between and after submit responses.
func TestPipelinedSubmitsWithInterleavedReceipts(t *testing.T) {
	rl := newReceiptLog()
	srv := newTestSMSC(t, smscOptions{password: "secret", receipts: true, ackCheck: rl.handlerReturned,
		onSubmit: func(s smscSubmit) smscAction {
			switch {
			case s.n%250 == 0: // held while later submits and receipts flow past it
				return smscAction{delay: 30 * time.Millisecond}
			case s.n%7 == 0: // responses out of order
				return smscAction{delay: time.Millisecond}
			}
			return smscAction{}
		}})
	var slow atomic.Int64
	cfg := testConfig(srv.addr(), func(ctx context.Context, d Deliver) error {
		r, err := rl.record(d)
		if err != nil {
			return err
		}
		if slow.Add(1)%10 == 0 {
			time.Sleep(200 * time.Microsecond) // a slower durable store
		}
		rl.stored(r)
		return nil
	})
	cfg.Window = 64
	cfg.DeliverWorkers = 4
	c := startClient(t, cfg)

	const n = 3000
	res := submitAll(t, c, 0, n)
	for i, o := range res {
		if o.err != nil || o.id == "" {
			t.Fatalf("submit %d: id=%q err=%v (the SMSC accepted every submit)", i, o.id, o.err)
		}
	}
	waitFor(t, "all receipts handled and acknowledged", 20*time.Second, func() bool {
		_, acked, _, _ := srv.snapshot()
		return len(acked) == n
	})
	accepted, acked, nacks, violations := srv.snapshot()
	if len(violations) > 0 {
		t.Fatalf("%d violations, first: %s", len(violations), violations[0])
	}
	if len(accepted) != n || len(nacks) != 0 {
		t.Fatalf("server accepted %d, nacked %d", len(accepted), len(nacks))
	}
	lost := 0
	for _, o := range res {
		if rl.has(o.id) != 1 {
			lost++
		}
		if acked[o.id] != 1 {
			t.Fatalf("receipt for %s acknowledged %d times", o.id, acked[o.id])
		}
	}
	if lost != 0 {
		t.Fatalf("%d of %d receipts lost or duplicated", lost, n)
	}
	if srv.collisions.Load() == 0 {
		t.Fatal("no deliver_sm sequence number collided with an outstanding submit_sm; the test did not exercise the trap")
	}
	st := c.Stats()
	if st.Submitted != n || st.Accepted != n || st.Unknown != 0 || st.Rejected != 0 || st.InFlight != 0 ||
		st.DeliversReceived != n || st.DeliversAcked != n || st.State != StateBound {
		t.Fatalf("stats %+v", st)
	}
	t.Logf("%d submits, %d receipts, %d sequence collisions", n, n, srv.collisions.Load())
}

func TestDeliverHandlerErrorIsNackedAndRedelivered(t *testing.T) {
	rl := newReceiptLog()
	srv := newTestSMSC(t, smscOptions{receipts: true, ackCheck: rl.handlerReturned})
	var mu sync.Mutex
	attempts := map[string]int{}
	c := startClient(t, testConfig(srv.addr(), func(ctx context.Context, d Deliver) error {
		r, err := rl.record(d)
		if err != nil {
			return err
		}
		key := MessageIDKeys(r.MessageID)[0]
		mu.Lock()
		attempts[key]++
		first := attempts[key] == 1
		mu.Unlock()
		if first {
			return errors.New("store unavailable")
		}
		rl.stored(r)
		return nil
	}))
	const n = 50
	res := submitAll(t, c, 0, n)
	acked, nacks := waitAcked(t, srv, n)
	for _, o := range res {
		if o.err != nil || nacks[o.id] != 1 || acked[o.id] != 1 || rl.has(o.id) != 1 {
			t.Fatalf("%s: err=%v nacks=%d acks=%d stored=%d", o.id, o.err, nacks[o.id], acked[o.id], rl.has(o.id))
		}
	}
	if got := srv.redelivered.Load(); got != n {
		t.Fatalf("redelivered %d, want %d (only ESME_RX_T_APPN triggers redelivery)", got, n)
	}
	if st := c.Stats(); st.DeliversNacked != n || st.DeliversAcked != n || st.DeliversReceived != 2*n {
		t.Fatalf("stats %+v", st)
	}
}

// TestSlowHandlerDoesNotStallSubmits blocks the only deliver worker: submit
// responses must keep flowing, and receipts beyond the queue are answered
// ESME_RX_T_APPN at once and delivered again later.
func TestSlowHandlerDoesNotStallSubmits(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{receipts: true})
	release := make(chan struct{})
	var handled atomic.Int64
	cfg := testConfig(srv.addr(), func(ctx context.Context, d Deliver) error {
		select {
		case <-release:
		case <-ctx.Done():
			return ctx.Err()
		}
		handled.Add(1)
		return nil
	})
	cfg.DeliverQueue = 4
	c := startClient(t, cfg)
	const n = 40
	// Every response arrives while the handler is still blocked (it is released
	// only below): that is the behaviour, however long a busy machine takes.
	res := submitAll(t, c, 0, n)
	for _, o := range res {
		if o.err != nil {
			t.Fatal(o.err)
		}
	}
	waitFor(t, "overflowing receipts refused", 5*time.Second, func() bool { return c.Stats().DeliversOverflow > 0 })
	close(release)
	waitFor(t, "all receipts acknowledged after the handler resumed", 10*time.Second, func() bool {
		_, acked, _, _ := srv.snapshot()
		return len(acked) == n
	})
	if handled.Load() < n {
		t.Fatalf("handled %d", handled.Load())
	}
}

func TestDeliverOrderPerSource(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	var mu sync.Mutex
	last := map[string]int{}
	var outOfOrder, handled atomic.Int64
	cfg := testConfig(srv.addr(), func(_ context.Context, d Deliver) error {
		var n int
		if _, err := fmt.Sscanf(d.Text, "mo %d", &n); err != nil {
			return err
		}
		mu.Lock()
		if n <= last[d.Source.Addr] {
			outOfOrder.Add(1)
		}
		last[d.Source.Addr] = n
		mu.Unlock()
		handled.Add(1)
		return nil
	})
	cfg.DeliverWorkers = 4
	startClient(t, cfg)
	conn := srv.liveConn()
	const n = 400
	for i := 1; i <= n; i++ {
		src := Mobile(fmt.Sprintf("9891200000%02d", i%5))
		conn.deliver(fmt.Sprintf("mo-%d", i), encodeTestDeliver(0, src, SenderLine("30001234"), 0, 0, fmt.Appendf(nil, "mo %d", i), nil), 1)
	}
	waitFor(t, "MO handled", 5*time.Second, func() bool { return handled.Load() == n })
	if outOfOrder.Load() != 0 {
		t.Fatalf("%d deliveries out of order for their source", outOfOrder.Load())
	}
}

// TestEmptyDeliverQueuesAreSmall checks what a bound session holds for its
// deliver queues before any deliver_sm: the gateway runs 64 workers of 1,024
// slots per bind, and slots holding whole Delivers (192 bytes) made that 12.6
// MB per bind, live for the bind's life and scanned by every collection.
func TestEmptyDeliverQueuesAreSmall(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	cfg := testConfig(srv.addr(), func(context.Context, Deliver) error { return nil })
	cfg.DeliverWorkers, cfg.DeliverQueue = 64, 1024
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	defer s.Close(context.Background())
	if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
		t.Errorf("a session with 64 × 1,024 deliver slots allocated %.1f MB, want under 2", float64(got)/(1<<20))
	}
}

// With DeliverBatch, each deliver_sm is answered only after the batch that
// held it was stored, with its own status (a failed one is redelivered), in
// arrival order; deliveries that arrive while a batch is being stored go
// together in the next.
func TestDeliverBatchAnswersEachAfterItsBatch(t *testing.T) {
	rl := newReceiptLog()
	srv := newTestSMSC(t, smscOptions{receipts: true, ackCheck: rl.handlerReturned})
	var mu sync.Mutex
	attempts := map[string]int{}
	var last time.Time
	var calls, most, outOfOrder int
	cfg := testConfig(srv.addr(), nil)
	cfg.DeliverBatch = func(ctx context.Context, ds []Deliver) []error {
		time.Sleep(2 * time.Millisecond) // a store's round trip: the next batch gathers meanwhile
		errs := make([]error, len(ds))
		mu.Lock()
		defer mu.Unlock()
		calls, most = calls+1, max(most, len(ds))
		for i, d := range ds {
			if d.ReceivedAt.Before(last) { // read in this order on the read loop
				outOfOrder++
			}
			last = d.ReceivedAt
			r, err := rl.record(d)
			if err != nil {
				errs[i] = err
				continue
			}
			key := MessageIDKeys(r.MessageID)[0]
			if attempts[key]++; attempts[key] == 1 && i%2 == 0 {
				errs[i] = errors.New("store unavailable")
				continue
			}
			rl.stored(r)
		}
		return errs
	}
	cfg.Window = 64
	c := startClient(t, cfg)
	const n = 600
	res := submitAll(t, c, 0, n)
	acked, nacks := waitAcked(t, srv, n)
	nacked := 0
	for _, o := range res {
		if o.err != nil || acked[o.id] != 1 || rl.has(o.id) != 1 {
			t.Fatalf("%s: err=%v acks=%d stored=%d", o.id, o.err, acked[o.id], rl.has(o.id))
		}
		nacked += nacks[o.id]
	}
	mu.Lock()
	defer mu.Unlock()
	if nacked == 0 || int(srv.redelivered.Load()) != nacked {
		t.Fatalf("%d nacked, %d redelivered: want some, each redelivered", nacked, srv.redelivered.Load())
	}
	if most < 2 || calls >= n+nacked || outOfOrder != 0 {
		t.Fatalf("%d calls for %d deliveries, largest batch %d, %d out of order", calls, n+nacked, most, outOfOrder)
	}
	if st := c.Stats(); st.DeliversAcked != n || st.DeliversNacked != int64(nacked) {
		t.Fatalf("stats %+v", st)
	}
	t.Logf("%d deliveries in %d batches (largest %d), %d nacked and redelivered", n+nacked, calls, most, nacked)
}

// A DeliverBatch that panics leaves every delivery of its batch unanswered as
// stored: each is answered ESME_RX_T_APPN and redelivered.
func TestDeliverBatchPanicNacksTheBatch(t *testing.T) {
	rl := newReceiptLog()
	srv := newTestSMSC(t, smscOptions{receipts: true, ackCheck: rl.handlerReturned})
	var panicked atomic.Bool
	cfg := testConfig(srv.addr(), nil)
	cfg.DeliverBatch = func(ctx context.Context, ds []Deliver) []error {
		if !panicked.Swap(true) {
			panic("store bug")
		}
		for _, d := range ds {
			r, err := rl.record(d)
			if err != nil {
				t.Error(err)
				continue
			}
			rl.stored(r)
		}
		return make([]error, len(ds))
	}
	c := startClient(t, cfg)
	res := submitAll(t, c, 0, 20)
	if _, nacks := waitAcked(t, srv, len(res)); len(nacks) == 0 {
		t.Fatal("the panicked batch was not nacked")
	}
}

// waitAcked waits until the SMSC has n receipts acknowledged, fails on any
// violation it saw (an ack before the handler stored the receipt), and returns
// the acks and nacks by message id.
func waitAcked(t *testing.T, srv *testSMSC, n int) (acked, nacks map[string]int) {
	t.Helper()
	waitFor(t, "every receipt acknowledged", 20*time.Second, func() bool {
		_, acked, _, _ := srv.snapshot()
		return len(acked) == n
	})
	_, acked, nacks, violations := srv.snapshot()
	if len(violations) > 0 {
		t.Fatalf("%d violations, first: %s", len(violations), violations[0])
	}
	return acked, nacks
}
