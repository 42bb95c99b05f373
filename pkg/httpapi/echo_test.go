package httpapi_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
)

// Markup an attacker types into a form, hoping the error message shows it back.
var echoPayloads = []string{`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`}

// wantNoEcho fails when the answer is not a 4xx or its message, field names or field
// messages hold any of the payloads (or their pieces).
func wantNoEcho(t *testing.T, name string, r apitest.Response) {
	t.Helper()
	if r.Status < 400 || r.Status >= 500 {
		t.Fatalf("%s: status %d, want a 4xx: %s", name, r.Status, r.Raw)
	}
	texts := []string{r.Meta.Message, string(r.Raw)}
	for field, msgs := range r.Meta.Errors {
		texts = append(texts, field)
		texts = append(texts, msgs...)
	}
	for _, s := range texts {
		for _, bad := range []string{"<script", "<img", "onerror", "alert(", `\u003c`} {
			if strings.Contains(s, bad) {
				t.Fatalf("%s: the answer echoes the input (%q in %q): %s", name, bad, s, r.Raw)
			}
		}
	}
}

// TestErrorsDoNotEchoInput sends markup to validated routes; the error names the
// field or the position, never the input itself.
func TestErrorsDoNotEchoInput(t *testing.T) {
	f := newContactsFixture(t)
	e := f.e
	both := []string{echoPayloads[0], "09121234567", echoPayloads[1]}

	r := e.Do("POST", "/v1/api/send/calculate-price", map[string]any{"type": "quick", "text": "سلام",
		"sender": "30004444", "numbers": both}, f.tokA)
	wantNoEcho(t, "quick send numbers", r)
	if msgs := r.Meta.Errors["numbers"]; len(msgs) != 1 || !strings.Contains(msgs[0], "ردیف ۱، ۳") {
		t.Fatalf("the bad numbers are not named by position: %s", r.Raw)
	}

	wantNoEcho(t, "register", e.Do("POST", "/v1/api/user/register", map[string]any{
		"name": echoPayloads[1], "username": echoPayloads[0], "mobile": echoPayloads[1],
		"password": pw, "password_confirmation": pw, "accept_rules": true}, ""))
	wantNoEcho(t, "blacklist", e.Do("POST", pbAPI+"/blacklist", map[string]any{"numbers": both, "kind": "send"}, f.tokA))
	for _, p := range echoPayloads {
		wantNoEcho(t, "contact feature "+p, e.Do("POST", pbAPI+"/numbers/add-list-new", map[string]any{
			"contacts": []any{map[string]any{"number": p, "features": map[string]any{p: p}}}}, f.tokA))
		q := url.Values{"feature." + p: {"1"}}.Encode()
		wantNoEcho(t, "contact filter "+p, e.Do("GET", pbAPI+"/numbers/contact-list?"+q, nil, f.tokA))
	}
}
