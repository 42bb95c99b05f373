package send

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/sendrules"
)

// A gradual request's form: the fast lane (one-time codes, transactional
// patterns) is never paced; one way of pacing within its bounds.
func TestCheckGradual(t *testing.T) {
	until := time.Now().Add(time.Hour)
	cases := []struct {
		typ   string
		g     *Gradual
		field string
	}{
		{TypeQuick, nil, ""},
		{TypeQuick, &Gradual{PerHour: 2000}, ""},
		{TypePattern, &Gradual{PerMinute: 30}, ""},
		{TypePhonebook, &Gradual{Until: &until}, ""},
		{TypePatternOTP, &Gradual{PerHour: 2000}, "gradual"},
		{TypePatternTransactional, &Gradual{PerHour: 2000}, "gradual"},
		{TypeVerification, &Gradual{PerMinute: 1}, "gradual"},
		{TypeQuick, &Gradual{PerHour: 9}, "gradual.per_hour"},
		{TypeQuick, &Gradual{PerMinute: MaxPacePerMinute + 1}, "gradual.per_minute"},
		{TypeQuick, &Gradual{PerHour: 100, Until: &until}, "gradual"},
	}
	for _, c := range cases {
		f := apperr.Fields{}
		checkGradual(c.g, c.typ, f)
		if c.field == "" && len(f) != 0 || c.field != "" && len(f[c.field]) != 1 {
			t.Errorf("%s %+v: %v, want an error on %q", c.typ, c.g, f, c.field)
		}
	}
}

// The pace that spreads recipients evenly until an end time, and the expected
// end counting only the window's hours.
func TestUntilPaceAndFinish(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, persian.Tehran) }
	w := sendrules.Window{From: 7 * 60, To: 22 * 60}
	if p, err := untilPace(w, day(6, 9, 0), day(6, 14, 0), 10_000); err != nil || p != 2000 {
		t.Fatalf("10,000 from 09:00 to 14:00: %d %v", p, err)
	}
	if p, err := untilPace(w, day(6, 9, 0), day(6, 9, 7), 10); err != nil || p != 86 {
		t.Fatalf("10 in 7 minutes: %d %v", p, err)
	}
	if _, err := untilPace(w, day(6, 21, 0), day(7, 8, 0), 10); err == nil {
		t.Fatal("an end across the night accepted")
	}
	if got := w.Finish(day(6, 21, 0), 3*time.Hour); !got.Equal(day(7, 9, 0)) {
		t.Fatalf("three hours from 21:00 end %v", got)
	}
	if got := w.Between(day(6, 21, 0), day(7, 8, 0)); got != 2*time.Hour {
		t.Fatalf("open time from 21:00 to 08:00: %v", got)
	}
	if got := sendrules.AllDay.Finish(day(6, 21, 0), 3*time.Hour); !got.Equal(day(7, 0, 0)) {
		t.Fatalf("all day: %v", got)
	}
}
