package staff_test

import (
	"slices"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/validate"
)

// The staff list shows the staff users (never a customer), their status and last
// login; a new staff user needs a valid username, password and mobile (each field
// answered), is active with a mobile in any digits, has not logged in yet, cannot
// take a username twice, and is audited with the staff member who added them.
func TestStaffUsersAdded(t *testing.T) {
	r := newRig(t, "chief", "09120009901")
	ctx, svc, chief := r.ctx, r.svc, r.by
	newAccount(t, "florist")
	if _, err := shared.DB.Pool.Exec(ctx, `INSERT INTO sessions (user_id, account_id, token_hash, expires_at)
		SELECT id, account_id, $2, now() + interval '1 hour' FROM users WHERE id = $1`, chief.UserID, []byte("chief's login")); err != nil {
		t.Fatal(err)
	}
	users, total, err := svc.Users(ctx, validate.Paging{Page: 1, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range users {
		names = append(names, u.Username)
		if u.Username == "chief" && (u.Status != "active" || u.LastLogin == nil) {
			t.Fatalf("chief listed as %+v", u)
		}
	}
	if want := testenv.Column[string](t, shared.DB, `SELECT username FROM users WHERE is_staff ORDER BY id`); !slices.Equal(names, want) || total != int64(len(want)) || !slices.Contains(names, "chief") || slices.Contains(names, "florist") {
		t.Fatalf("staff list %q (total %d), want %q", names, total, want)
	}
	_, err = svc.CreateUser(ctx, chief, staff.UserInput{Username: "ab", Password: "short", Mobile: "123"}, "")
	refused(t, "a bad form", err, apperr.Invalid, "username", "password", "mobile")
	in := staff.UserInput{Username: "agent7", Name: "پشتیبان هفت", Password: "Secret@123", Mobile: "۰۹۱۲۰۰۰۹۹۱۲"}
	u, err := svc.CreateUser(ctx, chief, in, "")
	if err != nil || u.Username != "agent7" || u.Name != "پشتیبان هفت" || u.Mobile != "09120009912" || u.Status != "active" || u.LastLogin != nil {
		t.Fatalf("created %+v %v", u, err)
	}
	_, err = svc.CreateUser(ctx, chief, in, "")
	if e := refused(t, "a taken username", err, apperr.Invalid, "username"); e.Fields["username"][0] != staff.MsgUsernameTaken {
		t.Fatalf("duplicate: %v", e.Fields)
	}
	if n := userAudits(t, "staff.user_added", u.ID); n != 1 {
		t.Fatalf("%d staff.user_added entries", n)
	}
}

// Deactivating a staff user ends their sessions at once (Revoke); reactivating does
// not; only "active" and "disabled" are statuses, an unknown user is not found and no
// one deactivates themselves; both changes are audited.
func TestStaffUsersDeactivated(t *testing.T) {
	r := newRig(t, "chief2", "09120009902")
	ctx, svc, chief := r.ctx, r.svc, r.by
	agent := staffer(t, "agent8", "09120009913")

	_, err := svc.SetUserStatus(ctx, chief, agent.UserID, "suspended", "")
	refused(t, "an unknown status", err, apperr.Invalid, "status")
	_, err = svc.SetUserStatus(ctx, chief, 999_999_999, "disabled", "")
	refused(t, "an unknown user", err, apperr.NotFound)
	_, err = svc.SetUserStatus(ctx, chief, chief.UserID, "disabled", "")
	if e := refused(t, "deactivating oneself", err, apperr.Conflict); e.Message != staff.MsgSelf {
		t.Fatalf("self: %+v", e)
	}
	if len(r.revoked) != 0 {
		t.Fatalf("a refused change revoked %v", r.revoked)
	}
	if u, err := svc.SetUserStatus(ctx, chief, agent.UserID, "disabled", ""); err != nil || u.Status != "disabled" {
		t.Fatalf("after deactivate %+v %v", u, err)
	}
	if !slices.Equal(r.revoked, []int64{agent.UserID}) {
		t.Fatalf("revoked %v, want the agent's sessions", r.revoked)
	}
	if u, err := svc.SetUserStatus(ctx, chief, agent.UserID, "active", ""); err != nil || u.Status != "active" || len(r.revoked) != 1 {
		t.Fatalf("after reactivate %+v %v (revoked %v)", u, err, r.revoked)
	}
	if userAudits(t, "staff.user_disabled", agent.UserID) != 1 || userAudits(t, "staff.user_active", agent.UserID) != 1 {
		t.Fatal("status changes not audited")
	}
}
