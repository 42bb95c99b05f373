package smpp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
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
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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

// waitFor polls cond until it holds. The timeout is a safety net, never a
// speed goal: it is at least a minute, so a loaded machine only makes the
// wait longer.
func waitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(max(timeout, time.Minute))
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
	cfg := testConfig(srv.addr(), func(context.Context, Deliver) error { return nil })
	cfg.TPS = 100
	cfg.TPSBurst = 1
	c := startClient(t, cfg)

	start := time.Now()
	submitAll(t, c, 0, 21)
	if el := time.Since(start); el < 180*time.Millisecond {
		t.Fatalf("21 submits at 100/s took only %v", el)
	}

	// deliver_sm_resp is never rate limited: at one submit_sm per 100 s, with
	// the bucket spent, 200 MO messages are all acknowledged (rate limited they
	// would take 20,000 s; the wait's deadline is only a safety net).
	slow := newTestSMSC(t, smscOptions{})
	var handled atomic.Int64
	cfg = testConfig(slow.addr(), func(context.Context, Deliver) error { handled.Add(1); return nil })
	cfg.TPS = 0.01
	cfg.TPSBurst = 1
	c = startClient(t, cfg)
	submitAll(t, c, 0, 1)
	conn := slow.liveConn()
	for i := range 200 {
		b := encodeTestDeliver(0, Mobile(fmt.Sprintf("98912%07d", i)), SenderLine("30001234"), 0, 0, []byte("11"), nil)
		conn.deliver(fmt.Sprintf("mo-%d", i), b, 1)
	}
	waitFor(t, "MO acknowledged", time.Minute, func() bool {
		_, acked, _, _ := slow.snapshot()
		return len(acked) == 200
	})
	if handled.Load() != 200 {
		t.Fatalf("handled %d", handled.Load())
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
