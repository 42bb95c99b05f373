package persian

import (
	"testing"
	"time"

	ptime "github.com/yaa110/go-persian-calendar"

	"github.com/chapar/chapar/pkg/validate"
)

func TestJalaliDateTime(t *testing.T) {
	cases := map[string]string{
		"2025-03-20T20:30:00Z": "1404/01/01 00:00", // Nowruz 1404 at Tehran midnight
		"2026-11-25T09:00:00Z": "1405/09/04 12:30",
		"2024-03-19T12:00:00Z": "1402/12/29 15:30",
		"2025-09-22T10:00:00Z": "1404/06/31 13:30",
	}
	for in, want := range cases {
		tm, _ := time.Parse(time.RFC3339, in)
		if got := JalaliDateTime(tm); got != want {
			t.Errorf("JalaliDateTime(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestDigits: Latin digits become Persian ones, the rest stays.
func TestDigits(t *testing.T) {
	if got := Digits("ردیف 12، 3a"); got != "ردیف ۱۲، ۳a" {
		t.Fatalf("Digits = %q", got)
	}
	if got := validate.ToLatinDigits(Digits("0123456789")); got != "0123456789" {
		t.Fatalf("round trip = %q", got)
	}
}

// TestCalendarAgreesWithLibrary: the jdf arithmetic (here and in the SQL functions of
// migration 0170) gives the same Jalali day as go-persian-calendar for every day of
// 1900–2100, and ToGregorian takes each back to its Gregorian day.
func TestCalendarAgreesWithLibrary(t *testing.T) {
	for d := time.Date(1900, 1, 1, 12, 0, 0, 0, Tehran); d.Year() <= 2100; d = d.AddDate(0, 0, 1) {
		y, m, day := GregorianToJalali(d.Year(), int(d.Month()), d.Day())
		p := ptime.New(d)
		if y != p.Year() || m != int(p.Month()) || day != p.Day() {
			t.Fatalf("%s: %d/%d/%d, the library says %d/%d/%d", d.Format("2006-01-02"), y, m, day, p.Year(), p.Month(), p.Day())
		}
		back := ToGregorian(y, m, day)
		if back.Year() != d.Year() || back.Month() != d.Month() || back.Day() != d.Day() {
			t.Fatalf("%d/%d/%d back to %s, want %s", y, m, day, back.Format("2006-01-02"), d.Format("2006-01-02"))
		}
	}
}
