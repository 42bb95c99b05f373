package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProductionRefusesDevTokenSecret(t *testing.T) {
	t.Setenv("CHAPAR_ENV", EnvProduction)
	t.Setenv("TOKEN_SECRET_FILE", "")
	for _, secret := range []string{"", DevTokenSecret} {
		t.Setenv("TOKEN_SECRET", secret)
		_, err := Load()
		if err == nil || !strings.Contains(err.Error(), "TOKEN_SECRET") {
			t.Fatalf("production with TOKEN_SECRET %q: err %v, want a TOKEN_SECRET error", secret, err)
		}
	}
	t.Setenv("TOKEN_SECRET", "a-long-random-secret-of-production-4f9c2a")
	c, err := Load()
	if err != nil || !c.Production() {
		t.Fatalf("production with its own secret: %v (production %v)", err, c.Production())
	}
}

func TestDevelopmentKeepsDevTokenSecret(t *testing.T) {
	t.Setenv("CHAPAR_ENV", "")
	t.Setenv("TOKEN_SECRET", "")
	t.Setenv("TOKEN_SECRET_FILE", "")
	c, err := Load()
	if err != nil || c.Production() || c.TokenSecret != DevTokenSecret {
		t.Fatalf("development: %v, %+v", err, c)
	}
	t.Setenv("CHAPAR_ENV", "prod")
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "CHAPAR_ENV") {
		t.Fatalf("CHAPAR_ENV=prod: err %v, want a CHAPAR_ENV error", err)
	}
}

func TestHTTPLimitsDefaults(t *testing.T) {
	for _, k := range []string{"HTTP_READ_HEADER_TIMEOUT", "HTTP_READ_TIMEOUT", "HTTP_WRITE_TIMEOUT",
		"HTTP_IDLE_TIMEOUT", "HTTP_STREAM_TIMEOUT", "HTTP_MAX_CONNS_PER_IP", "CHAPAR_ENV"} {
		t.Setenv(k, "")
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPReadHeaderTimeout != 10*time.Second || c.HTTPReadTimeout != 30*time.Second ||
		c.HTTPWriteTimeout != 2*time.Minute || c.HTTPIdleTimeout != 2*time.Minute ||
		c.HTTPStreamTimeout != 30*time.Minute || c.HTTPMaxConnsPerIP != 64 {
		t.Fatalf("defaults: %+v", c)
	}
	t.Setenv("HTTP_READ_TIMEOUT", "5s")
	t.Setenv("HTTP_MAX_CONNS_PER_IP", "8")
	if c, err = Load(); err != nil || c.HTTPReadTimeout != 5*time.Second || c.HTTPMaxConnsPerIP != 8 {
		t.Fatalf("set: %v %+v", err, c)
	}
}

// PAYMENT_GATEWAY defaults to the sandbox bank; an unknown gateway stops start-up
// instead of running without payments.
func TestPaymentGateway(t *testing.T) {
	t.Setenv("PAYMENT_GATEWAY", "")
	c, err := Load()
	if err != nil || c.PaymentGateway != "sandbox" || c.PaymentPendingTimeout != 15*time.Minute {
		t.Fatalf("defaults: %q %v %v", c.PaymentGateway, c.PaymentPendingTimeout, err)
	}
	for _, gw := range []string{"zarinpal", "sep"} {
		t.Setenv("PAYMENT_GATEWAY", gw)
		if c, err := Load(); err != nil || c.PaymentGateway != gw {
			t.Fatalf("%s: %q %v", gw, c.PaymentGateway, err)
		}
	}
	t.Setenv("PAYMENT_GATEWAY", "mellat")
	if _, err := Load(); err == nil {
		t.Fatal("an unknown gateway was accepted")
	}
}

// A KEY_FILE naming a file that is there but cannot be read stops Load with an
// error naming it (one that is not there leaves the setting to KEY), for every setting read by secret (the list is checked against the source:
// every secret("KEY", …) call names one of secretKeys); a readable one is used.
func TestUnreadableSecretFileRefused(t *testing.T) {
	for _, key := range secretCalls(t) {
		if !slices.Contains(secretKeys, key) {
			t.Fatalf("secret(%q, …) is not in secretKeys: Load would not check its file", key)
		}
	}
	for _, key := range secretKeys {
		t.Setenv(key+"_FILE", t.TempDir()) // a directory: there, but not a readable file
		if _, err := Load(); err == nil || !strings.Contains(err.Error(), key+"_FILE") {
			t.Fatalf("%s_FILE unreadable: err %v", key, err)
		}
		t.Setenv(key+"_FILE", filepath.Join(t.TempDir(), "missing"))
		if _, err := Load(); err != nil {
			t.Fatalf("%s_FILE naming no file: %v, want the setting left to %s", key, err, key)
		}
		t.Setenv(key+"_FILE", "")
	}
	f := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(f, []byte("a-token-secret-from-a-credential-file-1234\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOKEN_SECRET_FILE", f)
	if c, err := Load(); err != nil || c.TokenSecret != "a-token-secret-from-a-credential-file-1234" {
		t.Fatalf("readable TOKEN_SECRET_FILE: %v, %q", err, c.TokenSecret)
	}
}

// secretCalls lists the keys the package's sources pass to secret.
func secretCalls(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, _ := filepath.Glob("*.go")
	var keys []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if id, isID := call.Fun.(*ast.Ident); isID && id.Name == "secret" {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok {
					k, _ := strconv.Unquote(lit.Value)
					keys = append(keys, k)
				}
			}
			return true
		})
	}
	if len(keys) < len(secretKeys) {
		t.Fatalf("found %d secret calls, fewer than secretKeys' %d", len(keys), len(secretKeys))
	}
	return keys
}
