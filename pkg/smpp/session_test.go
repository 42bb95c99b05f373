package smpp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testLogger() *slog.Logger {
	if os.Getenv("SMPP_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func testConfig(addr string, h DeliverHandler) Config {
	if h == nil {
		h = func(context.Context, Deliver) error { return nil }
	}
	return Config{
		Addr:             addr,
		SystemID:         "chapar",
		Password:         "secret",
		DeliverHandler:   h,
		ResponseTimeout:  3 * time.Second,
		EnquireLink:      10 * time.Second,
		ReconnectInitial: 20 * time.Millisecond,
		ReconnectMax:     200 * time.Millisecond,
		Logger:           testLogger(),
	}
}

func startClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.WaitBound(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

func testMsg(i int) *SubmitSM {
	return &SubmitSM{
		Source:       SenderLine("30001234"),
		Dest:         Mobile(fmt.Sprintf("98912%07d", i)),
		ShortMessage: fmt.Appendf(nil, "message %d", i),
	}
}

func waitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

type outcome struct {
	id  string
	err error
}

// submitAll pipelines n submits and waits for every callback.
func submitAll(t testing.TB, c *Client, first, n int) []outcome {
	t.Helper()
	out := make([]outcome, n)
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range n {
		wg.Add(1)
		err := c.SubmitAsync(ctx, testMsg(first+i), func(id string, err error) {
			out[i] = outcome{id, err}
			wg.Done()
		})
		if err != nil {
			t.Fatalf("submit %d not sent: %v", i, err)
		}
	}
	wg.Wait()
	return out
}

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
	waitFor(t, "redelivered receipts acknowledged", 10*time.Second, func() bool {
		_, acked, _, _ := srv.snapshot()
		return len(acked) == n
	})
	_, acked, nacks, violations := srv.snapshot()
	if len(violations) > 0 {
		t.Fatal(violations[0])
	}
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
	start := time.Now()
	res := submitAll(t, c, 0, n)
	for _, o := range res {
		if o.err != nil {
			t.Fatal(o.err)
		}
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("submits took %v while the handler was blocked", el)
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

func TestThrottledBacksOff(t *testing.T) {
	var calls atomic.Int64
	srv := newTestSMSC(t, smscOptions{onSubmit: func(s smscSubmit) smscAction {
		if calls.Add(1) == 1 {
			return smscAction{status: StatusThrottled}
		}
		return smscAction{}
	}})
	cfg := testConfig(srv.addr(), nil)
	cfg.ThrottlePause = 300 * time.Millisecond
	c := startClient(t, cfg)
	ctx := context.Background()

	_, err := c.Submit(ctx, testMsg(1))
	if !IsThrottled(err) || !errors.Is(err, ErrThrottled) || IsUnknown(err) {
		t.Fatalf("want ErrThrottled, got %v", err)
	}
	if st, _ := StatusOf(err); st != StatusThrottled {
		t.Fatalf("status %v", st)
	}
	if c.State() != StateThrottled {
		t.Fatalf("state %v, want throttled", c.State())
	}
	start := time.Now()
	if _, err := c.Submit(ctx, testMsg(2)); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 200*time.Millisecond {
		t.Fatalf("next submit went out after %v, before the throttle pause", el)
	}
	if c.State() != StateBound {
		t.Fatalf("state %v after the pause", c.State())
	}
	if st := c.Stats(); st.Throttled != 1 || st.Accepted != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestRejectionsAndGenericNack(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{onSubmit: func(s smscSubmit) smscAction {
		switch s.dest {
		case "989120000001":
			return smscAction{status: StatusInvalidDestAddr}
		case "989120000002":
			return smscAction{genericNack: true}
		}
		return smscAction{}
	}})
	c := startClient(t, testConfig(srv.addr(), nil))
	for dest, want := range map[int]Status{1: StatusInvalidDestAddr, 2: StatusInvalidCmdID} {
		_, err := c.Submit(context.Background(), testMsg(dest))
		if st, ok := StatusOf(err); !ok || st != want || IsUnknown(err) || IsThrottled(err) {
			t.Fatalf("dest %d: err %v, want status %v", dest, err, want)
		}
	}
	if st := c.Stats(); st.Rejected != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestResponseTimeoutIsUnknown(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{onSubmit: func(s smscSubmit) smscAction {
		if s.dest == "989120000007" {
			return smscAction{noReply: true}
		}
		return smscAction{}
	}})
	cfg := testConfig(srv.addr(), nil)
	cfg.ResponseTimeout = 300 * time.Millisecond
	c := startClient(t, cfg)
	var wg sync.WaitGroup
	var lostErr error
	var lostAfter time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		_, lostErr = c.Submit(context.Background(), testMsg(7))
		lostAfter = time.Since(start)
	}()
	res := submitAll(t, c, 100, 20)
	wg.Wait()
	for _, o := range res {
		if o.err != nil {
			t.Fatal(o.err)
		}
	}
	if !IsUnknown(lostErr) || IsNotSent(lostErr) {
		t.Fatalf("want ErrUnknown, got %v", lostErr)
	}
	if lostAfter < 250*time.Millisecond || lostAfter > 2*time.Second {
		t.Fatalf("unknown reported after %v", lostAfter)
	}
	if st := c.Stats(); st.Unknown != 1 || st.Accepted != 20 || st.Binds != 1 || st.State != StateBound {
		t.Fatalf("a submit time-out must not drop the bind: %+v", st)
	}
}

func TestDisconnectMidWindowThenRebind(t *testing.T) {
	var held atomic.Int64
	srv := newTestSMSC(t, smscOptions{onSubmit: func(s smscSubmit) smscAction {
		if s.conn.index > 0 || s.n <= 30 {
			return smscAction{}
		}
		if held.Add(1) == 20 {
			return smscAction{drop: true}
		}
		return smscAction{noReply: true}
	}})
	cfg := testConfig(srv.addr(), nil)
	cfg.Window = 64
	c := startClient(t, cfg)
	res := submitAll(t, c, 0, 50)
	var accepted, unknown int
	for _, o := range res {
		switch {
		case o.err == nil:
			accepted++
		case IsUnknown(o.err):
			unknown++
		default:
			t.Fatalf("unexpected outcome %v", o.err)
		}
	}
	if accepted != 30 || unknown != 20 {
		t.Fatalf("accepted %d unknown %d, want 30 and 20", accepted, unknown)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	id, err := c.Submit(ctx, testMsg(99)) // waits for the automatic rebind
	if err != nil || id == "" {
		t.Fatalf("submit after rebind: %q %v", id, err)
	}
	if st := c.Stats(); st.Reconnects != 1 || st.Binds != 2 || st.Unknown != 20 || st.InFlight != 0 || srv.binds.Load() != 2 {
		t.Fatalf("stats %+v, server binds %d", st, srv.binds.Load())
	}
}

func TestEnquireLinkBothDirections(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{enquireEvery: 30 * time.Millisecond})
	cfg := testConfig(srv.addr(), nil)
	cfg.EnquireLink = 40 * time.Millisecond
	cfg.TPS = 1 // enquire_link and its responses must not be rate limited
	c := startClient(t, cfg)
	waitFor(t, "enquire_link in both directions", 3*time.Second, func() bool {
		return srv.enquireRecv.Load() >= 5 && srv.enquireResp.Load() >= 5
	})
	if c.State() != StateBound || c.Stats().Binds != 1 {
		t.Fatalf("state %v stats %+v", c.State(), c.Stats())
	}
}

func TestEnquireLinkTimeoutReconnects(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{ignoreEnquire: func(i int) bool { return i == 0 }})
	cfg := testConfig(srv.addr(), nil)
	cfg.EnquireLink = 50 * time.Millisecond
	cfg.ResponseTimeout = 100 * time.Millisecond
	c := startClient(t, cfg)
	waitFor(t, "rebind after an unanswered enquire_link", 5*time.Second, func() bool {
		return c.Stats().Reconnects == 1 && c.State() == StateBound
	})
	if st := c.Stats(); st.Unknown != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestSMSCUnbindThenRebind(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	c := startClient(t, testConfig(srv.addr(), nil))
	srv.liveConn().sendUnbind()
	waitFor(t, "unbind_resp and rebind", 5*time.Second, func() bool {
		return srv.unbindResp.Load() == 1 && c.Stats().Reconnects == 1 && c.State() == StateBound
	})
	if _, err := c.Submit(context.Background(), testMsg(1)); err != nil {
		t.Fatal(err)
	}
}

func TestGracefulCloseWaitsForInFlight(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{onSubmit: func(smscSubmit) smscAction {
		return smscAction{delay: 200 * time.Millisecond}
	}})
	c := startClient(t, testConfig(srv.addr(), nil))
	const n = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for i := range n {
		wg.Add(1)
		if err := c.SubmitAsync(context.Background(), testMsg(i), func(id string, err error) {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
			wg.Done()
		}); err != nil {
			t.Fatal(err)
		}
	}
	closed := make(chan error, 1)
	start := time.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		closed <- c.Close(ctx)
	}()
	waitFor(t, "client closing", time.Second, func() bool { return c.State() == StateClosing })
	_, err := c.Submit(context.Background(), testMsg(100))
	if !errors.Is(err, ErrClosed) || !IsNotSent(err) {
		t.Fatalf("submit during close: %v", err)
	}
	if err := <-closed; err != nil {
		t.Fatalf("close: %v", err)
	}
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Fatalf("close returned after %v, before in-flight responses", el)
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			t.Fatalf("in-flight submit completed with %v during graceful close", e)
		}
	}
	if srv.unbindRecv.Load() != 1 || c.State() != StateClosed {
		t.Fatalf("unbind %d state %v", srv.unbindRecv.Load(), c.State())
	}
}

func TestCloseDeadlineReportsUnknown(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{onSubmit: func(smscSubmit) smscAction { return smscAction{noReply: true} }})
	c := startClient(t, testConfig(srv.addr(), nil))
	done := make(chan error, 1)
	if err := c.SubmitAsync(context.Background(), testMsg(1), func(_ string, err error) { done <- err }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("close: %v", err)
	}
	if err := <-done; !IsUnknown(err) {
		t.Fatalf("in-flight submit: %v", err)
	}
}

func TestWindowBlocksInsteadOfRejecting(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{onSubmit: func(smscSubmit) smscAction {
		return smscAction{delay: 300 * time.Millisecond}
	}})
	cfg := testConfig(srv.addr(), nil)
	cfg.Window = 2
	c := startClient(t, cfg)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		if err := c.SubmitAsync(context.Background(), testMsg(i), func(string, error) { wg.Done() }); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Submit(ctx, testMsg(3))
	if !IsNotSent(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third submit with a short context: %v", err)
	}
	start := time.Now()
	if _, err := c.Submit(context.Background(), testMsg(4)); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Fatalf("third submit did not wait for the window (%v)", el)
	}
	wg.Wait()
	if st := c.Stats(); st.Submitted != 3 || st.Accepted != 3 {
		t.Fatalf("stats %+v", st)
	}
}

func TestTPSLimitsOnlySubmits(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	var handled atomic.Int64
	cfg := testConfig(srv.addr(), func(context.Context, Deliver) error { handled.Add(1); return nil })
	cfg.TPS = 100
	cfg.TPSBurst = 1
	c := startClient(t, cfg)

	start := time.Now()
	submitAll(t, c, 0, 21)
	if el := time.Since(start); el < 180*time.Millisecond {
		t.Fatalf("21 submits at 100/s took only %v", el)
	}

	// deliver_sm_resp is never rate limited: 200 MO messages at TPS 100
	// are all acknowledged well within the 2 s the bucket would need.
	conn := srv.liveConn()
	start = time.Now()
	for i := range 200 {
		b := encodeTestDeliver(0, Mobile(fmt.Sprintf("98912%07d", i)), SenderLine("30001234"), 0, 0, []byte("11"), nil)
		conn.deliver(fmt.Sprintf("mo-%d", i), b, 1)
	}
	waitFor(t, "MO acknowledged", 5*time.Second, func() bool {
		_, acked, _, _ := srv.snapshot()
		return len(acked) == 200
	})
	if el := time.Since(start); el > time.Second {
		t.Fatalf("200 deliver_sm_resp took %v: rate limited?", el)
	}
	if handled.Load() != 200 {
		t.Fatalf("handled %d", handled.Load())
	}
}

func TestBindRejected(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{password: "right"})
	cfg := testConfig(srv.addr(), nil)
	cfg.Password = "wrong"
	_, err := Dial(context.Background(), cfg)
	if st, ok := StatusOf(err); !ok || st != StatusInvalidPassword {
		t.Fatalf("dial: %v", err)
	}

	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "retries with back-off", 3*time.Second, func() bool { return srv.conns.Load() >= 3 })
	st := c.Stats()
	if st.Binds != 0 || st.LastError == "" || (st.State != StateDisconnected && st.State != StateConnecting) {
		t.Fatalf("stats %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submit(context.Background(), testMsg(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}

func TestSessionDial(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	cfg := testConfig(srv.addr(), nil)
	cfg.BindType = BindTransmitter
	cfg.DeliverHandler = nil
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Submit(context.Background(), testMsg(1))
	if err != nil || id == "" {
		t.Fatalf("%q %v", id, err)
	}
	srv.dropAll()
	select {
	case <-s.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("session did not notice the drop")
	}
	if _, err := s.Submit(context.Background(), testMsg(2)); !errors.Is(err, ErrNotBound) || !IsNotSent(err) {
		t.Fatalf("submit on a dead session: %v", err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestConfigValidation(t *testing.T) {
	if _, err := NewClient(Config{}); err == nil {
		t.Fatal("empty Addr accepted")
	}
	if _, err := NewClient(Config{Addr: "x:1"}); err == nil {
		t.Fatal("transceiver without DeliverHandler accepted")
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

func TestReceiverBindRefusesSubmit(t *testing.T) {
	srv := newTestSMSC(t, smscOptions{})
	cfg := testConfig(srv.addr(), nil)
	cfg.BindType = BindReceiver
	s, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close(context.Background()) }()
	if _, err := s.Submit(context.Background(), testMsg(1)); !IsNotSent(err) {
		t.Fatalf("submit on a receiver bind: %v", err)
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
