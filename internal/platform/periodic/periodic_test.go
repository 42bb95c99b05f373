package periodic

import (
	"context"
	"testing"
	"time"
)

// TestEvery: the first call waits for first, later ones for the period after
// the previous call, and nothing is called once the context ends.
func TestEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var at []time.Time
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Every(ctx, 30*time.Millisecond, 20*time.Millisecond, func(context.Context) {
			at = append(at, time.Now())
			if len(at) == 3 {
				cancel()
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if len(at) != 3 {
		t.Fatalf("%d calls, want 3", len(at))
	}
	if d := at[0].Sub(start); d < 30*time.Millisecond {
		t.Errorf("first call after %v, want ≥ 30ms", d)
	}
	for i := 1; i < len(at); i++ {
		if d := at[i].Sub(at[i-1]); d < 20*time.Millisecond {
			t.Errorf("call %d came %v after the previous, want ≥ 20ms", i, d)
		}
	}
}
