package smscsim

import (
	"testing"
	"time"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

// TestMaxBinds: a carrier account's bind quota. One bind more than MaxBinds is
// refused with ESME_RBINDFAIL; when a bound session ends, its place is free.
func TestMaxBinds(t *testing.T) {
	srv := startSim(t, Config{MaxBinds: 2})
	addr := srv.Addr("mci")
	first, second := dialESME(t, addr, true), dialESME(t, addr, true)
	for _, e := range []*testESME{first, second} {
		if st := e.bind(pdu.BindTransceiverID, "chapar", "secret"); st != 0 {
			t.Fatalf("bind within the quota: status %#x", uint32(st))
		}
	}
	third := dialESME(t, addr, true)
	if st := third.bind(pdu.BindTransceiverID, "chapar", "secret"); st != StatusBindFail {
		t.Fatalf("a third bind: status %#x, want ESME_RBINDFAIL", uint32(st))
	}
	if n := srv.Bound("mci", "chapar"); n != 2 || srv.Stats().Operators["mci"].Bound != 2 {
		t.Fatalf("Bound = %d, want 2", n)
	}
	first.conn.Close()
	waitFor(t, func() bool { return srv.Bound("mci", "chapar") == 1 }, "the closed session's bind freed")
	again := dialESME(t, addr, true)
	if st := again.bind(pdu.BindTransceiverID, "chapar", "secret"); st != 0 {
		t.Fatalf("a bind after one ended: status %#x, want OK", uint32(st))
	}
}

// TestCarrierConditions: a rate over all of an operator's sessions throttles the
// excess, and a response delay holds every submit_sm_resp back; zeros undo both.
func TestCarrierConditions(t *testing.T) {
	srv := startSim(t, Config{})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	if err := srv.SetConditions(CarrierConditions{Operator: "mci", Rate: 1, DelayMS: 300}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, st := e.submit(submitPDU("3000", "989121234567", 0, 0, 0, []byte("a"))); st != 0 {
		t.Fatalf("first submit within the rate: status %#x", uint32(st))
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("answered after %v, want ≥ 300ms", d)
	}
	if _, st := e.submit(submitPDU("3000", "989121234568", 0, 0, 0, []byte("b"))); st != StatusThrottled {
		t.Fatalf("second submit over 1/s: status %#x, want ESME_RTHROTTLED", uint32(st))
	}
	// An hour's delay, then zeros: the answer comes (within the wait's safety
	// net), so the delay is gone, however busy the machine.
	if err := srv.SetConditions(CarrierConditions{Operator: "mci", DelayMS: 3_600_000}); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetConditions(CarrierConditions{Operator: "*"}); err != nil {
		t.Fatal(err)
	}
	if _, st := e.submit(submitPDU("3000", "989121234569", 0, 0, 0, []byte("c"))); st != 0 {
		t.Fatalf("after reset: status %#x", uint32(st))
	}
}
