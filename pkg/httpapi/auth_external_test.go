package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
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

// The external-login routes: issuing needs a session (401) and finds no user of
// another account (404); the link's code is previewed and opens a session of its user,
// after which both routes answer it 401 with external-invalid (the rules are
// pkg/auth's tests).
func TestExternalLoginContract(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("farid", pw, "09121230000")
	e.Register("stranger", pw, "09121230002")
	tok := e.Login("farid", pw)
	e.Must(401, "POST", "/v1/api/acl/auth/external_login/issue", map[string]any{}, "")
	stranger, err := e.Accounts.ByUsername(context.Background(), "stranger")
	if err != nil {
		t.Fatal(err)
	}
	e.Must(404, "POST", "/v1/api/acl/auth/external_login/issue", map[string]any{"user_id": stranger.ID}, tok)
	ec := issueExternal(e, tok, map[string]any{})
	var acct auth.ExternalAccount
	e.Must(200, "POST", "/v1/api/acl/auth/external_login/preview", map[string]string{"code": ec.Code}, "").Decode(t, &acct)
	if acct.Username != "farid" || acct.Name != "کاربر farid" || acct.AccountName == "" {
		t.Fatalf("preview: %+v", acct)
	}
	var got struct{ Token string }
	e.Must(200, "POST", "/v1/api/acl/auth/external_login", map[string]string{"code": ec.Code}, "").Decode(t, &got)
	r := e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, got.Token)
	if !strings.Contains(string(r.Data), `"user_name":"farid"`) {
		t.Fatalf("session of %s", r.Data)
	}
	for _, path := range []string{"/v1/api/acl/auth/external_login", "/v1/api/acl/auth/external_login/preview"} {
		r = e.Must(401, "POST", path, map[string]string{"code": ec.Code}, "")
		if r.Meta.MessageCode != auth.CodeExternalInvalid {
			t.Fatalf("reused code at %s: %s", path, r.Raw)
		}
	}
}
