package campaign

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	ptime "github.com/yaa110/go-persian-calendar"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
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
	MsgNoRun     = "این زمان‌بندی در ۱۳ ماه آینده هیچ اجرایی ندارد"
	MsgTooOften  = "فاصله دو اجرای پیاپی کمپین باید دست‌کم یک دقیقه باشد"
)

// Limits of a schedule: its next run must come within Horizon, and two runs are
// at least MinInterval apart.
const (
	Horizon     = 13 // months
	MinInterval = time.Minute
)

// Schedule says when a campaign repeats. Weekdays count from Saturday (0) to Friday
// (6); month days are days of the Jalali month; times are Tehran time.
type Schedule struct {
	Kind      string `json:"kind"`
	Time      string `json:"time,omitempty"`
	Weekdays  []int  `json:"weekdays,omitempty"`
	MonthDays []int  `json:"month_days,omitempty"`
	Cron      string `json:"cron,omitempty"`
}

// Validate checks a schedule at now and returns per-field errors under schedule.*:
// besides its form, it must run within Horizon of now and not more often than
// MinInterval.
func (s *Schedule) Validate(now time.Time) error {
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
	if len(f) == 0 {
		if field, msg := s.checkRuns(now); msg != "" {
			f.Add(field, msg)
		}
	}
	return f.Err()
}

// checkRuns refuses a valid-looking schedule that never runs, whose next run is
// more than Horizon away, or whose runs come closer than MinInterval (a cron such as
// "0 0 30 2 *" or "@every 1s"; the other kinds run at most daily).
func (s Schedule) checkRuns(now time.Time) (field, msg string) {
	field = "schedule.kind"
	if s.Kind == Cron {
		field = "schedule.cron"
	}
	limit := now.AddDate(0, Horizon, 0)
	prev, err := s.Next(now)
	if err != nil || prev.After(limit) {
		return field, MsgNoRun
	}
	// Five-field crons have a one-minute resolution; only "@every" can run more often,
	// and its runs are evenly spaced: the first gap tells.
	if next, err := s.Next(prev); err == nil && next.Sub(prev) < MinInterval {
		return field, MsgTooOften
	}
	return "", ""
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

// ErrNoRun is returned by Next for a schedule that never runs again.
var ErrNoRun = errors.New("schedule has no next run")

// Next returns the first run strictly after t, or ErrNoRun.
func (s Schedule) Next(t time.Time) (time.Time, error) {
	if s.Kind == Cron {
		c, err := s.cron()
		if err != nil {
			return time.Time{}, fmt.Errorf("cron %q: %w", s.Cron, err)
		}
		if next := c.Next(t); !next.IsZero() {
			return next, nil
		}
		return time.Time{}, fmt.Errorf("cron %q: %w", s.Cron, ErrNoRun)
	}
	h, m, ok := s.clock()
	if !ok {
		return time.Time{}, fmt.Errorf("schedule time %q", s.Time)
	}
	local := t.In(persian.Tehran)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, persian.Tehran)
	// Every kind repeats within 13 months (a Jalali day 31 exists in six months).
	for i := 0; i < 400; i++ {
		d := day.AddDate(0, 0, i)
		at := time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, persian.Tehran)
		if !at.After(t) || !s.matches(d) {
			continue
		}
		return at, nil
	}
	return time.Time{}, fmt.Errorf("schedule %+v: %w", s, ErrNoRun)
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

// Runs returns the schedule's next runs after now that the sending hours are
// checked against: those of the next eight days, at most 2,000 (a daily,
// weekly or monthly schedule runs at one time of day, so its first run tells).
func (s Schedule) Runs(now time.Time) []time.Time {
	var out []time.Time
	limit := now.AddDate(0, 0, 8)
	for t := now; len(out) < 2000; {
		next, err := s.Next(t)
		if err != nil || next.After(limit) {
			break
		}
		out = append(out, next)
		if s.Kind != Cron {
			break
		}
		t = next
	}
	return out
}

// timeField is the field a run outside the sending hours is reported on.
func (s Schedule) timeField() string {
	if s.Kind == Cron {
		return "schedule.cron"
	}
	return "schedule.time"
}
