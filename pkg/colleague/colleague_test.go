package colleague_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/colleague"
)

// Guessing invitation codes is throttled per address, a code dies after five wrong
// tries, and re-sending invitations respects the mobile's daily cap of codes.
func TestInvitationLimits(t *testing.T) {
	r := newRig(t, colleague.Limits{PerIPPerMin: 6, PerNumberToday: 2})
	c := r.invite("09121230032", r.role("گزارش", acl.ReportView))
	code := r.lastCode(c.Mobile)
	wrong := colleague.AcceptInput{Username: c.Username, Code: "000000", Password: "Colleague@123", PasswordConfirmation: "Colleague@123"}
	if code == wrong.Code {
		wrong.Code = "111111"
	}
	for range 5 {
		refusedAs(t, "wrong code", r.svc.AcceptInvite(r.ctx, wrong, "10.0.0.3"), apperr.Invalid, colleague.CodeInviteWrong)
	}
	wrong.Code = code // the right code, too late: the invitation is used up
	refusedAs(t, "right code after five wrong", r.svc.AcceptInvite(r.ctx, wrong, "10.0.0.3"), apperr.Invalid, colleague.CodeInviteWrong)
	refusedAs(t, "seventh try a minute", r.svc.AcceptInvite(r.ctx, wrong, "10.0.0.3"), apperr.RateLimited, "")
	if err := r.svc.ResendInvite(r.ctx, r.owner, c.ID, ""); err != nil { // second code today
		t.Fatal(err)
	}
	refusedAs(t, "third code today", r.svc.ResendInvite(r.ctx, r.owner, c.ID, ""), apperr.RateLimited, "")
	wrong.Code = r.lastCode(c.Mobile)
	if err := r.svc.AcceptInvite(r.ctx, wrong, "10.0.0.4"); err != nil {
		t.Fatalf("the resent code: %v", err)
	}
}

// No colleague before a role; the form's national id and mobile are checked; an
// invited colleague is pending under their mobile as username; the texted code sets
// their password and a wrong one is refused; a role in use is not deleted; a role's
// new permissions are its colleagues' at once; a copied role is «کپی …».
func TestColleagueLifecycle(t *testing.T) {
	r := newRig(t, colleague.Limits{})
	_, err := r.svc.Create(r.ctx, r.owner, input("09121230002", 1), "")
	refusedAs(t, "colleague before any role", err, apperr.Invalid, colleague.CodeNoRoleYet)
	roleID := r.role("گزارش‌گیر", acl.ReportView)
	_, err = r.svc.Create(r.ctx, r.owner, colleague.Input{Name: "x", Mobile: "0912", NationalID: "0012345678", RoleID: roleID}, "")
	if e, ok := apperr.As(err); !ok || len(e.Fields["national_id"]) == 0 || len(e.Fields["mobile"]) == 0 {
		t.Fatalf("bad national id and mobile: %v", err)
	}
	c := r.invite("09121230002", roleID)
	if c.Status != colleague.StatusPending || c.Username != "09121230002" || !slices.Equal(c.Perms, []acl.Permission{acl.ReportView}) {
		t.Fatalf("invited colleague: %+v", c)
	}
	accept := colleague.AcceptInput{Username: c.Username, Code: "000000", Password: "Colleague@123", PasswordConfirmation: "Colleague@123"}
	refusedAs(t, "wrong invitation code", r.svc.AcceptInvite(r.ctx, accept, "10.0.0.1"), apperr.Invalid, colleague.CodeInviteWrong)
	accept.Code = r.lastCode(c.Mobile)
	if err := r.svc.AcceptInvite(r.ctx, accept, "10.0.0.1"); err != nil {
		t.Fatalf("accept: %v", err)
	}
	if got := r.show(c.ID); got.Status != colleague.StatusPending {
		t.Fatalf("pending until the first login, got %s", got.Status)
	}
	refusedAs(t, "delete a role in use", r.svc.DeleteRole(r.ctx, r.owner, roleID, ""), apperr.Conflict, colleague.CodeRoleInUse)
	if _, err := r.svc.UpdateRole(r.ctx, r.owner, colleague.RoleInput{ID: roleID, Name: "دفترچه",
		Permissions: []acl.Permission{acl.PhonebookView}}, ""); err != nil {
		t.Fatal(err)
	}
	if got := r.show(c.ID); !slices.Equal(got.Perms, []acl.Permission{acl.PhonebookView}) || got.RoleName != "دفترچه" {
		t.Fatalf("after the role's change: %+v", got)
	}
	cp, err := r.svc.CopyRole(r.ctx, r.owner, roleID, "")
	if err != nil || cp.Name != "کپی دفترچه" || !slices.Equal(cp.Permissions, []acl.Permission{acl.PhonebookView}) {
		t.Fatalf("copied role: %+v %v", cp, err)
	}
	r.ok("DeleteRole", r.svc.DeleteRole(r.ctx, r.owner, cp.ID, ""))
}

// A colleague who may manage partners cannot widen the role they act through, grant
// what they lack, or change their own user; what they hold they may hand on.
func TestColleagueCannotRaiseOwnRole(t *testing.T) {
	r := newRig(t, colleague.Limits{})
	mine := r.role("مدیر همکاران", acl.PartnerManage, acl.ReportView)
	wide := r.role("ارسال", acl.SendCreate)
	c := r.invite("09121230012", mine)
	me, ctx := r.as(c), r.ctx
	in := input("09121230012", wide)
	in.ID = c.ID
	refused := map[string]func() error{
		"widen own role": func() error {
			_, err := r.svc.UpdateRole(ctx, me, colleague.RoleInput{ID: mine, Name: "مدیر همکاران",
				Permissions: []acl.Permission{acl.PartnerManage, acl.ReportView, acl.SendCreate}}, "")
			return err
		},
		"narrow own role": func() error {
			_, err := r.svc.UpdateRole(ctx, me, colleague.RoleInput{ID: mine, Name: "x", Permissions: []acl.Permission{acl.ReportView}}, "")
			return err
		},
		"delete own role": func() error { return r.svc.DeleteRole(ctx, me, mine, "") },
		"create a wider role": func() error {
			_, err := r.svc.CreateRole(ctx, me, colleague.RoleInput{Name: "بیشتر", Permissions: []acl.Permission{acl.SendCreate}}, "")
			return err
		},
		"copy a wider role":      func() error { _, err := r.svc.CopyRole(ctx, me, wide, ""); return err },
		"give self a wider role": func() error { _, err := r.svc.Update(ctx, me, in, ""); return err },
		"change own user": func() error {
			in.RoleID = mine
			_, err := r.svc.Update(ctx, me, in, "")
			return err
		},
		"invite with a wider role": func() error { _, err := r.svc.Create(ctx, me, input("09121230013", wide), ""); return err },
		"deactivate self":          func() error { return r.svc.Deactivate(ctx, me, c.ID, "") },
	}
	for what, do := range refused {
		refusedAs(t, what, do(), apperr.Forbidden, "")
	}
	if got := r.show(c.ID); got.RoleID != mine || slices.Contains(got.Perms, acl.SendCreate) || got.Status != colleague.StatusPending {
		t.Fatalf("the colleague raised their role: %+v", got)
	}
	if _, err := r.svc.CreateRole(ctx, me, colleague.RoleInput{Name: "فقط گزارش", Permissions: []acl.Permission{acl.ReportView}}, ""); err != nil {
		t.Fatalf("a role within their own permissions: %v", err)
	}
}

// A colleague who manages partners may only edit or delete roles whose permissions
// they hold themselves: they cannot narrow a broader role and then deactivate its
// holders, nor delete a broader role. The owner still can.
func TestColleagueCannotRewriteBroaderRole(t *testing.T) {
	r := newRig(t, colleague.Limits{})
	manager := r.as(r.invite("09121238832", r.role("مدیر همکاران", acl.PartnerManage, acl.ReportView)))
	admin := r.role("مدیر ارشد", acl.PartnerManage, acl.ReportView, acl.SendCreate, acl.WalletPay)
	spare := r.role("مالی", acl.WalletPay)
	holder := r.invite("09121238833", admin)
	_, err := r.svc.UpdateRole(r.ctx, manager, colleague.RoleInput{ID: admin, Name: "گزارش", Permissions: []acl.Permission{acl.ReportView}}, "")
	refusedAs(t, "narrow a broader role", err, apperr.Forbidden, "")
	refusedAs(t, "delete a broader role", r.svc.DeleteRole(r.ctx, manager, spare, ""), apperr.Forbidden, "")
	refusedAs(t, "deactivate a broader holder", r.svc.Deactivate(r.ctx, manager, holder.ID, ""), apperr.Forbidden, "")
	if role, err := r.svc.Role(r.ctx, r.owner, admin); err != nil || !slices.Contains(role.Permissions, acl.SendCreate) {
		t.Fatalf("the broader role was rewritten: %+v %v", role, err)
	}
	if got := r.show(holder.ID); got.Status != colleague.StatusPending {
		t.Fatalf("the broader role's holder: %s", got.Status)
	}
	narrow := r.role("گزارش‌گیر", acl.ReportView)
	if _, err := r.svc.UpdateRole(r.ctx, manager, colleague.RoleInput{ID: narrow, Name: "گزارش",
		Permissions: []acl.Permission{acl.ReportView}}, ""); err != nil {
		t.Fatalf("a role within the manager's permissions: %v", err)
	}
	if err := r.svc.DeleteRole(r.ctx, r.owner, spare, ""); err != nil {
		t.Fatalf("the owner deletes the broader role: %v", err)
	}
}

// Deactivating a colleague disables them, runs the deactivation hook inside its
// transaction (what it reports goes into the owner's audit entry) and revokes their
// sessions; reactivating makes them pending again until they have logged in once,
// active when they have.
func TestDeactivateAndActivate(t *testing.T) {
	r := newRig(t, colleague.Limits{})
	c := r.invite("09121230022", r.role("گزارش", acl.ReportView))
	var hooked int64
	r.svc.OnDeactivate = func(ctx context.Context, tx pgx.Tx, accountID, userID int64) (map[string]any, error) {
		var status string
		if err := tx.QueryRow(ctx, `SELECT status FROM users WHERE id = $1`, userID).Scan(&status); err != nil || status != colleague.StatusDisabled {
			t.Errorf("the hook sees the colleague %s (%v)", status, err)
		}
		hooked = userID
		return map[string]any{"scheduled_waiting": 1}, nil
	}
	if _, err := shared.DB.Pool.Exec(r.ctx, `INSERT INTO sessions (user_id, account_id, token_hash, expires_at)
		VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), now() + interval '1 hour')`, c.ID, r.owner.AccountID, t.Name()); err != nil {
		t.Fatal(err)
	}
	r.ok("Deactivate", r.svc.Deactivate(r.ctx, r.owner, c.ID, "10.0.0.2"))
	if got := r.show(c.ID); got.Status != colleague.StatusDisabled || hooked != c.ID {
		t.Fatalf("after deactivation: %s, hook told %d", got.Status, hooked)
	}
	var open int
	var waiting string
	if err := shared.DB.Pool.QueryRow(r.ctx, `SELECT (SELECT count(*) FROM sessions WHERE user_id = $1 AND revoked_at IS NULL),
		(SELECT details->>'scheduled_waiting' FROM audit_log WHERE account_id = $2 AND action = 'partner.deactivate')`,
		c.ID, r.owner.AccountID).Scan(&open, &waiting); err != nil || open != 0 || waiting != "1" {
		t.Fatalf("open sessions %d, audit note %q (%v)", open, waiting, err)
	}
	r.ok("Activate", r.svc.Activate(r.ctx, r.owner, c.ID, ""))
	if got := r.show(c.ID); got.Status != colleague.StatusActive {
		t.Fatalf("reactivated after a login: %s", got.Status)
	}
	never := r.invite("09121230023", c.RoleID)
	r.ok("Deactivate", r.svc.Deactivate(r.ctx, r.owner, never.ID, ""))
	if err := r.svc.Activate(r.ctx, r.owner, never.ID, ""); err != nil || r.show(never.ID).Status != colleague.StatusPending {
		t.Fatalf("reactivated before any login: %s %v", r.show(never.ID).Status, err)
	}
}
