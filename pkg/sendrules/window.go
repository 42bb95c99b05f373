// Package sendrules owns the Iranian sending rules the engine enforces: the hours
// in which advertising lines may send (per operator, set by staff; by default
// 07:00–22:00) and an account's own sending hours, which narrow them. Every time is
// Tehran time. docs/sending-rules.md describes the rules.
package sendrules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	ptime "github.com/yaa110/go-persian-calendar"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// Day is the minutes of a day: the end of a window that lasts until midnight.
const Day = 24 * 60

// Window is a daily span of Tehran time, [From, To) in minutes since midnight;
// From < To, so a window never crosses midnight.
type Window struct {
	From int
	To   int
}

// AllDay is the window of lines that may always send.
var AllDay = Window{From: 0, To: Day}

// Empty reports whether the window holds no minute.
func (w Window) Empty() bool { return w.From >= w.To }

// IsAllDay reports whether the window holds every minute.
func (w Window) IsAllDay() bool { return w.From <= 0 && w.To >= Day }

// Intersect returns the minutes both windows hold (possibly Empty).
func (w Window) Intersect(o Window) Window {
	return Window{From: max(w.From, o.From), To: min(w.To, o.To)}
}

// minuteOf is t's minute of the Tehran day.
func minuteOf(t time.Time) int {
	lt := t.In(persian.Tehran)
	return lt.Hour()*60 + lt.Minute()
}

// dayAt is the instant of minute m on t's Tehran day plus days.
func dayAt(t time.Time, days, m int) time.Time {
	lt := t.In(persian.Tehran)
	return time.Date(lt.Year(), lt.Month(), lt.Day()+days, m/60, m%60, 0, 0, persian.Tehran)
}

// Contains reports whether t falls inside the window.
func (w Window) Contains(t time.Time) bool {
	m := minuteOf(t)
	return m >= w.From && m < w.To
}

// Next returns t when the window holds it, otherwise the window's next opening
// (the zero time when the window is Empty).
func (w Window) Next(t time.Time) time.Time {
	switch {
	case w.Empty():
		return time.Time{}
	case w.Contains(t):
		return t
	case minuteOf(t) < w.From:
		return dayAt(t, 0, w.From)
	default:
		return dayAt(t, 1, w.From)
	}
}

// String is the window as «07:00–22:00» (Latin digits).
func (w Window) String() string { return Clock(w.From) + "–" + Clock(w.To) }

// Persian is the window as «۰۷:۰۰ تا ۲۲:۰۰».
func (w Window) Persian() string {
	return persian.Digits(Clock(w.From)) + " تا " + persian.Digits(Clock(w.To))
}

// Clock formats minutes since midnight as HH:MM (24:00 for the end of the day).
func Clock(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

// ParseClock reads HH:MM (Persian or Latin digits; 24:00 allowed) as minutes since
// midnight.
func ParseClock(s string) (int, bool) {
	h, m, ok := strings.Cut(strings.TrimSpace(validate.ToLatinDigits(s)), ":")
	if !ok || len(m) != 2 || len(h) == 0 || len(h) > 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh > 24 || (hh == 24 && mm != 0) {
		return 0, false
	}
	return hh*60 + mm, true
}

// Hours is a window as the API reads and writes it: {"from": "07:00", "to": "22:00"}.
type Hours struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// HoursOf returns w as Hours.
func HoursOf(w Window) Hours { return Hours{From: Clock(w.From), To: Clock(w.To)} }

// Window parses the hours; ok is false unless both are HH:MM and from is before to.
func (h Hours) Window() (Window, bool) {
	f, ok1 := ParseClock(h.From)
	t, ok2 := ParseClock(h.To)
	w := Window{From: f, To: t}
	return w, ok1 && ok2 && f < Day && !w.Empty()
}

// PersianTime writes t in Tehran as «۱۱ آذر ۱۴۰۵، ساعت ۰۷:۰۰».
func PersianTime(t time.Time) string {
	p := ptime.New(t.In(persian.Tehran))
	return persian.Digits(fmt.Sprintf("%d %s %d، ساعت %02d:%02d", p.Day(), p.Month().String(), p.Year(), p.Hour(), p.Minute()))
}

// Finish is when work of d that may run only inside the window, begun at
// start, is done: the time outside the window does not count (a gradual send's
// expected end). An Empty window never finishes: the zero time.
func (w Window) Finish(start time.Time, d time.Duration) time.Time {
	if w.Empty() {
		return time.Time{}
	}
	t := start
	for d > 0 {
		if w.IsAllDay() {
			return t.Add(d)
		}
		t = w.Next(t)
		closes := dayAt(t, 0, w.To)
		span := min(d, closes.Sub(t))
		t, d = t.Add(span), d-span
	}
	return t
}

// Between is the time inside the window from start to end.
func (w Window) Between(start, end time.Time) time.Duration {
	if w.Empty() || !end.After(start) {
		return 0
	}
	if w.IsAllDay() {
		return end.Sub(start)
	}
	var in time.Duration
	for t := w.Next(start); t.Before(end); t = w.Next(t) {
		closes := dayAt(t, 0, w.To)
		if closes.After(end) {
			closes = end
		}
		in += closes.Sub(t)
		t = closes
	}
	return in
}
