package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apikey"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/validate"
)

const creditPath = "/v1/api/payment/credit/mine"

// keyEnv starts an API whose token and key caches outlive the tests, so only the
// revocation broadcast can make a second instance refuse a key at once.
func keyEnv(t *testing.T, tweak func(*config.Config)) *apitest.Env {
	return apitest.Start(t, func(c *config.Config) {
		c.SessionCacheTTL = time.Minute
		if tweak != nil {
			tweak(c)
		}
	})
}

// newKey asks for the one-time code at mobile (local form) and creates a key.
func newKey(t *testing.T, e *apitest.Env, token, mobile string, form map[string]any) apikey.Created {
	t.Helper()
	var otp struct {
		OTPToken string `json:"otp_token"`
	}
	e.Must(200, "POST", "/v1/api/acl/api_key/otp", nil, token).Decode(t, &otp)
	intl, _ := validate.NormalizeMobile(mobile)
	form["otp_token"], form["code"] = otp.OTPToken, e.LastCode(intl)
	var k apikey.Created
	e.Must(201, "POST", "/v1/api/acl/api_key/create", form, token).Decode(t, &k)
	return k
}

func walletKey() map[string]any {
	return map[string]any{"title": "فروشگاه", "scopes": []acl.Permission{acl.WalletView}}
}

// TestAPIKeyCreateNeedsOTP: no key without the texted code, a wrong code is refused;
// the secret is shown once (list and show never carry it) and stored only hashed.
func TestAPIKeyCreateNeedsOTP(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := owner(t, e, "keyowner", "09121250000")
	form := walletKey()
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status != 422 {
		t.Fatalf("create without a code: %d %s", r.Status, r.Raw)
	}
	var otp struct {
		OTPToken   string `json:"otp_token"`
		MobileHint string `json:"mobile_hint"`
	}
	e.Must(200, "POST", "/v1/api/acl/api_key/otp", nil, tok).Decode(t, &otp)
	// The panel says which number the code went to.
	if otp.MobileHint != "0912***0000" {
		t.Fatalf("mobile hint %q, want 0912***0000", otp.MobileHint)
	}
	code := e.LastCode("989121250000")
	wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1_000_000)
	form["otp_token"], form["code"] = otp.OTPToken, wrong
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status != 422 || r.Meta.MessageCode != "otp-wrong" {
		t.Fatalf("wrong code: %d %s", r.Status, r.Raw)
	}
	form["code"] = code
	var k apikey.Created
	e.Must(201, "POST", "/v1/api/acl/api_key/create", form, tok).Decode(t, &k)
	if !strings.HasPrefix(k.Secret, k.Prefix+"_") || !strings.HasPrefix(k.Prefix, apikey.Prefix) {
		t.Fatalf("secret %q prefix %q", k.Secret, k.Prefix)
	}
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status == 201 {
		t.Fatal("a consumed code made a second key")
	}
	secretPart := k.Secret[len(k.Prefix)+1:]
	list := e.Must(200, "GET", "/v1/api/acl/api_key/list", nil, tok)
	show := e.Must(200, "GET", fmt.Sprintf("/v1/api/acl/api_key/show/%d", k.ID), nil, tok)
	for _, raw := range [][]byte{list.Raw, show.Raw} {
		if strings.Contains(string(raw), secretPart) || !strings.Contains(string(raw), k.Prefix) {
			t.Fatalf("list/show: %s", raw)
		}
	}
	var leaks int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM api_keys
		WHERE api_keys::text LIKE '%' || $1 || '%' OR encode(secret_hash, 'escape') LIKE '%' || $1 || '%'`, secretPart).Scan(&leaks); err != nil || leaks != 0 {
		t.Fatalf("the database holds the secret: %d %v", leaks, err)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// TestAPIKeyAuthenticates: a key works as Bearer and in the apikey header, within
// its scopes only (403-8 outside), never on key management nor on the signed-in
// user's own routes, and a bad secret of a real prefix is refused.
func TestAPIKeyAuthenticates(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := owner(t, e, "keyauth", "09121250001")
	k := newKey(t, e, tok, "09121250001", walletKey())
	e.Must(200, "GET", creditPath, nil, k.Secret)
	r := e.Must(200, "GET", creditPath, nil, "", "apikey", k.Secret)
	if r.Header.Get("X-RateLimit-Limit") == "" || r.Header.Get("X-RateLimit-Remaining") == "" || r.Header.Get("X-RateLimit-Reset") == "" {
		t.Errorf("rate-limit headers: %v", r.Header)
	}
	for _, path := range []string{"/v1/api/user/partner/list", "/v1/api/acl/api_key/list", "/v1/api/user/2fa", "/v1/api/acl/auth/check_token"} {
		if r := e.Do("GET", path, nil, k.Secret); r.Status != 403 || r.Meta.MessageCode != "403-8" {
			t.Errorf("%s outside the scopes: %d %s", path, r.Status, r.Raw)
		}
	}
	// A key must not mint a login link, nor end or change its creator's sessions.
	for _, path := range []string{"/v1/api/acl/auth/external_login/issue", "/v1/api/user/2fa/disable", "/v1/api/acl/auth/logout", "/v1/api/live/ticket"} {
		if r := e.Do("POST", path, map[string]any{}, k.Secret); r.Status != 403 {
			t.Errorf("POST %s with a key: %d %s", path, r.Status, r.Raw)
		}
	}
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok)
	if r := e.Do("GET", creditPath, nil, k.Prefix+"_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); r.Status != 401 {
		t.Errorf("forged secret: %d", r.Status)
	}
	form := walletKey()
	form["scopes"] = []acl.Permission{acl.APIKeyManage}
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status != 422 || len(r.Meta.Errors["scopes"]) == 0 {
		t.Errorf("apikey.manage as a scope: %d %s", r.Status, r.Raw)
	}
}

// TestAPIKeyAllowList: the allow-list (single address, CIDR, IPv6) is enforced before
// any work; a bad entry is a clear 422.
func TestAPIKeyAllowList(t *testing.T) {
	e := keyEnv(t, func(c *config.Config) { c.OTPSendPerMin = 100 })
	tok, acct := owner(t, e, "keyips", "09121250002")
	setPlan(t, e, acct, "pro") // a key per case
	cases := []struct {
		ips  []string
		want int
	}{
		{[]string{"127.0.0.1"}, 200},
		{[]string{"127.0.0.0/8", "2001:db8::/32"}, 200},
		{[]string{"10.0.0.0/8", "::1/128"}, 403},
		{[]string{"192.168.1.7"}, 403},
	}
	for _, c := range cases {
		form := walletKey()
		form["allowed_ips"] = c.ips
		k := newKey(t, e, tok, "09121250002", form)
		if r := e.Do("GET", creditPath, nil, k.Secret); r.Status != c.want {
			t.Errorf("%v from 127.0.0.1: %d, want %d %s", c.ips, r.Status, c.want, r.Raw)
		}
		// Without TRUSTED_PROXIES a forwarded address is not believed.
		if r := e.Do("GET", creditPath, nil, k.Secret, "X-Forwarded-For", "10.1.2.3", "X-Real-IP", "10.1.2.3"); c.want == 403 && r.Status != 403 {
			t.Errorf("%v spoofed by X-Forwarded-For: %d", c.ips, r.Status)
		}
	}
	form := walletKey()
	form["allowed_ips"] = []string{"10.0.0.300"}
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status != 422 || len(r.Meta.Errors["allowed_ips"]) == 0 {
		t.Errorf("bad address: %d %s", r.Status, r.Raw)
	}
}

// TestAPIKeyExpiry: a past expiry is refused at creation; an expired key is refused.
func TestAPIKeyExpiry(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := owner(t, e, "keyexp", "09121250003")
	form := walletKey()
	form["expires_at"] = time.Now().Add(-time.Hour)
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, tok); r.Status != 422 || len(r.Meta.Errors["expires_at"]) == 0 {
		t.Fatalf("past expiry: %d %s", r.Status, r.Raw)
	}
	form["expires_at"] = time.Now().Add(time.Hour)
	k := newKey(t, e, tok, "09121250003", form)
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, k.ID); err != nil {
		t.Fatal(err)
	}
	if r := e.Do("GET", creditPath, nil, k.Secret); r.Status != 401 || r.Meta.MessageCode != "apikey-expired" {
		t.Errorf("expired key: %d %s", r.Status, r.Raw)
	}
}

// TestAPIKeyRevokedEverywhere: a deleted key is refused on the next request on
// another API instance that had it cached; another account can neither see nor
// delete it.
func TestAPIKeyRevokedEverywhere(t *testing.T) {
	e := keyEnv(t, nil)
	e2 := e.Another()
	tok, _ := owner(t, e, "keyrevoke", "09121250004")
	tokB, _ := owner(t, e, "keystranger", "09121250005")
	k := newKey(t, e, tok, "09121250004", walletKey())
	e2.Must(200, "GET", creditPath, nil, k.Secret) // cached on e2
	var list []apikey.Key
	e.Must(200, "GET", "/v1/api/acl/api_key/list", nil, tokB).Decode(t, &list)
	if len(list) != 0 {
		t.Fatalf("another account sees %v", list)
	}
	e.Must(404, "GET", fmt.Sprintf("/v1/api/acl/api_key/show/%d", k.ID), nil, tokB)
	e.Must(404, "DELETE", "/v1/api/acl/api_key", map[string]any{"id": k.ID}, tokB)
	e2.Must(200, "GET", creditPath, nil, k.Secret)
	e.Must(200, "DELETE", "/v1/api/acl/api_key", map[string]any{"id": k.ID}, tok)
	refusedSoon(t, e2, k.Secret)
}

// refusedSoon waits (far less than the cache TTL) for the broadcast to reach e.
func refusedSoon(t *testing.T, e *apitest.Env, key string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		r := e.Do("GET", creditPath, nil, key)
		if r.Status == 401 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("key still accepted: %d %s", r.Status, r.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAPIKeyCreatorDeactivated: a colleague's key is limited to what the colleague
// holds and stops on every instance once the colleague is deactivated.
func TestAPIKeyCreatorDeactivated(t *testing.T) {
	e := keyEnv(t, nil)
	e2 := e.Another()
	tok, _ := owner(t, e, "keyboss", "09121250006")
	role := makeRole(t, e, tok, "برنامه‌نویس", acl.APIKeyManage, acl.WalletView)
	c := inviteColleague(t, e, tok, "09121250007", role)
	ctok := acceptAndLogin(t, e, c)
	form := walletKey()
	form["scopes"] = []acl.Permission{acl.PartnerManage}
	if r := e.Do("POST", "/v1/api/acl/api_key/create", form, ctok); r.Status != 422 {
		t.Fatalf("scope beyond the creator: %d %s", r.Status, r.Raw)
	}
	var scopes []apikey.Scope
	e.Must(200, "GET", "/v1/api/acl/api_key/scopes", nil, ctok).Decode(t, &scopes)
	if len(scopes) != 1 || scopes[0].Key != acl.WalletView {
		t.Errorf("the colleague's scopes: %v", scopes)
	}
	k := newKey(t, e, ctok, c.Mobile, walletKey())
	e2.Must(200, "GET", creditPath, nil, k.Secret)
	e.Must(200, "POST", "/v1/api/user/partner/deactive", map[string]any{"id": c.ID}, tok)
	refusedSoon(t, e2, k.Secret)
}

// TestAPIKeyRateLimit: past RATE_API_KEY_PER_MIN a key gets 429 with Retry-After and
// the X-RateLimit-* headers.
func TestAPIKeyRateLimit(t *testing.T) {
	e := keyEnv(t, func(c *config.Config) { c.APIKeyPerMin = 3 })
	tok, _ := owner(t, e, "keyrate", "09121250008")
	k := newKey(t, e, tok, "09121250008", walletKey())
	for i := 2; i >= 0; i-- {
		r := e.Must(200, "GET", creditPath, nil, k.Secret)
		if got := r.Header.Get("X-RateLimit-Remaining"); got != fmt.Sprint(i) || r.Header.Get("X-RateLimit-Limit") != "3" {
			t.Errorf("remaining %q, want %d", got, i)
		}
	}
	r := e.Do("GET", creditPath, nil, k.Secret)
	if r.Status != 429 || r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Remaining") != "0" || r.Header.Get("X-RateLimit-Reset") == "" {
		t.Errorf("over the limit: %d %v", r.Status, r.Header)
	}
	e.Must(200, "GET", creditPath, nil, tok) // the session is not the key
}

// TestAPIKeyNotLogged: the access log names the key's id, never the key, whether the
// request passes, is refused by scope, or carries a forged secret.
func TestAPIKeyNotLogged(t *testing.T) {
	e := keyEnv(t, nil)
	tok, _ := owner(t, e, "keylog", "09121250009")
	k := newKey(t, e, tok, "09121250009", walletKey())
	var buf bytes.Buffer
	deps := httpapi.Wire(e.Config, slog.New(slog.NewTextHandler(&buf, nil)), e.DB.Pool, e.Redis.Client, e.Queue, nil)
	srv := httptest.NewServer(httpapi.New(deps))
	defer srv.Close()
	logged := &apitest.Env{T: t, URL: srv.URL}
	logged.Must(200, "GET", creditPath, nil, k.Secret)
	logged.Must(403, "GET", "/v1/api/user/partner/list", nil, "", "apikey", k.Secret)
	logged.Must(401, "GET", creditPath, nil, k.Prefix+"_forged")
	srv.Close() // waits for the handlers, and so for their log lines
	secret := k.Secret[len(k.Prefix)+1:]
	if out := buf.String(); strings.Contains(out, secret) || strings.Contains(out, k.Prefix) || !strings.Contains(out, fmt.Sprint("api_key=", k.ID)) {
		t.Fatalf("access log: %s", out)
	}
}
