package upload

import "testing"

// A number in a block no operator was allocated is a row format error in every
// pre-flight, however it is written; allocated blocks the first prefix table missed
// (0923, 0932, 0992–0994, 0996, 0999…) are valid.
func TestParseMobileUnallocated(t *testing.T) {
	for _, cell := range []string{"09401234567", "9501234567", "۰۹۹۷۱۲۳۴۵۶۷", "+98 906 123 4567"} {
		if m, k := ParseMobile(cell); k != KindFormat {
			t.Errorf("%q: %q %q, want a format error", cell, m, k)
		}
	}
	for cell, want := range map[string]string{"09231234567": "989231234567", "9321234567": "989321234567",
		"09961234567": "989961234567", "09991012345": "989991012345"} {
		if m, k := ParseMobile(cell); m != want || k != "" {
			t.Errorf("%q: %q %q, want %s", cell, m, k, want)
		}
	}
}
