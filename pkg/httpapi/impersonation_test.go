package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/staff"
)

// impersonate opens the customer's panel as staff and returns the session token.
func impersonate(t *testing.T, e *apitest.Env, stok string, accountID int64) string {
	t.Helper()
	var ec auth.ExternalCode
	e.Must(200, "POST", "/v1/api/admin/accounts/"+strconv.FormatInt(accountID, 10)+"/impersonate", nil, stok).Decode(t, &ec)
	var got struct{ Token string }
	e.Must(200, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "").Decode(t, &got)
	return got.Token
}

// A staff member inside a customer's panel (issue 38 item 5) cannot change any
// credential (mint an ordinary login link, the password, two-step login, API keys,
// the mobile, colleagues' invitations); what they do is audited with their name; the
// session lives an hour at most and ends when the staff user is deactivated.
func TestImpersonationIsBounded(t *testing.T) {
	e := apitest.Start(t, nil)
	ctx := context.Background()
	chief := addStaff(t, e, "chief9")
	var agent staff.User
	e.Must(201, "POST", "/v1/api/admin/staff", map[string]any{"username": "agent9", "password": "Secret@123", "mobile": "09120009919"},
		chief).Decode(t, &agent)
	stok := e.StaffLogin("agent9", "Secret@123", "09120009919")
	_, acct := owner(t, e, "customer9", "09121238841")
	tok := impersonate(t, e, stok, acct)

	refused := []struct{ method, path string }{
		{"POST", "/acl/auth/external_login/issue"}, {"POST", "/user/change_password"}, {"POST", "/user/2fa/disable"},
		{"GET", "/user/2fa/show_qr"}, {"POST", "/acl/api_key/otp"}, {"POST", "/user/change_mobile/request_change_otp"},
		{"POST", "/user/partner/create"},
	}
	for _, x := range refused {
		r := e.Do(x.method, "/v1/api"+x.path, map[string]any{"password": pw}, tok)
		if r.Status != 403 || r.Meta.MessageCode != httpapi.CodeImpersonationRefused || r.Meta.Message != httpapi.MsgImpersonationRefused {
			t.Errorf("%s %s in an impersonated session: %d %s", x.method, x.path, r.Status, r.Raw)
		}
	}
	e.Must(200, "POST", "/v1/api/user/update_profile", map[string]any{"section": "contact",
		"details": map[string]any{"email": "shop@example.ir", "city_code": "021", "landline": "88776655"}}, tok)
	var named string
	if err := e.DB.Pool.QueryRow(ctx, `SELECT details->>'staff' FROM audit_log WHERE account_id = $1 AND action = 'profile.update'`,
		acct).Scan(&named); err != nil || named != "agent9" {
		t.Fatalf("the profile change is audited as %q (%v)", named, err)
	}
	var life time.Duration
	if err := e.DB.Pool.QueryRow(ctx, `SELECT extract(epoch FROM expires_at - created_at)::bigint * 1000000000 FROM sessions
		WHERE impersonator_id = $1`, agent.ID).Scan(&life); err != nil || life > auth.ImpersonationTTL+time.Minute {
		t.Fatalf("impersonation session lives %v (%v)", life, err)
	}
	e.Must(200, "POST", "/v1/api/admin/staff/"+strconv.FormatInt(agent.ID, 10)+"/status", map[string]any{"status": "disabled"}, chief)
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, tok)
}
