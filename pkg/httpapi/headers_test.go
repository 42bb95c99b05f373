package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
)

// panelDir writes a tiny built panel: index.html, one hashed asset and a favicon.
func panelDir(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":         `<!doctype html><script type="module" src="/assets/app.js"></script>`,
		"assets/app-1a2b.js": `console.log(1)`,
		"favicon.svg":        `<svg xmlns="http://www.w3.org/2000/svg"/>`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// serve runs one request through the engine.
func serve(e *apitest.Env, r *http.Request) *httptest.ResponseRecorder {
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	e.Engine.ServeHTTP(w, r)
	return w
}

// TestSecurityHeadersOnEveryAnswer: API successes and failures, unknown routes and
// methods, the panel's index and files and the health check all carry the CSP,
// nosniff, Referrer-Policy and Permissions-Policy; API answers are never stored.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.WebDir = panelDir(t) })
	cases := []struct {
		name, method, path, body string
		status                   int
		api                      bool
	}{
		{"api 200", "POST", "/v1/api/user/check_exist", `{"username":"x"}`, 200, true},
		{"api 422", "POST", "/v1/api/user/check_exist", `{`, 422, true},
		{"api 401", "GET", "/v1/api/acl/auth/check_token", "", 401, true},
		{"api 404", "GET", "/v1/api/nothing-here", "", 404, true},
		{"api 405", "GET", "/v1/api/user/check_exist", "", 405, true},
		{"panel post 404", "POST", "/dashboard", "", 404, true},
		{"healthz", "GET", "/healthz", "", 200, true},
		{"panel index", "GET", "/dashboard", "", 200, false},
		{"static asset", "GET", "/assets/app-1a2b.js", "", 200, false},
		{"public file", "GET", "/favicon.svg", "", 200, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := serve(e, httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body)))
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			h := w.Header()
			want := map[string]string{
				"Content-Security-Policy": httpapi.ContentSecurityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "no-referrer",
				"Permissions-Policy":      httpapi.PermissionsPolicy,
				"X-Frame-Options":         "DENY",
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if cc := h.Get("Cache-Control"); tc.api != (cc == "no-store") {
				t.Errorf("Cache-Control %q (api answer: %v)", cc, tc.api)
			}
			if h.Get("Strict-Transport-Security") != "" {
				t.Errorf("HSTS over plain HTTP")
			}
		})
	}
	csp := httpapi.ContentSecurityPolicy
	for _, part := range []string{"script-src 'self';", "frame-ancestors 'none'", "default-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, part) {
			t.Errorf("CSP %q lacks %q", csp, part)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(strings.SplitN(csp, "style-src", 2)[0], "unsafe-inline") {
		t.Errorf("CSP allows inline or eval'd script: %q", csp)
	}
}

// TestHSTSOnlyBehindTLS: HSTS is sent on a TLS connection, or when a trusted proxy
// says the client used https; X-Forwarded-Proto from anyone else is ignored.
func TestHSTSOnlyBehindTLS(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.TrustedProxies = []string{"10.1.0.0/16", "192.0.2.7"} })
	cases := []struct {
		name, url, remote, proto string
		want                     bool
	}{
		{"plain http", "http://chapar.test/healthz", "203.0.113.5:4000", "", false},
		{"direct tls", "https://chapar.test/healthz", "203.0.113.5:4000", "", true},
		{"untrusted proxy claims https", "http://chapar.test/healthz", "203.0.113.5:4000", "https", false},
		{"trusted proxy https", "http://chapar.test/healthz", "192.0.2.7:4000", "https", true},
		{"trusted range https", "http://chapar.test/dashboard", "10.1.4.2:4000", "HTTPS", true},
		{"trusted proxy http", "http://chapar.test/healthz", "192.0.2.7:4000", "http", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tc.url, nil)
			r.RemoteAddr = tc.remote
			if tc.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			got := serve(e, r).Header().Get("Strict-Transport-Security")
			if (got == httpapi.HSTS) != tc.want || (got != "" && got != httpapi.HSTS) {
				t.Fatalf("HSTS %q, want sent: %v", got, tc.want)
			}
		})
	}
}
