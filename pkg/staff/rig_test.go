package staff_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/staff"
)

// staffer adds a staff user and returns them as the identity of their session.
func staffer(t *testing.T, username, mobile string) acl.Identity {
	t.Helper()
	id, err := staff.AddUser(context.Background(), shared.DB.Pool, staff.NewUser{Username: username, Password: "Secret@123",
		Name: "پشتیبان " + username, Mobile: mobile})
	if err != nil {
		t.Fatalf("add staff user %s: %v", username, err)
	}
	return acl.Identity{UserID: id, Username: username, Staff: true}
}

// rig is the service as the API wires it, with a Revoke that records whose
// sessions it closes, and a staff member who acts.
type rig struct {
	ctx     context.Context
	svc     *staff.Service
	by      acl.Identity
	revoked []int64
}

// newRig adds the staff member who acts.
func newRig(t *testing.T, username, mobile string) *rig {
	t.Helper()
	r := &rig{ctx: context.Background(), svc: staff.New(shared.DB.Pool), by: staffer(t, username, mobile)}
	r.svc.Revoke = func(_ context.Context, id int64) error { r.revoked = append(r.revoked, id); return nil }
	return r
}

// count is the number a query of the package's database answers.
func count(t *testing.T, sql string, args ...any) int64 {
	t.Helper()
	return testenv.Scalar[int64](t, shared.DB, sql, args...)
}

// userAudits counts the audit entries of an action on a staff user that name the
// staff member who took it.
func userAudits(t *testing.T, action string, userID int64) int64 {
	t.Helper()
	return count(t, `SELECT count(*) FROM audit_log WHERE action = $1 AND target_type = 'staff_user'
		AND target = $2 AND details->>'staff' <> ''`, action, strconv.FormatInt(userID, 10))
}

// refused fails unless err is an apperr of kind, with a message for each field named.
func refused(t *testing.T, what string, err error, kind apperr.Kind, fields ...string) *apperr.Error {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != kind {
		t.Fatalf("%s: %v, want kind %v", what, err, kind)
	}
	for _, f := range fields {
		if len(e.Fields[f]) == 0 {
			t.Fatalf("%s: no message for %s in %v", what, f, e.Fields)
		}
	}
	return e
}

// shared is the package's one migrated database (TestMain).
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, false, &shared) }
