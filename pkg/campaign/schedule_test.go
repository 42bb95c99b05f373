package campaign

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
)

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, persian.Tehran)
	if err != nil {
		panic(err)
	}
	return t
}

func TestNext(t *testing.T) {
	cases := []struct {
		name  string
		s     Schedule
		after string
		want  string
	}{
		{"daily later today", Schedule{Kind: Daily, Time: "18:30"}, "2025-03-21 10:00", "2025-03-21 18:30"},
		{"daily at the exact time moves on", Schedule{Kind: Daily, Time: "18:30"}, "2025-03-21 18:30", "2025-03-22 18:30"},
		// 2025-03-21 is a Friday (6 counting from Saturday); Saturday is the next day.
		{"weekly saturday", Schedule{Kind: Weekly, Time: "09:00", Weekdays: []int{0}}, "2025-03-21 10:00", "2025-03-22 09:00"},
		{"weekly friday same day passed", Schedule{Kind: Weekly, Time: "09:00", Weekdays: []int{6}}, "2025-03-21 10:00", "2025-03-28 09:00"},
		// 2025-03-21 = 1404/01/01; the 15th of Farvardin is 2025-04-04.
		{"monthly jalali 15th", Schedule{Kind: Monthly, Time: "08:00", MonthDays: []int{15}}, "2025-03-21 10:00", "2025-04-04 08:00"},
		{"monthly first of next month", Schedule{Kind: Monthly, Time: "08:00", MonthDays: []int{1}}, "2025-03-21 10:00", "2025-04-21 08:00"},
		// Day 31 exists only in the first six Jalali months: after 1404/06/31 comes 1405/01/31.
		{"monthly 31st skips short months", Schedule{Kind: Monthly, Time: "08:00", MonthDays: []int{31}}, "2025-09-22 10:00", "2026-04-20 08:00"},
		{"cron every 5 minutes", Schedule{Kind: Cron, Cron: "*/5 * * * *"}, "2025-03-21 10:02", "2025-03-21 10:05"},
		{"cron in tehran time", Schedule{Kind: Cron, Cron: "0 9 * * *"}, "2025-03-21 10:00", "2025-03-22 09:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.s.Validate(at(c.after)); err != nil {
				t.Fatal(err)
			}
			got, err := c.s.Next(at(c.after))
			if err != nil {
				t.Fatal(err)
			}
			if want := at(c.want); !got.Equal(want) {
				t.Fatalf("next after %s = %s, want %s", c.after, got.In(persian.Tehran).Format("2006-01-02 15:04"), c.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	bad := map[string]Schedule{
		"schedule.kind":       {Kind: "yearly", Time: "10:00"},
		"schedule.time":       {Kind: Daily, Time: "25:00"},
		"schedule.weekdays":   {Kind: Weekly, Time: "10:00", Weekdays: []int{7}},
		"schedule.month_days": {Kind: Monthly, Time: "10:00"},
		"schedule.cron":       {Kind: Cron, Cron: "every minute"},
	}
	for field, s := range bad {
		err := s.Validate(at("2025-03-21 10:00"))
		if err == nil {
			t.Fatalf("%s: %+v accepted", field, s)
		}
		if fe, ok := asFields(err); !ok || len(fe[field]) == 0 {
			t.Fatalf("%s: error %v", field, err)
		}
	}
}

func asFields(err error) (map[string][]string, bool) {
	fe, ok := apperr.As(err)
	if !ok {
		return nil, false
	}
	return fe.Fields, true
}

// Schedules that would make the scheduler spin or wait forever are refused: a cron
// that never fires (it used to be stored due at year 0001 and re-run 100 times a
// second), one whose next run is more than 13 months away, and runs closer than a
// minute apart.
func TestValidateRefusesRunawaySchedules(t *testing.T) {
	now := at("2025-03-21 10:00") // 2025 is not a leap year; 2028 is
	bad := map[string]struct {
		cron, msg string
	}{
		"february 30th":           {"0 0 30 2 *", MsgNoRun},
		"february 31st":           {"0 9 31 2 *", MsgNoRun},
		"leap day, 3 years ahead": {"0 9 29 2 *", MsgNoRun},
		"every second":            {"@every 1s", MsgTooOften},
		"every 30 seconds":        {"@every 30s", MsgTooOften},
	}
	for name, c := range bad {
		s := Schedule{Kind: Cron, Cron: c.cron}
		err := s.Validate(now)
		fe, ok := asFields(err)
		if !ok || len(fe["schedule.cron"]) != 1 || fe["schedule.cron"][0] != c.msg {
			t.Errorf("%s (%q): error %v, want %q on schedule.cron", name, c.cron, err, c.msg)
		}
	}
	good := []string{"* * * * *", "0,1 9 * * *", "@every 1m", "@every 90s", "*/5 * * * *", "0 9 29 2 *", "@yearly", "0 0 1 1 *"}
	for _, expr := range good {
		s := Schedule{Kind: Cron, Cron: expr}
		when := now
		if expr == "0 9 29 2 *" {
			when = at("2027-06-01 10:00") // the leap day of 2028 is 9 months ahead
		}
		if err := s.Validate(when); err != nil {
			t.Errorf("%q refused: %v", expr, err)
		}
	}
	// A monthly schedule on the 31st waits at most six months: accepted.
	s := Schedule{Kind: Monthly, Time: "08:00", MonthDays: []int{31}}
	if err := s.Validate(at("2025-09-22 10:00")); err != nil {
		t.Errorf("monthly 31st refused: %v", err)
	}
}
