package campaign

import (
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // Asia/Tehran even where the system has no zone files

	"github.com/robfig/cron/v3"
	ptime "github.com/yaa110/go-persian-calendar"

	"github.com/chapar/chapar/pkg/apperr"
)

// Schedule kinds.
const (
	Daily   = "daily"
	Weekly  = "weekly"
	Monthly = "monthly"
	Cron    = "cron"
)

// Persian messages of schedules.
const (
	MsgKind      = "نوع تکرار را انتخاب کنید"
	MsgTime      = "ساعت ارسال را به شکل ساعت:دقیقه وارد کنید"
	MsgWeekdays  = "دست‌کم یک روز هفته را انتخاب کنید"
	MsgMonthDays = "دست‌کم یک روز ماه (۱ تا ۳۱) را انتخاب کنید"
	MsgCron      = "عبارت کرون نامعتبر است"
)

// Tehran is the zone every schedule is read in.
var Tehran = mustZone("Asia/Tehran")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// Schedule says when a campaign repeats. Weekdays count from Saturday (0) to Friday
// (6); month days are days of the Jalali month; times are Tehran time.
type Schedule struct {
	Kind      string `json:"kind"`
	Time      string `json:"time,omitempty"`
	Weekdays  []int  `json:"weekdays,omitempty"`
	MonthDays []int  `json:"month_days,omitempty"`
	Cron      string `json:"cron,omitempty"`
}

// Validate checks a schedule and returns per-field errors under schedule.*.
func (s *Schedule) Validate() error {
	f := apperr.Fields{}
	switch s.Kind {
	case Daily, Weekly, Monthly:
		if _, _, ok := s.clock(); !ok {
			f.Add("schedule.time", MsgTime)
		}
	case Cron:
		if _, err := s.cron(); err != nil {
			f.Add("schedule.cron", MsgCron)
		}
	default:
		f.Add("schedule.kind", MsgKind)
	}
	switch s.Kind {
	case Weekly:
		s.Weekdays = cleanInts(s.Weekdays, 0, 6)
		if len(s.Weekdays) == 0 {
			f.Add("schedule.weekdays", MsgWeekdays)
		}
	case Monthly:
		s.MonthDays = cleanInts(s.MonthDays, 1, 31)
		if len(s.MonthDays) == 0 {
			f.Add("schedule.month_days", MsgMonthDays)
		}
	}
	return f.Err()
}

func cleanInts(in []int, lo, hi int) []int {
	var out []int
	for _, v := range in {
		if v >= lo && v <= hi && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

func (s Schedule) clock() (h, m int, ok bool) {
	t, err := time.Parse("15:04", strings.TrimSpace(s.Time))
	if err != nil {
		return 0, 0, false
	}
	return t.Hour(), t.Minute(), true
}

func (s Schedule) cron() (cron.Schedule, error) {
	return cron.ParseStandard("CRON_TZ=Asia/Tehran " + strings.TrimSpace(s.Cron))
}

// Next returns the first run strictly after t.
func (s Schedule) Next(t time.Time) (time.Time, error) {
	if s.Kind == Cron {
		c, err := s.cron()
		if err != nil {
			return time.Time{}, fmt.Errorf("cron %q: %w", s.Cron, err)
		}
		return c.Next(t), nil
	}
	h, m, ok := s.clock()
	if !ok {
		return time.Time{}, fmt.Errorf("schedule time %q", s.Time)
	}
	local := t.In(Tehran)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, Tehran)
	// Every kind repeats within 13 months (a Jalali day 31 exists in six months).
	for i := 0; i < 400; i++ {
		d := day.AddDate(0, 0, i)
		at := time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, Tehran)
		if !at.After(t) || !s.matches(d) {
			continue
		}
		return at, nil
	}
	return time.Time{}, fmt.Errorf("schedule %+v never runs", s)
}

func (s Schedule) matches(d time.Time) bool {
	switch s.Kind {
	case Weekly:
		return slices.Contains(s.Weekdays, (int(d.Weekday())+1)%7) // Saturday first
	case Monthly:
		return slices.Contains(s.MonthDays, ptime.New(d).Day())
	}
	return true
}
