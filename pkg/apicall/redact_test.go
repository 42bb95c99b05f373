package apicall

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		`{"username":"ali","password":"hunter2"}`:            `{"username":"ali","password":"***"}`,
		`{"otp_token": "abc", "n": 1}`:                       `{"otp_token": "***", "n": 1}`,
		`{"new_password":"a\"b","text":"سلام"}`:              `{"new_password":"***","text":"سلام"}`,
		`{"Authorization":"Bearer x"}`:                       `{"Authorization":"***"}`,
		`{"secret":12345}`:                                   `{"secret":"***"}`,
		`apikey=chp_live_abc_def&page=2`:                     `apikey=***&page=2`,
		`page=1&access_token=zzz`:                            `page=1&access_token=***`,
		`{"note":"key chp_live_ab12_cd34 in text"}`:          `{"note":"key chp_live_*** in text"}`,
		`{"message_code":"403-8","message":"دسترسی ندارید"}`: `{"message_code":"403-8","message":"دسترسی ندارید"}`,
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("س", MaxBody) // two bytes each
	got := Truncate([]byte(long))
	if len(got) > MaxBody+len("…") || !strings.HasSuffix(got, "…") || strings.ContainsRune(got, '\uFFFD') {
		t.Fatalf("truncated to %d bytes", len(got))
	}
	if Truncate([]byte("کوتاه")) != "کوتاه" {
		t.Fatal("short body changed")
	}
}

// mayHoldSecret finds the hints in any ASCII case, in Persian text too, and misses
// nothing strings.ToLower found (the Kelvin sign included).
func TestMayHoldSecret(t *testing.T) {
	for in, want := range map[string]bool{
		`{"data":{"credit":500000},"meta":{"message":"عملیات با موفقیت انجام شد"}}`: false,
		`{"PassWord":"x"}`:              true,
		`سلام OTP_token`:                true,
		`{"x":"chp_live_abc"}`:          true,
		`WHSEC_zz`:                      true,
		`{"api` + "\u212a" + `ey":"v"}`: true,
		`pas`:                           false,
		`{"total":3,"sent":2}`:          false,
	} {
		if got := mayHoldSecret(in); got != want {
			t.Errorf("mayHoldSecret(%q) = %v, want %v", in, got, want)
		}
		if oldMayHold(in) && !mayHoldSecret(in) {
			t.Errorf("%q: strings.ToLower found a hint, the scan did not", in)
		}
	}
}

func oldMayHold(s string) bool {
	lower := strings.ToLower(s)
	for _, h := range secretHints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}
