package campaign

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
)

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, Tehran)
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
			if err := c.s.Validate(); err != nil {
				t.Fatal(err)
			}
			got, err := c.s.Next(at(c.after))
			if err != nil {
				t.Fatal(err)
			}
			if want := at(c.want); !got.Equal(want) {
				t.Fatalf("next after %s = %s, want %s", c.after, got.In(Tehran).Format("2006-01-02 15:04"), c.want)
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
		err := s.Validate()
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
