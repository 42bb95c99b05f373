package validate

import (
	"errors"
	"strings"
	"testing"
)

func TestToLatinDigits(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"0123456789", "0123456789"},
		{"۰۱۲۳۴۵۶۷۸۹", "0123456789"},
		{"٠١٢٣٤٥٦٧٨٩", "0123456789"},
		{"۰۹۱۲٣٤٥abc-۶۷۸۹", "0912345abc-6789"},
		{"کد ۱۲ و ١٣", "کد 12 و 13"},
		{"no digits", "no digits"},
		{"۹", "9"},
	}
	for _, tt := range tests {
		if got := ToLatinDigits(tt.in); got != tt.want {
			t.Errorf("ToLatinDigits(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeDigits(t *testing.T) {
	if got := NormalizeDigits("  ۰۴۹۹۳۷۰۸۹۹\t"); got != "0499370899" {
		t.Errorf("NormalizeDigits = %q", got)
	}
}

func TestNormalizeMobile(t *testing.T) {
	const want = "989121234567"
	valid := []string{
		// every prefix
		"09121234567",
		"989121234567",
		"+989121234567",
		"00989121234567",
		"9121234567", // spreadsheet numeric cell
		// Persian and Arabic digits, also mixed
		"۰۹۱۲۱۲۳۴۵۶۷",
		"٠٩١٢١٢٣٤٥٦٧",
		"+۹۸۹۱۲۱۲۳۴۵۶۷",
		"۰۰۹۸۹۱۲۱۲۳۴۵۶۷",
		"۹۱۲١٢٣4567",
		// separators and whitespace
		"  09121234567  ",
		"\t0912 123 4567\n",
		"0912-123-4567",
		"(0912) 123-4567",
		"+98 (912) 123 45 67",
		"+98-912-123-4567",
		"0098 912 123 4567",
		"98 912 1234567",
		"\u200f۰۹۱۲۱۲۳۴۵۶۷\u200e", // bidi marks copied with Persian text
		"\ufeff09121234567",       // byte-order mark from a CSV export
		"0912\u00a0123\u00a04567", // no-break spaces
		"+ 989121234567",
	}
	for _, in := range valid {
		got, ok := NormalizeMobile(in)
		if !ok || got != want {
			t.Errorf("NormalizeMobile(%q) = %q, %v; want %q, true", in, got, ok, want)
		}
		if err := Mobile(in); err != nil {
			t.Errorf("Mobile(%q) = %v", in, err)
		}
	}

	other := []struct{ in, want string }{
		{"09901234567", "989901234567"}, // 099x lines
		{"09300000000", "989300000000"},
		{"9999999999", "989999999999"},
		{"+989000000000", "989000000000"},
	}
	for _, tt := range other {
		if got, ok := NormalizeMobile(tt.in); !ok || got != tt.want {
			t.Errorf("NormalizeMobile(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}

	invalid := []string{
		"",
		"   ",
		"0",
		"09",
		"0912123456",      // 10 digits with 0: one short
		"091212345678",    // 12 digits with 0: one long
		"912123456",       // bare, one short
		"91212345678",     // bare, one long
		"98912123456",     // 98, one short
		"9891212345678",   // 98, one long
		"+98912123456",    // +98, one short
		"+9891212345678",  // +98, one long
		"0098912123456",   // 0098, one short
		"009891212345678", // 0098, one long
		"02112345678",     // Tehran landline
		"982112345678",    // landline with country code
		"2112345678",      // landline, bare
		"08121234567",     // 0 then 8
		"8121234567",      // bare not starting with 9
		"+09121234567",    // + without 98
		"+0989121234567",
		"++989121234567",
		"98+9121234567",
		"0912123456a",
		"O9121234567", // letter O
		"0912.123.4567",
		"9.89121E+11",
		"9.89121234567E+11",
		"989121234567.0",
		"09121234567,",
		"0912_123_4567",
		"098 9121234567",     // 0 + 98 is not a prefix
		"9809121234567",      // 98 + 0 is not a prefix
		"+1 9121234567",      // other country
		"0989121234567",      // 0 then 98
		"0000989121234567",   // too many zeros
		"۰۹۱۲۱۲۳۴۵۶",         // Persian, one short
		"٠٩١٢١٢٣٤٥٦٧٨",       // Arabic, one long
		"0912123456７",        // full-width digit
		"09121234567 ext 12", // trailing text
		// blocks no operator was allocated: no handset can have them
		"09401234567", "09501234567", "09971234567", "+989061234567", "9241234567", "09950000000",
	}
	for _, in := range invalid {
		if got, ok := NormalizeMobile(in); ok {
			t.Errorf("NormalizeMobile(%q) = %q, true; want rejection", in, got)
		}
		err := Mobile(in)
		var ve *Error
		if !errors.As(err, &ve) || ve.Message != MsgMobile || ve.Field != FieldMobile {
			t.Errorf("Mobile(%q) = %v; want %q", in, err, MsgMobile)
		}
	}
}

func FuzzNormalizeMobile(f *testing.F) {
	for _, s := range []string{
		"09121234567", "+989121234567", "00989121234567", "9121234567",
		"۰۹۱۲۱۲۳۴۵۶۷", "٠٩١٢١٢٣٤٥٦٧", "(0912) 123-4567", "9.89121E+11",
		"02112345678", "", "+", "\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := NormalizeMobile(s)
		if !ok {
			if got != "" {
				t.Fatalf("NormalizeMobile(%q) = %q, false; want empty", s, got)
			}
			return
		}
		if len(got) != 12 || !strings.HasPrefix(got, "989") || strings.Trim(got, "0123456789") != "" {
			t.Fatalf("NormalizeMobile(%q) = %q: not 989 and nine digits", s, got)
		}
		// The canonical form is a fixed point.
		if again, ok := NormalizeMobile(got); !ok || again != got {
			t.Fatalf("NormalizeMobile(%q) = %q, %v; want it unchanged", got, again, ok)
		}
		// The last nine digits of the input survive unchanged.
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, ToLatinDigits(s))
		if !strings.HasSuffix(digits, got[3:]) {
			t.Fatalf("NormalizeMobile(%q) = %q does not end with the input's digits %q", s, got, digits)
		}
	})
}
