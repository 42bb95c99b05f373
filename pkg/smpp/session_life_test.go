package smpp

// Tests of a session's life: binding, enquire_link, a dropped connection and a
// rebind, an unbind from the SMSC, and closing with submits in flight.

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
