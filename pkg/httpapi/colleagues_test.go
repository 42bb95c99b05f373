package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/validate"
)

// nationalID completes nine digits with the check digit of an Iranian national code.
func nationalID(nine string) string {
	sum := 0
	for i := range 9 {
		sum += int(nine[i]-'0') * (10 - i)
	}
	c := sum % 11
	if c >= 2 {
		c = 11 - c
	}
	return nine + strconv.Itoa(c)
}

// owner registers and logs in an account owner; it returns the token and account id.
func owner(t *testing.T, e *apitest.Env, username, mobile string) (string, int64) {
	t.Helper()
	e.Register(username, pw, mobile)
	u, err := e.Accounts.ByUsername(context.Background(), username)
	if err != nil {
		t.Fatal(err)
	}
	return e.Login(username, pw), u.AccountID
}

// makeRole creates a role through the API and returns its id.
func makeRole(t *testing.T, e *apitest.Env, token, name string, perms ...acl.Permission) int64 {
	t.Helper()
	var r colleague.Role
	e.Must(201, "POST", "/v1/api/acl/partner/create_role", map[string]any{"name": name, "permissions": perms}, token).Decode(t, &r)
	return r.ID
}

// inviteColleague adds a colleague with the role and returns them (pending).
func inviteColleague(t *testing.T, e *apitest.Env, token, mobile string, roleID int64) colleague.Colleague {
	t.Helper()
	var c colleague.Colleague
	e.Must(201, "POST", "/v1/api/user/partner/create", map[string]any{"name": "همکار " + mobile, "mobile": mobile,
		"national_id": nationalID("00" + mobile[4:11]), "role_id": roleID}, token).Decode(t, &c)
	return c
}

// acceptAndLogin sets the invited colleague's password with the texted code and logs
// them in (two-step, like everyone); it returns their session token.
func acceptAndLogin(t *testing.T, e *apitest.Env, c colleague.Colleague) string {
	t.Helper()
	intl, _ := validate.NormalizeMobile(c.Mobile)
	e.Must(200, "POST", "/v1/api/user/partner/accept_invite", map[string]string{"username": c.Username,
		"code": e.LastCode(intl), "password": pw, "password_confirmation": pw}, "")
	return e.Login(c.Username, pw)
}

func status(t *testing.T, e *apitest.Env, token string, id int64) string {
	t.Helper()
	var c colleague.Colleague
	e.Must(200, "GET", fmt.Sprintf("/v1/api/user/partner/show/%d", id), nil, token).Decode(t, &c)
	return c.Status
}

// TestColleagueLifecycle: the colleague routes end to end with the login: no colleague
// before a role (422 and its code); the invitation code sets the password; pending
// until the first login, then active; the role limits the colleague (403-8) at once
// when changed, despite the session cache; a role in use stays (409). The rules
// themselves are pkg/colleague's tests.
func TestColleagueLifecycle(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	tok, _ := owner(t, e, "bahar", "09121230001")
	r := e.Must(422, "POST", "/v1/api/user/partner/create", map[string]any{"name": "x", "mobile": "09121230002",
		"national_id": nationalID("001234567"), "role_id": 1}, tok)
	if r.Meta.MessageCode != colleague.CodeNoRoleYet || r.Meta.Message != colleague.MsgNoRoleYet {
		t.Fatalf("colleague before any role: %s", r.Raw)
	}
	roleID := makeRole(t, e, tok, "گزارش‌گیر", acl.ReportView)
	c := inviteColleague(t, e, tok, "09121230002", roleID)
	if c.Status != colleague.StatusPending || c.Username != "09121230002" {
		t.Fatalf("invited colleague: %+v", c)
	}
	e.Must(401, "POST", "/v1/api/acl/auth/login", map[string]string{"username": c.Username, "password": pw}, "")
	ct := acceptAndLogin(t, e, c)
	if got := status(t, e, tok, c.ID); got != colleague.StatusActive {
		t.Fatalf("after the first login: %s", got)
	}
	var list colleague.ACL
	e.Must(200, "GET", "/v1/api/acl/list", nil, ct).Decode(t, &list)
	if list.IsOwner || !slices.Equal(list.Permissions, []acl.Permission{acl.ReportView}) {
		t.Fatalf("colleague ACL: %+v", list)
	}
	e.Must(200, "GET", "/v1/api/report/new_list", nil, ct)
	// Two-step login applies to colleagues too: they cannot turn it off.
	if r := e.Must(403, "POST", "/v1/api/user/2fa/disable", map[string]string{"password": pw}, ct); r.Meta.MessageCode != auth.CodeTwoStepRequired {
		t.Fatalf("colleague turns two-step off: %s", r.Raw)
	}
	r = e.Must(403, "GET", "/v1/api/user/partner/list", nil, ct)
	if r.Meta.MessageCode != "403-8" {
		t.Fatalf("colleague on a partner route: %s", r.Raw)
	}
	r = e.Must(409, "POST", "/v1/api/acl/partner/delete_role", map[string]any{"id": roleID}, tok)
	if r.Meta.MessageCode != colleague.CodeRoleInUse {
		t.Fatalf("delete a role in use: %s", r.Raw)
	}
	// Taking report.view away applies on the next request, despite an hour's cache.
	e.Must(200, "POST", "/v1/api/acl/partner/update_role", map[string]any{"id": roleID, "name": "دفترچه",
		"permissions": []acl.Permission{acl.PhonebookView}}, tok)
	e.Must(403, "GET", "/v1/api/report/new_list", nil, ct)
	e.Must(200, "GET", "/v1/api/phonebooks/list-new", nil, ct)
	e.Must(201, "POST", "/v1/api/acl/partner/copy_role", map[string]any{"id": roleID}, tok)
}

// TestColleagueCannotRaiseOwnRole: a colleague's refused role change answers 403
// with its message and changes nothing (which changes are refused is pkg/colleague's
// tests).
func TestColleagueCannotRaiseOwnRole(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "sepideh", "09121230011")
	mine := makeRole(t, e, tok, "مدیر همکاران", acl.PartnerManage, acl.ReportView)
	c := inviteColleague(t, e, tok, "09121230012", mine)
	ct := acceptAndLogin(t, e, c)
	r := e.Must(403, "POST", "/v1/api/acl/partner/update_role", map[string]any{"id": mine, "name": "مدیر همکاران",
		"permissions": []acl.Permission{acl.PartnerManage, acl.ReportView, acl.SendCreate}}, ct)
	if r.Meta.Message != colleague.MsgEscalation && r.Meta.Message != colleague.MsgOwnRole {
		t.Fatalf("widen own role: %s", r.Raw)
	}
	var list colleague.ACL
	e.Must(200, "GET", "/v1/api/acl/list", nil, ct).Decode(t, &list)
	if slices.Contains(list.Permissions, acl.SendCreate) {
		t.Fatalf("the colleague raised their role: %+v", list)
	}
}

// TestDeactivationCutsSessionsEverywhere: deactivating a colleague stops their session
// on a second API instance within one request (its token cache holds them for an
// hour), closes their socket there, and refuses logins until reactivated.
func TestDeactivationCutsSessionsEverywhere(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	e2 := e.Another()
	tok, _ := owner(t, e, "arash", "09121230021")
	c := inviteColleague(t, e, tok, "09121230022", makeRole(t, e, tok, "گزارش", acl.ReportView))
	ct := acceptAndLogin(t, e, c)
	e2.Must(200, "GET", "/v1/api/report/new_list", nil, ct) // cached on the second instance
	ws := e2.Socket(ct)
	awaitOpen(t, ws)
	e.Must(200, "POST", "/v1/api/user/partner/deactive", map[string]any{"id": c.ID}, tok)
	awaitRevoked(t, ws, "other instance")
	e2.Must(401, "GET", "/v1/api/report/new_list", nil, ct)
	e.Must(401, "GET", "/v1/api/report/new_list", nil, ct)
	if r := e.Do("POST", "/v1/api/acl/auth/login", map[string]string{"username": c.Username, "password": pw}, ""); r.Status != 403 {
		t.Fatalf("login while deactivated: %d %s", r.Status, r.Raw)
	}
	if got := status(t, e, tok, c.ID); got != colleague.StatusDisabled {
		t.Fatalf("status after deactivation: %s", got)
	}
	e.Must(200, "POST", "/v1/api/user/partner/active", map[string]any{"id": c.ID}, tok)
	if got := status(t, e, tok, c.ID); got != colleague.StatusActive {
		t.Fatalf("status after reactivation: %s", got)
	}
	e2.Must(200, "GET", "/v1/api/report/new_list", nil, e.Login(c.Username, pw))
}

// TestInvitationLimits: a wrong invitation code answers 422 with its code, a throttled
// address 429, and a resend past the mobile's daily cap 429 (the limits themselves
// are pkg/colleague's tests).
func TestInvitationLimits(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.LoginPerIPPerMin, c.OTPPerNumberPerDay = 6, 2 })
	tok, _ := owner(t, e, "farhad", "09121230031")
	c := inviteColleague(t, e, tok, "09121230032", makeRole(t, e, tok, "گزارش", acl.ReportView))
	intl, _ := validate.NormalizeMobile(c.Mobile)
	wrong := map[string]string{"username": c.Username, "code": wrongCode(e.LastCode(intl)), "password": pw, "password_confirmation": pw}
	for range 6 {
		if r := e.Must(422, "POST", "/v1/api/user/partner/accept_invite", wrong, ""); r.Meta.MessageCode != colleague.CodeInviteWrong {
			t.Fatalf("wrong code: %s", r.Raw)
		}
	}
	e.Must(429, "POST", "/v1/api/user/partner/accept_invite", wrong, "")
	e.Must(200, "POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok) // second code today
	e.Must(429, "POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok)
}
