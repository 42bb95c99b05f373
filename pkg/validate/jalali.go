package validate

import (
	"fmt"
	"time"
	_ "time/tzdata" // Asia/Tehran without the host's zoneinfo
)

// tehran is the wall clock of Jalali date-times.
var tehran, _ = time.LoadLocation("Asia/Tehran")

// JalaliDateTime writes t in Tehran as a Jalali "1404/09/04 13:05", the form
// of the date columns of the panel's Excel and CSV downloads.
func JalaliDateTime(t time.Time) string {
	t = t.In(tehran)
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
