package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
)

func issueExternal(e *apitest.Env, token string, body map[string]any) auth.ExternalCode {
	e.T.Helper()
	r := e.Must(200, "POST", "/v1/api/acl/auth/external_login/issue", body, token)
	var ec auth.ExternalCode
	r.Decode(e.T, &ec)
	if ec.Code == "" || !strings.HasPrefix(ec.Path, "/external-login?code=") {
		e.T.Fatalf("issued: %s", r.Raw)
	}
	return ec
}

// An external-login link carries a single-use server code, never a session token; the
// preview names the account before anything is stored, and the code opens one session.
func TestExternalLoginCode(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("farid", pw, "09121230000")
	tok := e.Login("farid", pw)
	ec := issueExternal(e, tok, map[string]any{})
	r := e.Must(200, "POST", "/v1/api/acl/auth/external_login/preview", map[string]string{"code": ec.Code}, "")
	var acct auth.ExternalAccount
	r.Decode(t, &acct)
	if acct.Username != "farid" || acct.Name != "کاربر farid" || acct.AccountName == "" {
		t.Fatalf("preview: %+v", acct)
	}
	// Previewing twice is harmless; exchanging opens a session of that user.
	e.Must(200, "POST", "/v1/api/acl/auth/external_login/preview", map[string]string{"code": ec.Code}, "")
	r = e.Must(200, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "")
	var got struct{ Token string }
	r.Decode(t, &got)
	r = e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, got.Token)
	if !strings.Contains(string(r.Data), `"user_name":"farid"`) {
		t.Fatalf("session of %s", r.Data)
	}
	// Single use.
	for _, path := range []string{"/v1/api/acl/auth/external_login", "/v1/api/acl/auth/external_login/preview"} {
		r = e.Must(401, "POST", path, map[string]string{"code": ec.Code}, "")
		if r.Meta.MessageCode != auth.CodeExternalInvalid {
			t.Fatalf("reused code at %s: %s", path, r.Raw)
		}
	}
	// A session token is not a code.
	e.Must(401, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": tok}, "")
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action IN ('auth.external_issued', 'auth.external_login')`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("audit rows %d %v", n, err)
	}
}

// Codes expire, and only an owner may issue one for a colleague of the same account.
func TestExternalLoginCodeExpiresAndScope(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.ExternalLoginTTL = 300 * time.Millisecond })
	e.Register("owner9", pw, "09121230001")
	e.Register("stranger", pw, "09121230002")
	owner := e.Login("owner9", pw)
	ec := issueExternal(e, owner, map[string]any{})
	time.Sleep(400 * time.Millisecond)
	e.Must(401, "POST", "/v1/api/acl/auth/external_login/preview", map[string]string{"code": ec.Code}, "")
	e.Must(401, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "")
	stranger, err := e.Accounts.ByUsername(context.Background(), "stranger")
	if err != nil {
		t.Fatal(err)
	}
	e.Must(404, "POST", "/v1/api/acl/auth/external_login/issue", map[string]any{"user_id": stranger.ID}, owner)
	e.Must(401, "POST", "/v1/api/acl/auth/external_login/issue", map[string]any{}, "")
}
