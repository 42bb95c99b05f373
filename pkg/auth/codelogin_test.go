package auth

import (
	"testing"

	"github.com/chapar/chapar/pkg/account"
)

// A code login's name is a username or a mobile in any writing: the mobile's
// international form is found whatever digits, prefix and spacing were typed.
func TestCodeName(t *testing.T) {
	for _, c := range []struct{ in, typed, mobile string }{
		{" Mina ", "mina", ""},
		{"09351234567", "09351234567", "989351234567"},
		{"۰۹۳۵۱۲۳۴۵۶۷", "09351234567", "989351234567"},
		{"+98 935 123 4567", "+98 935 123 4567", "989351234567"},
		{"٠٩٣٥١٢٣٤٥٦٧", "09351234567", "989351234567"},
		{"0935123456", "0935123456", ""}, // one digit short: a username
		{"", "", ""},
	} {
		typed, mobile := codeName(c.in)
		if typed != c.typed || mobile != c.mobile {
			t.Errorf("codeName(%q) = %q, %q; want %q, %q", c.in, typed, mobile, c.typed, c.mobile)
		}
	}
}

// Only a customer with a proven mobile, active and without two-step login, may log in
// with a code alone; a suspended owner may (the confirmation tells them).
func TestCodeLoginClosed(t *testing.T) {
	fit := account.User{ID: 1, Mobile: "989351234567", MobileVerified: true, Status: "active"}
	for _, c := range []struct {
		change func(*account.User)
		want   string
	}{
		{func(*account.User) {}, ""},
		{func(u *account.User) { u.Suspended = true }, ""},
		{func(u *account.User) { u.Status = "pending" }, ""},
		{func(u *account.User) { u.ID = 0 }, "unknown"},
		{func(u *account.User) { u.IsStaff = true }, "staff"},
		{func(u *account.User) { u.MobileVerified = false }, "unverified"},
		{func(u *account.User) { u.Status = "disabled" }, "disabled"},
		{func(u *account.User) { u.TwoStep = true }, "two-step"},
		{func(u *account.User) { u.TwoStep, u.TwoStepMethod = true, "app" }, "two-step"},
	} {
		u := fit
		c.change(&u)
		if got := codeLoginClosed(u); got != c.want {
			t.Errorf("%+v: %q, want %q", u, got, c.want)
		}
	}
}
