package httpapi_test

import (
	"strconv"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/staff"
)

// The staff-user routes (the rules are pkg/staff's tests): staff list (200) and add
// (201) staff users, a bad form answers 422 with every field and a taken username 422;
// customers get 404; an added user logs in at the staff door only, with the texted
// code. Status changes answer a bad status 422, an unknown user 404 and oneself 409;
// deactivating ends the user's open session at once and refuses their login (403)
// until they are reactivated.
func TestStaffUsers(t *testing.T) {
	e := apitest.Start(t, nil)
	chief := addStaff(t, e, "chief")
	e.Register("florist", pw, "09121239011")
	ctok := e.Login("florist", pw)

	var users []staff.User
	e.Must(200, "GET", "/v1/api/admin/staff", nil, chief).Decode(t, &users)
	if len(users) != 1 || users[0].Username != "chief" {
		t.Fatalf("staff list: %+v", users)
	}
	e.Must(404, "GET", "/v1/api/admin/staff", nil, ctok)
	e.Must(404, "POST", "/v1/api/admin/staff", map[string]any{"username": "x1234", "password": "Secret@123", "mobile": "09120009912"}, ctok)
	r := e.Do("POST", "/v1/api/admin/staff", map[string]any{"username": "ab", "password": "short", "mobile": "123"}, chief)
	if r.Status != 422 || len(r.Meta.Errors["username"]) == 0 || len(r.Meta.Errors["password"]) == 0 || len(r.Meta.Errors["mobile"]) == 0 {
		t.Fatalf("bad form: %d %+v", r.Status, r.Meta)
	}
	var u staff.User
	in := map[string]any{"username": "agent7", "name": "پشتیبان هفت", "password": "Secret@123", "mobile": "09120009912"}
	e.Must(201, "POST", "/v1/api/admin/staff", in, chief).Decode(t, &u)
	if u.Username != "agent7" || u.Mobile != "09120009912" {
		t.Fatalf("created %+v", u)
	}
	if r := e.Do("POST", "/v1/api/admin/staff", in, chief); r.Status != 422 || r.Meta.Errors["username"][0] != staff.MsgUsernameTaken {
		t.Fatalf("duplicate: %d %+v", r.Status, r.Meta)
	}
	tok := e.StaffLogin("agent7", "Secret@123", "09120009912")
	e.Must(200, "GET", "/v1/api/admin/me", nil, tok)
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "agent7", "password": "Secret@123"}, "")

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
	e.Must(403, "POST", "/v1/api/admin/auth/login", map[string]string{"username": "agent7", "password": "Secret@123"}, "")
	e.Must(200, "POST", "/v1/api/admin/staff/"+id+"/status", map[string]any{"status": "active"}, chief)
	tok = e.StaffLogin("agent7", "Secret@123", "09120009912")
	e.Must(200, "GET", "/v1/api/admin/me", nil, tok)
}
