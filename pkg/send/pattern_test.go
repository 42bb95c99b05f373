package send

import "testing"

func TestIsCritical(t *testing.T) {
	for typ, want := range map[string]bool{TypeVerification: true, TypePatternOTP: true, TypePatternTransactional: true,
		TypePattern: false, TypeQuick: false, TypeFile: false} {
		if IsCritical(typ) != want {
			t.Errorf("IsCritical(%q) = %v", typ, !want)
		}
	}
}
