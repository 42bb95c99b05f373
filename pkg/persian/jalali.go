// Package persian holds the product's one Persian and Tehran-time helper: the Tehran
// zone, Persian digits, and the Jalali calendar (dates written as the panel and its
// downloads show them, and conversions both ways by the arithmetic of the jdf library,
// the same as the SQL functions of migration 0170).
package persian

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // Asia/Tehran without the host's zoneinfo
)

// Tehran is the wall clock of Jalali date-times, sending hours and schedules (the
// zone data is embedded, so a host without zone files reads it too).
var Tehran = mustZone("Asia/Tehran")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// Digits replaces Latin digits with Persian ones (۰-۹), for numbers inside Persian
// messages.
func Digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '۰' + r - '0'
		}
		return r
	}, s)
}

// JalaliDateTime writes t in Tehran as a Jalali "1404/09/04 13:05", the form
// of the date columns of the panel's Excel and CSV downloads.
func JalaliDateTime(t time.Time) string {
	t = t.In(Tehran)
	y, m, d := GregorianToJalali(t.Year(), int(t.Month()), t.Day())
	return fmt.Sprintf("%04d/%02d/%02d %02d:%02d", y, m, d, t.Hour(), t.Minute())
}

// GregorianToJalali converts a Gregorian date to the Jalali calendar (the
// arithmetic algorithm of jdf, valid for the years the panel shows).
func GregorianToJalali(gy, gm, gd int) (int, int, int) {
	gdm := [...]int{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
	gy2 := gy
	if gm > 2 {
		gy2 = gy + 1
	}
	days := 355666 + 365*gy + (gy2+3)/4 - (gy2+99)/100 + (gy2+399)/400 + gd + gdm[gm-1]
	jy := -1595 + 33*(days/12053)
	days %= 12053
	jy += 4 * (days / 1461)
	days %= 1461
	if days > 365 {
		jy += (days - 1) / 365
		days = (days - 1) % 365
	}
	if days < 186 {
		return jy, 1 + days/31, 1 + days%31
	}
	return jy, 7 + (days-186)/30, 1 + (days-186)%30
}

// JalaliDate writes a calendar day «YYYY-MM-DD» (Gregorian) as Jalali «1404/01/01»;
// ok is false when the text is not such a day.
func JalaliDate(day string) (string, bool) {
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		return "", false
	}
	y, m, d := GregorianToJalali(t.Year(), int(t.Month()), t.Day())
	return fmt.Sprintf("%04d/%02d/%02d", y, m, d), true
}

// ToGregorian is the arithmetic conversion of the jdf library (the 33-year
// cycle), exact for 1178–1633 AP.
func ToGregorian(jy, jm, jd int) time.Time {
	jy += 1595
	days := -355668 + 365*jy + (jy/33)*8 + ((jy%33)+3)/4 + jd
	if jm < 7 {
		days += (jm - 1) * 31
	} else {
		days += (jm-7)*30 + 186
	}
	gy := 400 * (days / 146097)
	days %= 146097
	if days > 36524 {
		days--
		gy += 100 * (days / 36524)
		days %= 36524
		if days >= 365 {
			days++
		}
	}
	gy += 4 * (days / 1461)
	days %= 1461
	if days > 365 {
		gy += (days - 1) / 365
		days = (days - 1) % 365
	}
	// days is now the day of the Gregorian year gy, from 0.
	return time.Date(gy, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
}
