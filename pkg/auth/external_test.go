package auth_test

import (
	"errors"
	"testing"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/staff"
)

// issue makes an external-login code of the identity's own user and checks its link.
func (r *rig) issue(id acl.Identity) auth.ExternalCode {
	r.t.Helper()
	ec, err := r.svc.IssueExternalCode(r.ctx, id, 0, r.c)
	if err != nil || ec.Code == "" || ec.Path != "/external-login?code="+ec.Code || ec.ExpiresIn != int(r.cfg.ExternalLoginTTL.Seconds()) {
		r.t.Fatalf("issued %+v %v", ec, err)
	}
	return ec
}

// externalRefused expects a code refused at the preview and at the exchange.
func (r *rig) externalRefused(what, code string) {
	r.t.Helper()
	_, err := r.svc.PreviewExternal(r.ctx, code, r.c)
	refused(r.t, what+" previewed", err, apperr.Unauthorized, auth.CodeExternalInvalid)
	_, err = r.svc.ExchangeExternal(r.ctx, code, r.c)
	refused(r.t, what+" exchanged", err, apperr.Unauthorized, auth.CodeExternalInvalid)
}

// An external-login link carries a single-use server code, never a session token; the
// preview names the account before anything is stored (twice is harmless), and the
// code opens one session of its user; issue and use are audited.
func TestExternalLoginCode(t *testing.T) {
	r := newRig(t, "10.7.0.1", nil)
	id := r.signIn("farid", "09121230000")
	ec := r.issue(id)
	for range 2 {
		acct, err := r.svc.PreviewExternal(r.ctx, ec.Code, r.c)
		if err != nil || acct.Username != "farid" || acct.Name != "کاربر farid" || acct.AccountName == "" {
			t.Fatalf("preview: %+v %v", acct, err)
		}
	}
	tok, err := r.svc.ExchangeExternal(r.ctx, ec.Code, r.c)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.identity(tok); got.Username != "farid" || got.SessionID == id.SessionID {
		t.Fatalf("session of %+v", got)
	}
	r.externalRefused("a used code", ec.Code)
	_, err = r.svc.ExchangeExternal(r.ctx, tok, r.c)
	refused(t, "a session token as a code", err, apperr.Unauthorized, auth.CodeExternalInvalid)
	if n := audits(t, "farid", "auth.external_issued") + audits(t, "farid", "auth.external_login"); n != 2 {
		t.Fatalf("audit rows %d", n)
	}
}

// Codes expire, and a code for another user is issued only for a user of the
// caller's own account: another account's user is not found.
func TestExternalLoginCodeExpiresAndScope(t *testing.T) {
	r := newRig(t, "10.7.0.2", nil)
	owner := r.signIn("owner9", "09121230001")
	stranger := r.signIn("stranger", "09121230002")
	ec := r.issue(owner)
	if _, err := shared.DB.Pool.Exec(r.ctx, `UPDATE challenges SET expires_at = now() - interval '1 second'
		WHERE purpose = 'external' AND user_id = $1`, owner.UserID); err != nil {
		t.Fatal(err)
	}
	r.externalRefused("an expired code", ec.Code)
	if _, err := r.svc.IssueExternalCode(r.ctx, owner, stranger.UserID, r.c); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a code for another account's user: %v", err)
	}
}

// Staff log in only at the back office's door, always with the second step, and
// customers only at theirs. Staff open a customer's panel through a one-time
// external-login code; the customer's audit log and the session name the staff
// member; a customer cannot issue such a code.
func TestStaffImpersonation(t *testing.T) {
	r := newRig(t, "10.7.0.3", nil)
	const staffMobile = "09120009903"
	if _, err := staff.AddUser(r.ctx, shared.DB.Pool, staff.NewUser{Username: "support3", Password: pw, Name: "پشتیبان",
		Mobile: staffMobile}); err != nil {
		t.Fatal(err)
	}
	customer := r.signIn("florist", "09121239003")
	_, err := r.svc.Login(r.ctx, "support3", pw, r.c)
	refused(t, "staff at the customers' door", err, apperr.Unauthorized, "")
	_, err = r.svc.LoginStaff(r.ctx, "florist", pw, r.c)
	refused(t, "a customer at the staff door", err, apperr.Unauthorized, "")
	lr, err := r.svc.LoginStaff(r.ctx, "support3", pw, r.c)
	if err != nil || !lr.OTPRequired || lr.Token != "" {
		t.Fatalf("staff login without the second step: %+v %v", lr, err)
	}
	support := r.identity(r.confirm(lr, r.code(staffMobile)))
	ec, err := r.svc.IssueStaffExternalCode(r.ctx, support, customer.AccountID, r.c)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := r.svc.ExchangeExternal(r.ctx, ec.Code, r.c)
	if err != nil || r.identity(tok).Username != "florist" {
		t.Fatalf("impersonated session: %v", err)
	}
	r.externalRefused("a used staff code", ec.Code)
	if n := count(t, `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action IN ('staff.impersonate_issued',
		'auth.impersonated') AND details->>'staff' = 'support3'`, customer.AccountID); n != 2 {
		t.Fatalf("audit rows %d", n)
	}
	if n := count(t, `SELECT count(*) FROM sessions WHERE user_id = $1 AND impersonated_by = 'support3'`, customer.UserID); n != 1 {
		t.Fatalf("%d sessions impersonated by support3", n)
	}
	if _, err := r.svc.IssueStaffExternalCode(r.ctx, customer, customer.AccountID, r.c); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a customer's staff code: %v", err)
	}
}
