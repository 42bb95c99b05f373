package httpapi_test

import (
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/profile"
)

// The owner's personal identity (national code, birth date…) is the owner's alone
// (issue 38 item 22): a colleague without the profile permission reads no details at
// all, one with it reads the contact and address but not the personal fields, and
// neither may rewrite the personal section.
func TestColleaguesDoNotReadOwnersIdentity(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "private", "09121238821")
	e.Must(200, "POST", "/v1/api/user/update_profile", map[string]any{"person_type": "real", "details": realDetails()}, tok)
	support := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121238822", makeRole(t, e, tok, "پشتیبان", acl.SupportManage)))
	editor := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121238823", makeRole(t, e, tok, "پروفایل", acl.ProfileManage)))

	var p profile.Profile
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, support).Decode(t, &p)
	if p.Details != (profile.Details{}) || p.IsOwner {
		t.Fatalf("a support colleague reads the profile: %+v", p.Details)
	}
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, editor).Decode(t, &p)
	if p.Details.NationalCode != "" || p.Details.BirthDate != "" || p.Details.Gender != "" || p.Details.Email != "sara@example.ir" {
		t.Fatalf("a profile colleague's view: %+v", p.Details)
	}
	r := e.Must(403, "POST", "/v1/api/user/update_profile", map[string]any{"section": "personal", "person_type": "real",
		"details": realDetails()}, editor)
	if r.Meta.MessageCode != profile.CodePersonalOwnerOnly || r.Meta.Message != profile.MsgPersonalOwnerOnly {
		t.Fatalf("a colleague rewrites the personal section: %s", r.Raw)
	}
	e.Must(200, "POST", "/v1/api/user/update_profile", map[string]any{"section": "contact",
		"details": map[string]any{"email": "office@example.ir", "city_code": "021", "landline": "88776655"}}, editor)
	e.Must(200, "GET", "/v1/api/user/show_profile", nil, tok).Decode(t, &p)
	if p.Details.NationalCode != "0499370899" || p.Details.BirthDate != "1370/05/12" || p.Details.Email != "office@example.ir" {
		t.Fatalf("the owner's profile: %+v", p.Details)
	}
}
