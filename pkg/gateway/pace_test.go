package gateway

import (
	"testing"
	"time"
)

// A pace releases one minute's worth at its start, then the pace times the
// time elapsed; the next allotment is due when a minute's worth more is.
func TestPaceAllowedAndNextDue(t *testing.T) {
	from := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	p := paceState{perHour: 2000, from: &from}
	for _, c := range []struct {
		after time.Duration
		want  int
	}{{0, 34}, {time.Minute, 67}, {time.Hour, 2034}, {150 * time.Minute, 5034}, {-time.Minute, 34}} {
		if got := p.allowed(from.Add(c.after)); got != c.want {
			t.Errorf("after %v: %d released, want %d", c.after, got, c.want)
		}
	}
	// After a resume the anchor moves and what was released before is the base.
	p = paceState{perHour: 10, base: 3, released: 4, from: &from}
	if got := p.allowed(from); got != 4 {
		t.Fatalf("10 an hour just resumed: %d", got)
	}
	if got, want := p.nextDue(from), from.Add(6*time.Minute); !got.Equal(want) {
		t.Fatalf("next due %v, want %v", got, want)
	}
	if got := p.nextDue(from.Add(time.Hour)); !got.Equal(from.Add(time.Hour + time.Second)) {
		t.Fatalf("overdue: next due %v", got)
	}
	if step(30) != 1 || step(60) != 1 || step(61) != 2 {
		t.Fatal("a minute's worth")
	}
}
