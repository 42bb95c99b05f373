package phonebook

import (
	"strconv"
	"strings"
	"time"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// dateLayout is the API's date format.
const dateLayout = "2006-01-02"

// formatDate writes a date as YYYY-MM-DD.
func formatDate(t time.Time) string { return t.Format(dateLayout) }

// parseAPIDate reads a Gregorian YYYY-MM-DD (Persian digits accepted).
func parseAPIDate(s string) (time.Time, bool) {
	t, err := time.Parse(dateLayout, validate.NormalizeDigits(s))
	return t, err == nil
}

// parseFileDate reads a date as people write it in a spreadsheet: Gregorian or
// Jalali year-month-day with - or / (a year below 1700 is Jalali: 1370/05/12), the
// same without separators (13700512), or an Excel date serial (33453), which is how a
// date cell reads raw.
func parseFileDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(validate.ToLatinDigits(s))
	if whole, frac, ok := strings.Cut(s, "."); ok && allDigits(frac) {
		s = whole // an Excel date-time serial: the day is enough
	}
	if allDigits(s) {
		switch {
		case len(s) == 8:
			return ymd(atoi(s[:4]), atoi(s[4:6]), atoi(s[6:]))
		case len(s) >= 1 && len(s) <= 6:
			n := atoi(s)
			if n < 1 {
				return time.Time{}, false
			}
			return time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n), true
		}
		return time.Time{}, false
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '/' })
	if len(parts) != 3 || len(parts[0]) != 4 || !allDigits(parts[0]+parts[1]+parts[2]) ||
		len(parts[1]) > 2 || len(parts[2]) > 2 {
		return time.Time{}, false
	}
	return ymd(atoi(parts[0]), atoi(parts[1]), atoi(parts[2]))
}

// ymd builds a Gregorian date (year from 1700) or converts a Jalali one (1200–1699).
func ymd(y, m, d int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	switch {
	case y >= 1700:
		t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
		return t, t.Day() == d
	case y >= 1200:
		return jalali(y, m, d)
	}
	return time.Time{}, false
}

// jalali converts a Jalali date to Gregorian, rejecting days the month lacks.
func jalali(jy, jm, jd int) (time.Time, bool) {
	switch {
	case jm <= 6 && jd > 31, jm > 6 && jd > 30:
		return time.Time{}, false
	case jm == 12 && jd == 30 && persian.ToGregorian(jy, 12, 30).Equal(persian.ToGregorian(jy+1, 1, 1)):
		return time.Time{}, false // Esfand 30 of a common year
	}
	return persian.ToGregorian(jy, jm, jd), true
}

// birthDate checks a birth date: from 1900 and not in the future (Tehran).
func birthDate(s string, lenient bool, now time.Time) (time.Time, bool) {
	parse := parseAPIDate
	if lenient {
		parse = parseFileDate
	}
	d, ok := parse(s)
	if !ok || d.Year() < 1900 {
		return time.Time{}, false
	}
	today := now.In(tehran)
	if d.After(time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)) {
		return time.Time{}, false
	}
	return d, true
}

// parseDayBound reads a created_from/created_to bound: a date (a day in Tehran; as
// the upper bound, through the end of that day) or an RFC 3339 time. Empty is zero.
func parseDayBound(s string, end bool) (time.Time, bool) {
	s = validate.NormalizeDigits(s)
	if s == "" {
		return time.Time{}, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	d, err := time.ParseInLocation(dateLayout, strings.ReplaceAll(s, "/", "-"), tehran)
	if err != nil {
		return time.Time{}, false
	}
	if end {
		d = d.AddDate(0, 0, 1)
	}
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
