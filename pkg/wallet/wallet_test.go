package wallet_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/wallet"
)

// No debit takes a balance below zero (or below an explicit credit limit), and the
// database itself refuses a negative balance written around the service.
func TestBalanceNeverBelowCreditLimit(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('floor') RETURNING id`).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	svc := wallet.New(d.Pool)
	if _, err := svc.Credit(ctx, wallet.Entry{AccountID: acct, Kind: wallet.AdminCredit, Amount: 1000}); err != nil {
		t.Fatal(err)
	}
	apply := func(amount int64) (int64, error) {
		var bal int64
		err := pgx.BeginFunc(ctx, d.Pool, func(tx pgx.Tx) error {
			var err error
			bal, _, err = wallet.Apply(ctx, tx, wallet.Entry{AccountID: acct, Kind: wallet.Charge, Amount: amount})
			return err
		})
		return bal, err
	}
	if _, err := apply(-1001); !errors.Is(err, wallet.ErrInsufficient) {
		t.Fatalf("a debit beyond the balance: %v", err)
	}
	if bal, err := apply(-1000); err != nil || bal != 0 {
		t.Fatalf("a debit of the whole balance: %d %v", bal, err)
	}
	if n, err := wallet.Spendable(ctx, d.Pool, acct); err != nil || n != 0 {
		t.Fatalf("spendable %d %v", n, err)
	}
	// Written around the service, a negative balance is refused by the database.
	_, err := d.Pool.Exec(ctx, `UPDATE wallets SET balance = -1 WHERE account_id = $1`, acct)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.ConstraintName != "wallets_balance_floor" {
		t.Fatalf("negative balance written: %v", err)
	}
	// An operator's explicit credit limit is the floor instead.
	if _, err := d.Pool.Exec(ctx, `UPDATE wallets SET credit_limit = 500 WHERE account_id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	if n, err := wallet.Spendable(ctx, d.Pool, acct); err != nil || n != 500 {
		t.Fatalf("spendable with a limit %d %v", n, err)
	}
	if _, err := apply(-501); !errors.Is(err, wallet.ErrInsufficient) {
		t.Fatalf("a debit beyond the credit limit: %v", err)
	}
	if bal, err := apply(-500); err != nil || bal != -500 {
		t.Fatalf("a debit to the credit limit: %d %v", bal, err)
	}
	if bal, sum, err := svc.Check(ctx, acct); err != nil || bal != sum || bal != -500 {
		t.Fatalf("ledger %d, balance %d (%v)", sum, bal, err)
	}
}
