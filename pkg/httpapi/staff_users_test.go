package httpapi_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/staff"
)

// Staff list and add staff users (with an initial password; the first login proves
// the mobile with the texted code); bad forms answer every field; customers get 404.
func TestStaffUsersAdded(t *testing.T) {
	e := apitest.Start(t, nil)
	chief := addStaff(t, e, "chief")
	e.Register("florist", pw, "09121239011")
	ctok := e.Login("florist", pw)

	var users []staff.User
	e.Must(200, "GET", "/v1/api/admin/staff", nil, chief).Decode(t, &users)
	if len(users) != 1 || users[0].Username != "chief" || users[0].Status != "active" || users[0].LastLogin == nil {
		t.Fatalf("staff list: %+v", users)
	}
	e.Must(404, "GET", "/v1/api/admin/staff", nil, ctok)
	e.Must(404, "POST", "/v1/api/admin/staff", map[string]any{"username": "x1234", "password": "Secret@123", "mobile": "09120009912"}, ctok)
	r := e.Do("POST", "/v1/api/admin/staff", map[string]any{"username": "ab", "password": "short", "mobile": "123"}, chief)
	if r.Status != 422 || len(r.Meta.Errors["username"]) == 0 || len(r.Meta.Errors["password"]) == 0 || len(r.Meta.Errors["mobile"]) == 0 {
		t.Fatalf("bad form: %d %+v", r.Status, r.Meta)
	}
	var u staff.User
	in := map[string]any{"username": "agent7", "name": "پشتیبان هفت", "password": "Secret@123", "mobile": "۰۹۱۲۰۰۰۹۹۱۲"}
	e.Must(201, "POST", "/v1/api/admin/staff", in, chief).Decode(t, &u)
	if u.Username != "agent7" || u.Mobile != "09120009912" || u.Status != "active" || u.LastLogin != nil {
		t.Fatalf("created %+v", u)
	}
	if r := e.Do("POST", "/v1/api/admin/staff", in, chief); r.Status != 422 || r.Meta.Errors["username"][0] != staff.MsgUsernameTaken {
		t.Fatalf("duplicate: %d %+v", r.Status, r.Meta)
	}
	tok := e.StaffLogin("agent7", "Secret@123", "09120009912")
	e.Must(200, "GET", "/v1/api/admin/me", nil, tok)
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "agent7", "password": "Secret@123"}, "")
	if n := staffAudits(t, e, "staff.user_added", u.ID); n != 1 {
		t.Fatalf("%d staff.user_added entries", n)
	}
}

// Deactivating a staff user ends their sessions at once and refuses their login;
// reactivating lets them in again; no one deactivates themselves; both audited.
func TestStaffUsersDeactivated(t *testing.T) {
	e := apitest.Start(t, nil)
	chief := addStaff(t, e, "chief2")
	var u staff.User
	e.Must(201, "POST", "/v1/api/admin/staff", map[string]any{"username": "agent8", "password": "Secret@123", "mobile": "09120009913"}, chief).Decode(t, &u)
	tok := e.StaffLogin("agent8", "Secret@123", "09120009913")
	id := strconv.FormatInt(u.ID, 10)

	e.Must(422, "POST", "/v1/api/admin/staff/"+id+"/status", map[string]any{"status": "suspended"}, chief)
	e.Must(404, "POST", "/v1/api/admin/staff/999999/status", map[string]any{"status": "disabled"}, chief)
	var me staff.User
	e.Must(200, "GET", "/v1/api/admin/me", nil, chief).Decode(t, &me)
	if r := e.Do("POST", "/v1/api/admin/staff/"+strconv.FormatInt(me.ID, 10)+"/status", map[string]any{"status": "disabled"}, chief); r.Status != 409 || r.Meta.Message != staff.MsgSelf {
		t.Fatalf("self: %d %+v", r.Status, r.Meta)
	}
	e.Must(200, "POST", "/v1/api/admin/staff/"+id+"/status", map[string]any{"status": "disabled"}, chief).Decode(t, &u)
	if u.Status != "disabled" {
		t.Fatalf("after deactivate %+v", u)
	}
	e.Must(404, "GET", "/v1/api/admin/me", nil, tok) // the open session is gone
	e.Must(403, "POST", "/v1/api/admin/auth/login", map[string]string{"username": "agent8", "password": "Secret@123"}, "")

	e.Must(200, "POST", "/v1/api/admin/staff/"+id+"/status", map[string]any{"status": "active"}, chief)
	tok = e.StaffLogin("agent8", "Secret@123", "09120009913")
	e.Must(200, "GET", "/v1/api/admin/me", nil, tok)
	if staffAudits(t, e, "staff.user_disabled", u.ID) != 1 || staffAudits(t, e, "staff.user_active", u.ID) != 1 {
		t.Fatal("status changes not audited")
	}
}

// staffAudits counts the audit entries of an action on a staff user.
func staffAudits(t *testing.T, e *apitest.Env, action string, userID int64) int {
	t.Helper()
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = $1 AND target_type = 'staff_user'
		AND target = $2 AND details->>'staff' <> ''`, action, strconv.FormatInt(userID, 10)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
