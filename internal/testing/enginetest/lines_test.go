package enginetest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/pattern"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
)

// approvedPattern creates a pattern of kind and has staff approve it; it returns its code.
func approvedPattern(t *testing.T, e *enginetest.Engine, token, stok, brand, kind string) string {
	t.Helper()
	var p pattern.Pattern
	e.Must(201, "POST", "/v1/api/patterns", map[string]any{"title": "کد", "kind": kind, "text": brand + " کد شما %code%",
		"variables": []map[string]any{{"name": "code", "type": "integer", "length": 6}}}, token).Decode(t, &p)
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind=pattern", nil, stok).Decode(t, &items)
	for _, it := range items {
		if it.SubjectID == p.Versions[0].ID {
			e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/reviews/%d/approve", it.ID), map[string]any{}, stok)
			return p.Code
		}
	}
	t.Fatalf("pattern %s not in the queue", p.Code)
	return ""
}

// handset waits for the message at a number and returns it.
func handset(e *enginetest.Engine, to string) smscsim.Message {
	var m smscsim.Message
	e.Wait("the message at "+to, 30*time.Second, func() bool {
		var ok bool
		m, ok = e.Sim.Latest(to)
		return ok
	})
	return m
}

// Which line each kind of send goes out from and when «لغو۱۱» is appended
// (docs/api-sending.md): a one-time code pattern from the account's service line
// without the footer, although the default line is an advertising one; an advert
// from the advertising line with it; an API quick send on a service line without it;
// an OTP pattern that names the advertising line is refused.
func TestServiceTrafficWithoutFooter(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	stok := e.Staff("linesreviewer", "09120009915")
	token, acct := e.Account("lines", "09121110015", "30001515", "advertising", 10_000_000)
	if _, err := e.Deps.Lines.Add(context.Background(), acct, "50001515", "service", false); err != nil {
		t.Fatal(err)
	}
	code := approvedPattern(t, e, token, stok, "کاربر lines", "otp")

	var otp pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", map[string]any{"code": code, "recipient": "09121235001",
		"values": map[string]string{"code": "482913"}}, token).Decode(t, &otp)
	if otp.Sender != "50001515" || otp.Cancel11 {
		t.Fatalf("otp accepted %+v", otp)
	}
	r := e.Do("POST", "/v1/api/patterns/send", map[string]any{"code": code, "recipient": "09121235004", "sender": "30001515",
		"values": map[string]string{"code": "1"}}, token)
	if r.Status != 422 || r.Meta.Errors["sender"][0] != send.MsgServiceLineRequired {
		t.Fatalf("otp on the advertising line: %d %+v", r.Status, r.Meta)
	}
	var ad, quick send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"numbers": []string{"09121235002"}, "text": "حراج پاییزه"}, token).Decode(t, &ad)
	e.Must(201, "POST", "/v1/api/send", map[string]any{"numbers": []string{"09121235003"}, "text": "سفارش شما ارسال شد",
		"sender": "50001515"}, token).Decode(t, &quick)
	if ad.Sender != "30001515" || !ad.Cancel11 || quick.Sender != "50001515" || quick.Cancel11 {
		t.Fatalf("advert %+v, service quick send %+v", ad, quick)
	}

	for to, want := range map[string][2]string{
		"989121235001": {"50001515", "کاربر lines کد شما 482913"},
		"989121235002": {"30001515", "حراج پاییزه\nلغو۱۱"},
		"989121235003": {"50001515", "سفارش شما ارسال شد"},
	} {
		if m := handset(e, to); m.From != want[0] || m.Text != want[1] {
			t.Fatalf("%s received %q from %s, want %q from %s", to, m.Text, m.From, want[1], want[0])
		}
	}
}

// Without a service line of its own, an account's OTP pattern goes out from the
// platform's shared service line, without the footer.
func TestOTPPatternOnSharedServiceLine(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	stok := e.Staff("sharedreviewer", "09120009916")
	token, _ := e.Account("sharedline", "09121110016", "30001616", "advertising", 10_000_000)
	code := approvedPattern(t, e, token, stok, "کاربر sharedline", "otp")
	var otp pattern.Sent
	e.Must(201, "POST", "/v1/api/patterns/send", map[string]any{"code": code, "recipient": "09121236001",
		"values": map[string]string{"code": "777"}}, token).Decode(t, &otp)
	if m := handset(e, "989121236001"); m.From != "2000" || m.Text != "کاربر sharedline کد شما 777" || otp.Sender != "2000" {
		t.Fatalf("received %q from %s (accepted %+v)", m.Text, m.From, otp)
	}
}
