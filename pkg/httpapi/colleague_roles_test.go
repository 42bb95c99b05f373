package httpapi_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/colleague"
)

// A colleague who manages partners may only edit or delete roles whose permissions
// they hold themselves (issue 38 item 13): they cannot narrow a broader role and then
// deactivate its holders, nor delete a broader role. The owner still can.
func TestColleagueCannotRewriteBroaderRole(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "roles", "09121238831")
	manager := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121238832",
		makeRole(t, e, tok, "مدیر همکاران", acl.PartnerManage, acl.ReportView)))
	admin := makeRole(t, e, tok, "مدیر ارشد", acl.PartnerManage, acl.ReportView, acl.SendCreate, acl.WalletPay)
	spare := makeRole(t, e, tok, "مالی", acl.WalletPay)
	holder := inviteColleague(t, e, tok, "09121238833", admin)

	r := e.Must(403, "POST", "/v1/api/acl/partner/update_role", map[string]any{"id": admin, "name": "گزارش",
		"permissions": []acl.Permission{acl.ReportView}}, manager)
	if r.Meta.Message == "" {
		t.Fatalf("no message: %s", r.Raw)
	}
	e.Must(403, "POST", "/v1/api/acl/partner/delete_role", map[string]any{"id": spare}, manager)
	e.Must(403, "POST", "/v1/api/user/partner/deactive", map[string]any{"id": holder.ID}, manager)
	var role colleague.Role
	e.Must(200, "GET", fmt.Sprintf("/v1/api/acl/partner/show_role/%d", admin), nil, tok).Decode(t, &role)
	if !slices.Contains(role.Permissions, acl.SendCreate) {
		t.Fatalf("the broader role was rewritten: %+v", role)
	}
	if got := status(t, e, tok, holder.ID); got != colleague.StatusPending {
		t.Fatalf("the broader role's holder: %s", got)
	}
	// A role within the manager's own permissions stays theirs to edit.
	narrow := makeRole(t, e, tok, "گزارش‌گیر", acl.ReportView)
	e.Must(200, "POST", "/v1/api/acl/partner/update_role", map[string]any{"id": narrow, "name": "گزارش",
		"permissions": []acl.Permission{acl.ReportView}}, manager)
	e.Must(200, "POST", "/v1/api/acl/partner/delete_role", map[string]any{"id": spare}, tok)
}
