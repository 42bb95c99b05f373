package gateway

import (
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
)

// TestBindsSplitBetweenGateways: the carrier grants three binds (the simulator
// refuses a fourth). One gateway holds all three; a second one joining takes
// its share without the account ever going over three binds; a send spread
// over both gateways is submitted exactly once; when the first gateway stops,
// the second takes every bind.
func TestBindsSplitBetweenGateways(t *testing.T) {
	e := newEnv(t, smscsim.Config{MaxBinds: 3})
	three := func(c *Config) {
		c.BindLeases = true
		c.Binds = append(c.Binds, c.Binds[0], c.Binds[0])
	}
	held := func(g *Gateway) int { return len(g.heldBinds()) }
	over := make(chan int, 1)
	stopWatch := make(chan struct{})
	go func() { // the account's bind count, sampled throughout
		for {
			select {
			case <-stopWatch:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if n := e.sim.Bound("mci", DefaultSystemID); n > 3 {
				select {
				case over <- n:
				default:
				}
			}
		}
	}()
	defer close(stopWatch)

	a := e.start(e.config(three), nil)
	waitFor(t, 10*time.Second, "the first gateway bound to all three binds", func() bool {
		return held(a.Gateway) == 3 && e.sim.Bound("mci", DefaultSystemID) == 3
	})
	b := e.start(e.config(three), nil)
	waitFor(t, 3*leaseTTL, "the binds split 2 + 1", func() bool {
		return held(a.Gateway) == 2 && held(b.Gateway) == 1 && e.sim.Bound("mci", DefaultSystemID) == 3
	})

	const batches, per = 12, 500
	sendID := e.createSend("آزمون تقسیم بایندها", false, "queued")
	for i := 1; i <= batches; i++ {
		e.addRecipients(sendID, i, per, i*per, "98912", "mci", 1)
		e.enqueue(jobs.SendBatch{SendID: sendID, Batch: i, Operator: "mci"}, "")
	}
	waitFor(t, 60*time.Second, "every recipient submitted", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == batches*per
	})
	st := e.sim.Stats()
	if st.Total.Accepted != batches*per || st.Duplicates != 0 {
		t.Fatalf("simulator accepted %d with %d duplicates, want %d and 0", st.Total.Accepted, st.Duplicates, batches*per)
	}
	if sa, sb := bindStats(a.Gateway).Submitted, bindStats(b.Gateway).Submitted; sa == 0 || sb == 0 {
		t.Fatalf("submitted by the gateways: %d and %d, want both > 0", sa, sb)
	}

	if err := a.stop(t); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 3*leaseTTL, "the second gateway holding all three binds", func() bool {
		return held(b.Gateway) == 3 && e.sim.Bound("mci", DefaultSystemID) == 3
	})
	select {
	case n := <-over:
		t.Fatalf("the account had %d binds at once, over its 3", n)
	default:
	}
	if f := e.sim.Stats().Operators["mci"].BindFailures; f != 0 {
		t.Fatalf("%d binds refused: a gateway bound over the account's quota", f)
	}
}

// TestShare: an operator's binds per live gateway, rounded up.
func TestShare(t *testing.T) {
	for _, c := range []struct{ slots, live, want int }{{3, 1, 3}, {3, 2, 2}, {3, 3, 1}, {3, 4, 1}, {1, 2, 1}, {4, 2, 2}, {2, 0, 2}} {
		if got := share(c.slots, c.live); got != c.want {
			t.Errorf("share(%d, %d) = %d, want %d", c.slots, c.live, got, c.want)
		}
	}
}
