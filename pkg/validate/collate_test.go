package validate

import "testing"

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
