package httpapi_test

import (
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/colleague"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/validate"
)

// TestInvitationsCarryNoOwnerText: an account name is at most 60 characters and
// has no link or host-like token (a Persian 422 at sign-up); the invitation SMS is
// the platform's fixed text with the code only (neither the account's name nor a
// domain-like username), the colleague accepts with their mobile number, and an
// account's invitations (new and resent) stop at the daily cap with a Persian 429.
func TestInvitationsCarryNoOwnerText(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.InvitesPerDay = 3 })
	for _, name := range []string{strings.Repeat("بانک ملی ", 170), "پشتیبانی bit.ly/x", "evil．com"} {
		r := e.Do("POST", "/v1/api/user/register", map[string]any{"name": name, "username": "longname",
			"mobile": "09121270009", "password": pw, "password_confirmation": pw, "accept_rules": true}, "")
		if r.Status != 422 || len(r.Meta.Errors["name"]) == 0 {
			t.Fatalf("account name %.40q: %d %s", name, r.Status, r.Raw)
		}
	}
	tok, _ := owner(t, e, "inviter", "09121270000")
	role := makeRole(t, e, tok, "گزارش", acl.ReportView)
	var c colleague.Colleague
	e.Must(201, "POST", "/v1/api/user/partner/create", map[string]any{"name": "همکار", "mobile": "09121270001",
		"national_id": nationalID("001270001"), "role_id": role, "username": "evil.example.com"}, tok).Decode(t, &c)
	intl, _ := validate.NormalizeMobile("09121270001")
	texts := e.Texts(intl)
	if len(texts) != 1 {
		t.Fatalf("invitation texts: %q", texts)
	}
	code := e.LastCode(intl)
	if texts[0] != colleague.InviteText(code, e.Config.PanelURL) || strings.Contains(texts[0], "evil") || strings.Contains(texts[0], "inviter") {
		t.Fatalf("invitation text carries owner text: %q", texts[0])
	}
	e.Must(200, "POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok)
	e.Must(200, "POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok)
	r := e.Do("POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok)
	if r.Status != 429 || r.Meta.Message != colleague.MsgInvitesToday {
		t.Fatalf("a fourth invitation today: %d %s", r.Status, r.Raw)
	}
	e.Must(200, "POST", "/v1/api/user/partner/accept_invite", map[string]string{"username": "09121270001",
		"code": e.LastCode(intl), "password": pw, "password_confirmation": pw}, "")
}

// TestInvitationSMSLinksToAcceptPage: the invitation SMS (new and resent) carries
// the code and the link to the panel's «پذیرش دعوت» page under PANEL_URL, and the
// colleague accepts with that code.
func TestInvitationSMSLinksToAcceptPage(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) { c.PanelURL = "https://panel.example.ir" })
	tok, _ := owner(t, e, "linkinviter", "09121271000")
	role := makeRole(t, e, tok, "گزارش", acl.ReportView)
	var c colleague.Colleague
	e.Must(201, "POST", "/v1/api/user/partner/create", map[string]any{"name": "همکار", "mobile": "09121271001",
		"national_id": nationalID("001271001"), "role_id": role, "username": "linkmate"}, tok).Decode(t, &c)
	intl, _ := validate.NormalizeMobile("09121271001")
	e.Must(200, "POST", "/v1/api/user/partner/resend_invite", map[string]any{"id": c.ID}, tok)
	texts := e.Texts(intl)
	if len(texts) != 2 {
		t.Fatalf("invitation texts: %q", texts)
	}
	for _, text := range texts {
		if !strings.Contains(text, "\nhttps://panel.example.ir/accept-invite") || !strings.HasPrefix(text, "کد دعوت همکاری چاپار: ") {
			t.Fatalf("invitation without the accept link: %q", text)
		}
	}
	code := e.LastCode(intl)
	if !strings.Contains(texts[1], code) {
		t.Fatalf("the resent invitation %q lacks its code %s", texts[1], code)
	}
	e.Must(200, "POST", "/v1/api/user/partner/accept_invite", map[string]string{"username": "09121271001",
		"code": code, "password": pw, "password_confirmation": pw}, "")
}
