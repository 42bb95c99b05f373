package validate

import (
	"testing"
	"time"
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

func TestSortPersian(t *testing.T) {
	names := []string{"هرمزگان", "یزد", "کرمان", "چهارمحال و بختیاری", "گیلان", "البرز", "زنجان", "ایلام", "کهگیلویه و بویراحمد"}
	SortPersian(names, func(s string) string { return s })
	want := []string{"البرز", "ایلام", "چهارمحال و بختیاری", "زنجان", "کرمان", "کهگیلویه و بویراحمد", "گیلان", "هرمزگان", "یزد"}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("sorted %v, want %v", names, want)
		}
	}
}
