package upload

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/validate"
)

func TestParseMobile(t *testing.T) {
	cases := []struct {
		in   string
		want string
		kind Kind
	}{
		{"09121234567", "989121234567", ""},
		{"989121234567", "989121234567", ""},
		{"+989121234567", "989121234567", ""},
		{"00989121234567", "989121234567", ""},
		// A numeric cell loses the leading 0.
		{"9121234567", "989121234567", ""},
		// Persian and Arabic-Indic digits, spaces, dashes, bidi marks.
		{"۰۹۱۲۱۲۳۴۵۶۷", "989121234567", ""},
		{"٠٩١٢١٢٣٤٥٦٧", "989121234567", ""},
		{"۹۸۹۱۲۱۲۳۴۵۶۷", "989121234567", ""},
		{" 0912 123 4567 ", "989121234567", ""},
		{"0912-123-4567", "989121234567", ""},
		{"\u200f09121234567\u200e", "989121234567", ""},
		// Float-looking numerics whose digits are all there.
		{"9121234567.0", "989121234567", ""},
		{"989121234567.00", "989121234567", ""},
		{"9.121234567E9", "989121234567", ""},
		{"9.121234567e+09", "989121234567", ""},
		{"9.89121234567E+11", "989121234567", ""},
		{"۹٫۱۲۱۲۳۴۵۶۷E9", "989121234567", ""},
		{"989,121,234,567", "989121234567", ""},
		{"9.8912123456700006E+11", "989121234567", ""}, // float noise
		{"9.8912123456699994E+11", "989121234567", ""},
		// Scientific notation that lost digits: never guessed.
		{"9.89121E+11", "", KindFormat},
		{"9.89E+11", "", KindFormat},
		{"9.12123456E9", "", KindFormat},
		{"9121234567.5", "", KindFormat},
		{"98,91,21,234,567", "", KindFormat},
		// Not mobiles.
		{"02112345678", "", KindFormat},
		{"912123456", "", KindFormat},
		{"091212345678", "", KindFormat},
		{"0912abc4567", "", KindFormat},
		{"", "", KindEmpty},
		{"   ", "", KindEmpty},
		{"\u200c", "", KindEmpty},
		{"علی", "", KindOther},
		{"#N/A", "", KindOther},
		{"-", "", KindOther},
	}
	for _, c := range cases {
		got, kind := ParseMobile(c.in)
		if got != c.want || kind != c.kind {
			t.Errorf("ParseMobile(%q) = %q, %q; want %q, %q", c.in, got, kind, c.want, c.kind)
		}
	}
}

func TestKindMessages(t *testing.T) {
	for k, want := range map[Kind]string{KindEmpty: "خانه خالی است", KindFormat: "قالب شماره اشتباه است", KindOther: "خطای دیگر"} {
		if got := k.Message(); got != want {
			t.Errorf("%s: %q", k, got)
		}
	}
}

// FuzzParseMobile checks the number parser on any cell: it never panics, a number
// it accepts is canonical and reads back as itself, whatever the validator accepts it
// accepts as the same number, and a kind is given exactly when no number is.
func FuzzParseMobile(f *testing.F) {
	for _, s := range []string{"09121234567", "9121234567", "989121234567", "9.89121E+11", "9.121234567E9",
		"9121234567.0", "۰۹۱۲۱۲۳۴۵۶۷", "989,121,234,567", "", "abc", "1e30", "9.8912123456700006E+11", ".e9",
		"0,001", "1.", "٫۵"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, kind := ParseMobile(s)
		if (m == "") == (kind == "") {
			t.Fatalf("ParseMobile(%q) = %q, %q", s, m, kind)
		}
		if m != "" {
			if len(m) != 12 || !strings.HasPrefix(m, "989") || strings.Trim(m, "0123456789") != "" {
				t.Fatalf("ParseMobile(%q) = %q: not canonical", s, m)
			}
			if again, k := ParseMobile(m); again != m || k != "" {
				t.Fatalf("ParseMobile(%q) = %q, %q", m, again, k)
			}
		}
		if v, ok := validate.NormalizeMobile(s); ok && v != m {
			t.Fatalf("ParseMobile(%q) = %q, the validator says %q", s, m, v)
		}
		if strings.TrimFunc(s, isBlank) == "" && kind != KindEmpty {
			t.Fatalf("blank %q: kind %q", s, kind)
		}
		if utf8.ValidString(s) && kind == KindOther && strings.IndexFunc(s, isDigit) >= 0 {
			t.Fatalf("%q has digits but kind other", s)
		}
	})
}
