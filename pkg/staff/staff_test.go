package staff_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// newAccount makes a customer account with its owner (of the account's name) and
// returns the account id.
func newAccount(t *testing.T, name string) int64 {
	t.Helper()
	var acct int64
	if err := shared.DB.Pool.QueryRow(context.Background(), `WITH a AS (INSERT INTO accounts (name) VALUES ($1) RETURNING id)
		INSERT INTO users (account_id, username, password_hash, mobile, is_owner)
		SELECT id, $1, 'x', '989120000000', true FROM a RETURNING account_id`, name).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	return acct
}

// One staff adjustment is capped (a setting) with a Persian 422, both ways, and a
// balance sum that would not fit the ledger's integers is refused, not wrapped:
// the 9e18 adjustment followed by another no longer overflows into a 500.
func TestCreditAdjustmentIsBounded(t *testing.T) {
	ctx := context.Background()
	d := shared.DB
	acct := newAccount(t, "bounded")
	svc := staff.New(d.Pool)
	by := acl.Identity{UserID: 0, Username: "staffer"}
	for _, amount := range []int64{9_000_000_000_000_000_000, staff.DefaultMaxAdjust + 1, -staff.DefaultMaxAdjust - 1, math.MinInt64} {
		_, err := svc.AdjustCredit(ctx, by, acct, staff.Adjust{Amount: amount, Reason: "r"}, "")
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.Invalid || len(e.Fields["amount"]) == 0 {
			t.Fatalf("adjustment of %d: %v", amount, err)
		}
	}
	if bal, err := svc.AdjustCredit(ctx, by, acct, staff.Adjust{Amount: staff.DefaultMaxAdjust, Reason: "r"}, ""); err != nil || bal != staff.DefaultMaxAdjust {
		t.Fatalf("adjustment at the cap: %d %v", bal, err)
	}
	svc.MaxAdjust = 5
	if _, err := svc.AdjustCredit(ctx, by, acct, staff.Adjust{Amount: 6, Reason: "r"}, ""); err == nil {
		t.Fatal("adjustment above the configured cap accepted")
	}
	// The wallet itself refuses a sum past int64, whoever asks.
	if _, err := d.Pool.Exec(ctx, `UPDATE wallets SET balance = $2 WHERE account_id = $1`, acct, int64(math.MaxInt64-10)); err != nil {
		t.Fatal(err)
	}
	err := pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
		_, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: acct, Kind: wallet.Deposit, Amount: 11})
		return err
	})
	if !errors.Is(err, wallet.ErrOutOfRange) {
		t.Fatalf("overflowing deposit: %v", err)
	}
	if n, err := wallet.Spendable(ctx, d.Pool, acct); err != nil || n != math.MaxInt64-10 {
		t.Fatalf("spendable near the top: %d %v", n, err)
	}
	if _, err := d.Pool.Exec(ctx, `UPDATE wallets SET credit_limit = 100 WHERE account_id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	if n, err := wallet.Spendable(ctx, d.Pool, acct); err != nil || n != math.MaxInt64 {
		t.Fatalf("spendable with a limit near the top: %d %v", n, err)
	}
}

// `api admin credit` leaves an audit entry naming the operator's command line, in
// the transaction of its ledger row.
func TestOperatorCreditIsAudited(t *testing.T) {
	ctx := context.Background()
	d := shared.DB
	acct := newAccount(t, "operated")
	bal, err := staff.New(d.Pool).OperatorCredit(ctx, acct, 5000, "operated")
	if err != nil || bal != 5000 {
		t.Fatalf("operator credit: %d %v", bal, err)
	}
	var actor string
	var amount int64
	if err := d.Pool.QueryRow(ctx, `SELECT details->>'actor', (details->>'amount')::bigint FROM audit_log
		WHERE account_id = $1 AND action = 'staff.credit_adjust'`, acct).Scan(&actor, &amount); err != nil {
		t.Fatalf("no audit entry: %v", err)
	}
	if actor != staff.OperatorActor || amount != 5000 {
		t.Fatalf("audit entry %q %d", actor, amount)
	}
	if _, err := staff.New(d.Pool).OperatorCredit(ctx, acct, 0, "operated"); err == nil {
		t.Fatal("zero credit accepted")
	}
}

// Staff find an account by part of its name; a credit adjustment needs an amount and
// a reason, and is one admin-credit ledger entry of the staff member, audited on the
// account, that moves the balance. Suspending closes the sessions of every user of
// the account (Revoke) and is audited; reactivating resumes it; other statuses are
// refused.
func TestStaffAdjustCreditAndSuspend(t *testing.T) {
	r := newRig(t, "support2", "09120009904")
	ctx, svc, by := r.ctx, r.svc, r.by
	acct := newAccount(t, "bakery")
	rows, _, err := svc.Accounts(ctx, "bake", validate.Paging{Page: 1, Limit: 20})
	if err != nil || len(rows) != 1 || rows[0].ID != acct {
		t.Fatalf("search: %+v %v", rows, err)
	}
	_, err = svc.AdjustCredit(ctx, by, acct, staff.Adjust{Amount: 0, Reason: " "}, "")
	refused(t, "an empty adjustment", err, apperr.Invalid, "amount", "reason")
	for _, a := range []staff.Adjust{{Amount: 70_000, Reason: "جبران"}, {Amount: -20_000, Reason: "اصلاح"}} {
		if _, err := svc.AdjustCredit(ctx, by, acct, a, ""); err != nil {
			t.Fatal(err)
		}
	}
	var kinds, users, sum int64
	if err := shared.DB.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE kind = 'admin_credit'),
		count(*) FILTER (WHERE user_id = $2), sum(amount) FROM ledger WHERE account_id = $1`, acct, by.UserID).Scan(&kinds, &users, &sum); err != nil {
		t.Fatal(err)
	}
	if kinds != 2 || users != 2 || sum != 50_000 {
		t.Fatalf("ledger: %d admin entries, %d by staff, sum %d", kinds, users, sum)
	}
	if a, err := svc.Account(ctx, acct); err != nil || a.Balance != 50_000 {
		t.Fatalf("account %+v %v", a, err)
	}
	if n := count(t, `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action = 'staff.credit_adjust'`, acct); n != 2 {
		t.Fatalf("audited %d", n)
	}
	refused(t, "an unknown status", svc.SetStatus(ctx, by, acct, "closed", ""), apperr.Invalid, "status")
	if err := svc.SetStatus(ctx, by, acct, "suspended", ""); err != nil {
		t.Fatal(err)
	}
	owners := testenv.Column[int64](t, shared.DB, `SELECT id FROM users WHERE account_id = $1 ORDER BY id`, acct)
	if a, _ := svc.Account(ctx, acct); a.Status != "suspended" || !slices.Equal(r.revoked, owners) {
		t.Fatalf("suspended account %+v, revoked %v of %v", a, r.revoked, owners)
	}
	if err := svc.SetStatus(ctx, by, acct, "active", ""); err != nil {
		t.Fatal(err)
	}
	if a, _ := svc.Account(ctx, acct); a.Status != "active" || len(r.revoked) != len(owners) {
		t.Fatalf("reactivated account %+v, revoked %v", a, r.revoked)
	}
	if n := count(t, `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action IN ('staff.account_suspended',
		'staff.account_active') AND details->>'staff' = 'support2'`, acct); n != 2 {
		t.Fatalf("status changes audited %d", n)
	}
}

// Staff give an account a sender line (in any digits, made its default) and its own
// tariff; a bad number or kind, a number another account holds, an unknown operator
// and a negative price are refused; the account's tariffs show its own beside the
// defaults; both changes are audited.
func TestStaffLinesAndTariffs(t *testing.T) {
	r := newRig(t, "support4", "09120009905")
	ctx, svc, by := r.ctx, r.svc, r.by
	a, b := newAccount(t, "tailor"), newAccount(t, "cobbler")
	_, err := svc.AssignLine(ctx, by, a, staff.LineInput{Number: "12", Kind: "x"}, "")
	refused(t, "a bad line", err, apperr.Invalid, "number", "kind")
	if _, err := svc.AssignLine(ctx, by, a, staff.LineInput{Number: "۳۰۰۰۹۹۱۱", Kind: "service", Default: true}, ""); err != nil {
		t.Fatal(err)
	}
	_, err = svc.AssignLine(ctx, by, b, staff.LineInput{Number: "30009911", Kind: "service"}, "")
	refused(t, "another account's number", err, apperr.Conflict)
	if n := count(t, `SELECT count(*) FROM lines WHERE account_id = $1 AND number = '30009911' AND is_default`, a); n != 1 {
		t.Fatal("line not assigned")
	}
	refused(t, "an unknown operator", svc.SetTariff(ctx, by, a, staff.Tariff{Operator: "nope", PartPrice: 100}, ""), apperr.Invalid, "operator")
	refused(t, "a negative price", svc.SetTariff(ctx, by, a, staff.Tariff{Operator: "mci", PartPrice: -1}, ""), apperr.Invalid, "part_price")
	if err := svc.SetTariff(ctx, by, a, staff.Tariff{Operator: "mci", PartPrice: 150, SendFee: 10}, ""); err != nil {
		t.Fatal(err)
	}
	ts, err := svc.Tariffs(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, tr := range ts {
		if tr.Own {
			own++
			if tr.Operator != "mci" || tr.PartPrice != 150 || tr.SendFee != 10 {
				t.Fatalf("tariff %+v", tr)
			}
		}
	}
	if own != 1 || len(ts) < 3 {
		t.Fatalf("tariffs %+v", ts)
	}
	if n := count(t, `SELECT count(*) FROM audit_log WHERE account_id = $1 AND action IN ('staff.line_assigned', 'staff.tariff_set')`, a); n != 2 {
		t.Fatalf("audited %d", n)
	}
}
