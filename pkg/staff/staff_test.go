package staff_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/wallet"
)

// newAccount makes a customer account with its owner and returns the account id.
func newAccount(t *testing.T, d testenv.Database, name string) int64 {
	t.Helper()
	var acct int64
	if err := d.Pool.QueryRow(context.Background(), `WITH a AS (INSERT INTO accounts (name) VALUES ($1) RETURNING id)
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
	d := testenv.Postgres(t)
	acct := newAccount(t, d, "bounded")
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
	d := testenv.Postgres(t)
	acct := newAccount(t, d, "operated")
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
