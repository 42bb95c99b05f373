package db

import (
	"testing"
	"time"
)

// TestLikeHelpers: wildcards in a search match themselves; an empty term matches
// everything; the zero time is no bound.
func TestLikeHelpers(t *testing.T) {
	if got := Contains(` 50%_off\ `); got != `%50\%\_off\\%` {
		t.Fatalf("Contains = %q", got)
	}
	if got := Contains("  "); got != "%%" {
		t.Fatalf("Contains(blank) = %q", got)
	}
	if OptTime(time.Time{}) != nil {
		t.Fatal("OptTime(zero) is not nil")
	}
	now := time.Now()
	if p := OptTime(now); p == nil || !p.Equal(now) {
		t.Fatal("OptTime(now) lost the time")
	}
}
