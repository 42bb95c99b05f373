package inbox

import "testing"

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  سلام  ", "سلام"},
		{"علي", "علی"},               // Arabic yeh
		{"كتاب", "کتاب"},             // Arabic kaf
		{"مي\u200cخواهم", "میخواهم"}, // ZWNJ
		{"میخواهم", "میخواهم"},       // already without
		{"۱۲۳", "123"},               // Persian digits
		{"١٢٣", "123"},               // Arabic-Indic digits
		{"123", "123"},               // Latin digits
		{"مسابقه\t ۲", "مسابقه 2"},   // spaces collapsed
		{"YES", "yes"},               // Latin case
		{"\u200fنظر\u200e", "نظر"},   // bidi marks
		{"مـــسابقه", "مسابقه"},      // tatweel
		{"کِتاب", "کتاب"},            // diacritics
		{"هدية", "هدیه"},             // teh marbuta, Arabic yeh
		{"", ""},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
