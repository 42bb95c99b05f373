package offline

import "testing"

func TestNormalizeCard(t *testing.T) {
	for in, want := range map[string]bool{
		"6037991234567893":    true,
		"۶۰۳۷-۹۹۱۲-۳۴۵۶-۷۸۹۳": true,
		"6037 9912 3456 7893": true,
		"6037991234567894":    false, // checksum
		"603799123456789":     false, // 15 digits
		"60379912345678930":   false,
		"603799123456789a":    false,
	} {
		if _, ok := NormalizeCard(in); ok != want {
			t.Errorf("card %q: %v, want %v", in, ok, want)
		}
	}
}

func TestNormalizeIBAN(t *testing.T) {
	for in, want := range map[string]bool{
		"IR050170000000123456789012":       true,
		"ir05 0170 0000 0012 3456 7890 12": true,
		"۰۵۰۱۷۰۰۰۰۰۰۰۱۲۳۴۵۶۷۸۹۰۱۲":         true,
		"IR060170000000123456789012":       false, // check digits
		"IR050170000000123456789013":       false,
		"IR05017000000012345678901":        false, // 23 digits
		"DE050170000000123456789012":       false,
		"IR05A170000000123456789012":       false,
	} {
		if _, ok := NormalizeIBAN(in); ok != want {
			t.Errorf("iban %q: %v, want %v", in, ok, want)
		}
	}
}
