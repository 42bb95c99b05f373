package lease_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/platform/lease"
	"github.com/chapar/chapar/internal/testing/testenv"
)

// TestLead runs two processes' leases on one key in real Redis: one holds it at
// a time, a holder keeps it by asking, a clean release hands it over at the
// follower's next ask, and a holder that stops asking (dead) loses it after TTL.
func TestLead(t *testing.T) {
	ctx := context.Background()
	r := testenv.RedisDB(t)
	const ttl = 3 * time.Second // long enough that a loaded machine does not lose it between asks
	a := &lease.Lead{RDB: r.Client, Key: "lead", Token: "a", TTL: ttl}
	b := &lease.Lead{RDB: r.Client, Key: "lead", Token: "b", TTL: ttl}
	if !a.Held(ctx) || b.Held(ctx) {
		t.Fatal("want a to lead and b to follow")
	}
	const every = 200 * time.Millisecond
	if got := a.Pace(ctx, every); got != every {
		t.Fatalf("the lead paces %v, want %v", got, every)
	}
	if got := b.Pace(ctx, every); got != every*lease.FollowerPace {
		t.Fatalf("a follower paces %v, want %v", got, every*lease.FollowerPace)
	}
	for range 6 { // one TTL: a renews past its first; b asks every TTL/3
		time.Sleep(ttl / 6)
		if !a.Held(ctx) || b.Held(ctx) {
			t.Fatal("a lost the lease while asking for it")
		}
	}
	a.Release(ctx)
	waitHeld(t, b, ttl/3+time.Second)
	if a.Held(ctx) {
		t.Fatal("a took the lease back from b")
	}
	// b dies (asks no more): a takes over once b's lease ran out.
	start := time.Now()
	waitHeld(t, a, 2*ttl)
	if took := time.Since(start); took < ttl/2 {
		t.Fatalf("a took over after %v, before b's lease ran out", took)
	}
	if (*lease.Lead)(nil).Held(ctx) != true {
		t.Fatal("a nil lease (no fleet) must always lead")
	}
	if got := (*lease.Lead)(nil).Pace(ctx, every); got != every {
		t.Fatalf("a nil lease paces %v, want %v", got, every)
	}
}

func waitHeld(t *testing.T, l *lease.Lead, within time.Duration) {
	t.Helper()
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if l.Held(context.Background()) {
			return
		}
	}
	t.Fatalf("%s did not take the lease within %v", l.Token, within)
}
