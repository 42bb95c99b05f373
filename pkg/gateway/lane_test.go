package gateway

import (
	"context"
	"testing"
	"time"
)

func TestLaneSizes(t *testing.T) {
	for _, c := range []struct {
		share          float64
		window         int
		tps            float64
		reserved, bulk int
		bulkTPS        float64
	}{
		{0, 100, 200, 0, 0, 0},
		{0.2, 100, 200, 20, 80, 160},
		{0.2, 100, 0, 20, 80, 0},
		{0.01, 10, 0, 1, 9, 0},   // at least one slot
		{0.75, 2, 10, 1, 1, 2.5}, // bulk always keeps one
		{0.5, 1, 100, 0, 0, 50},  // a window of one cannot be split
	} {
		l := newLane(BindConfig{CriticalShare: c.share, Window: c.window, TPS: c.tps})
		if l.reserved != c.reserved || cap(l.window) != c.bulk || l.stats().BulkTPS != c.bulkTPS {
			t.Errorf("share %v window %d tps %v: reserved %d bulk window %d bulk tps %v, want %d %d %v",
				c.share, c.window, c.tps, l.reserved, cap(l.window), l.stats().BulkTPS, c.reserved, c.bulk, c.bulkTPS)
		}
	}
}

// Bulk parts never hold more than the bulk window, and stand aside while a
// critical part is being handed over.
func TestLaneBulkWindowAndYield(t *testing.T) {
	l := newLane(BindConfig{CriticalShare: 0.2, Window: 10})
	ctx := context.Background()
	var rel []func()
	for range 8 {
		r, err := l.bulk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rel = append(rel, r)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	if _, err := l.bulk(short); err == nil {
		t.Fatal("a ninth bulk part got a slot of a window of 10 with 2 reserved")
	}
	cancel()
	rel[0]()
	r, err := l.bulk(ctx)
	if err != nil {
		t.Fatal("a released slot was not given again:", err)
	}
	r()

	l.critical.Add(1)
	got := make(chan time.Time, 1)
	go func() {
		r, err := l.bulk(ctx)
		if err == nil {
			r()
		}
		got <- time.Now()
	}()
	time.Sleep(20 * time.Millisecond)
	freed := time.Now()
	l.critical.Add(-1)
	if at := <-got; at.Before(freed) {
		t.Fatal("a bulk part went while a critical part was being handed over")
	}
}

// The bulk rate is TPS×(1−share).
func TestLaneBulkRate(t *testing.T) {
	l := newLane(BindConfig{CriticalShare: 0.5, Window: 100, TPS: 200})
	ctx := context.Background()
	start := time.Now()
	for range 51 {
		r, err := l.bulk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r()
	}
	// 100/s with a burst of 2: 51 parts take about 0.49 s.
	if el := time.Since(start); el < 400*time.Millisecond || el > 2*time.Second {
		t.Fatalf("51 bulk parts at 100/s took %v", el)
	}
}
