package account_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth/password"
)

const pw = "Chapar@2024x"

// form is a valid registration form.
func form(username, mobile string) account.RegisterInput {
	return account.RegisterInput{Name: "فروشگاه " + username, Username: username, Mobile: mobile, Password: pw,
		PasswordConfirmation: pw, AcceptRules: true}
}

// Registration checks every field at once; a valid form makes an account and its
// owner, with two-step login on, the mobile in international form and not yet
// proven, and the password hashed.
func TestRegisterChecksAndCreatesOwner(t *testing.T) {
	ctx, svc := context.Background(), account.New(shared.DB.Pool)
	bad := account.RegisterInput{Name: " ", Username: "a", Mobile: "0912", Password: "short", PasswordConfirmation: "other"}
	_, err := svc.Register(ctx, bad, "10.0.0.1")
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid {
		t.Fatalf("an invalid form: %v", err)
	}
	for _, field := range []string{"name", "username", "mobile", "password"} {
		if len(e.Fields[field]) == 0 {
			t.Errorf("no message for %s in %v", field, e.Fields)
		}
	}
	u, err := svc.Register(ctx, form("regowner", "09121231001"), "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.ByUsername(ctx, "RegOwner")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != u.ID || got.AccountID == 0 || !got.IsOwner || !got.TwoStep || got.TwoStepMethod != "sms" ||
		got.Mobile != "989121231001" || got.MobileVerified || got.Status != "active" {
		t.Fatalf("owner %+v", got)
	}
	if ok, err := password.Verify(got.PasswordHash, pw); !ok || err != nil {
		t.Fatalf("the stored password does not verify: %v", err)
	}
	if _, err := svc.ByID(ctx, u.ID+1_000_000); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("an unknown user: %v", err)
	}
}

// A username is taken case-insensitively (409), except from a sign-up that never
// proved its mobile within PendingRegistrationTTL: registering it again takes the
// username over, in the same account.
func TestRegisterUsernameTakenOrTakenOver(t *testing.T) {
	ctx, svc := context.Background(), account.New(shared.DB.Pool)
	proven := form("regtaken", "09121231002")
	proven.MobileVerified = true
	if _, err := svc.Register(ctx, proven, ""); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Register(ctx, form("RegTaken", "09121231003"), "")
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Conflict || len(e.Fields["username"]) == 0 {
		t.Fatalf("a taken username: %v", err)
	}
	if ok, err := svc.UsernameExists(ctx, " REGTAKEN "); err != nil || !ok {
		t.Fatalf("exists: %v %v", ok, err)
	}
	first, err := svc.Register(ctx, form("regstale", "09121231004"), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Register(ctx, form("regstale", "09121231005"), ""); err == nil {
		t.Fatal("a fresh unproven sign-up was taken over")
	}
	if _, err := shared.DB.Pool.Exec(ctx, `UPDATE users SET created_at = now() - interval '31 minutes' WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	again, err := svc.Register(ctx, form("regstale", "09121231005"), "")
	if err != nil || again.ID != first.ID || again.AccountID != first.AccountID {
		t.Fatalf("take over: %+v %v (first %+v)", again, err, first)
	}
	if got, _ := svc.ByUsername(ctx, "regstale"); got.Mobile != "989121231005" {
		t.Fatalf("the taken-over user keeps mobile %s", got.Mobile)
	}
}

// A proven mobile finds at most two customer users: never an unproven sign-up, a
// staff user or a deactivated colleague.
func TestByVerifiedMobile(t *testing.T) {
	ctx, svc := context.Background(), account.New(shared.DB.Pool)
	const mobile = "09121231010"
	ids := map[string]int64{}
	for _, name := range []string{"mobunproven", "mobstaff", "mobdisabled", "mobfirst", "mobsecond", "mobthird"} {
		f := form(name, mobile)
		f.MobileVerified = name != "mobunproven"
		u, err := svc.Register(ctx, f, "")
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = u.ID
	}
	if _, err := shared.DB.Pool.Exec(ctx, `UPDATE users SET is_staff = (id = $1), status = CASE WHEN id = $2 THEN 'disabled' ELSE status END
		WHERE id IN ($1, $2)`, ids["mobstaff"], ids["mobdisabled"]); err != nil {
		t.Fatal(err)
	}
	users, err := svc.ByVerifiedMobile(ctx, "989121231010")
	if err != nil || len(users) != 2 || users[0].ID != ids["mobfirst"] || users[1].ID != ids["mobsecond"] {
		t.Fatalf("users %+v %v, want mobfirst and mobsecond", users, err)
	}
}

// shared is the package's one migrated database (TestMain); tests use usernames and
// mobiles of their own.
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, false, &shared) }
