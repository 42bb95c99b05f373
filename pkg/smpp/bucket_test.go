package smpp

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A paced waiter wakes on the bucket's grid: never before its token matures,
// and less than a tick after.
func TestBucketWakesOnTheGrid(t *testing.T) {
	const r = 1000.0
	b := newTokenBucket(r, 100) // tick 10 ms (the burst lasts 100 ms)
	if b.tick != BucketTick {
		t.Fatalf("tick %s, want %s", b.tick, BucketTick)
	}
	now := time.Unix(0, 1_234_567_891)
	for _, deficit := range []float64{0.001, 1, 7.5, 12, 100} {
		mature := time.Duration(deficit / r * float64(time.Second))
		d := OnGrid(now, mature, b.tick)
		if d < mature || d >= mature+b.tick || now.Add(d).UnixNano()%int64(b.tick) != 0 {
			t.Errorf("deficit %v: wakes after %s (matures after %s), off the %s grid", deficit, d, mature, b.tick)
		}
	}
	// A burst shorter than a tick shortens the tick: no more than the burst
	// leaves at once.
	if tick := GridTick(1000, 2); tick != 2*time.Millisecond {
		t.Errorf("burst of 2 at 1000/s: tick %s, want 2ms", tick)
	}
}

// However the waiters are woken, no more tokens are taken by any moment than
// the burst plus the rate times the time since the start (a loaded machine
// only makes waiters later, so this cannot fail for want of speed).
func TestBucketNeverAheadOfRate(t *testing.T) {
	const rate, burst, n = 2000, 20, 300
	start := time.Now()
	b := newTokenBucket(rate, burst)
	var mu sync.Mutex
	taken := make([]time.Time, 0, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.wait(context.Background(), nil); err != nil {
				t.Error(err)
			}
			mu.Lock()
			taken = append(taken, time.Now())
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, at := range taken {
		k := 0
		for _, o := range taken {
			if !o.After(at) {
				k++
			}
		}
		if allowed := burst + at.Sub(start).Seconds()*rate; float64(k) > allowed+1e-9 {
			t.Fatalf("%d tokens taken %s after the start, at most %.1f allowed", k, at.Sub(start), allowed)
		}
	}
}
