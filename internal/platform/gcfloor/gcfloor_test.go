package gcfloor

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, floor uint64
		want        int
	}{
		{5 * mb, 256 * mb, 5020},  // a worker between imports: 5 MB may grow to 256
		{18 * mb, 256 * mb, 1322}, // a gateway's live heap
		{128 * mb, 256 * mb, 100}, // half the floor: Go's default from here
		{300 * mb, 256 * mb, 100}, // above the floor: twice the live heap
		{0, 256 * mb, 6400},       // before the first collection: Go's 4 MB minimum × 64
		{1024, 256 * mb, 6400},    // nearly empty: the same
		{1024, 4 * mb, 100},       // a floor at Go's own: the default
	} {
		if got := Percent(c.live, c.floor); got != c.want {
			t.Errorf("Percent(%d MB, %d MB) = %d, want %d", c.live/mb, c.floor/mb, got, c.want)
		}
	}
}

// TestStart checks that the floor is set at once and set again after each
// collection, and that GOGC in the environment leaves Go's setting alone.
func TestStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "150")
	if Start(256) {
		t.Fatal("Start with GOGC set: on, want off")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("Start with GOGC set changed the percentage to %d", got)
	}
	t.Setenv("GOGC", "")
	if Start(0) {
		t.Fatal("Start(0): on, want off")
	}
	if !Start(256) {
		t.Fatal("Start(256): off, want on")
	}
	if got := debug.SetGCPercent(-1); got <= 100 {
		t.Errorf("after Start(256) with a small heap the percentage is %d, want above 100", got)
	}
	// The cleanup sets it again after the next collection.
	debug.SetGCPercent(100)
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if got := debug.SetGCPercent(-1); got > 100 {
			debug.SetGCPercent(got)
			break
		}
		debug.SetGCPercent(100)
		if time.Now().After(deadline) {
			t.Fatal("the percentage was not set again after a collection")
		}
	}
}
