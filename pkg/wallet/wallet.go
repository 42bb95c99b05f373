// Package wallet is the only writer of account balances. Every change is one row of
// an append-only ledger (deposits, admin credit, holds, releases, charges, refunds)
// written in the same transaction as the balance and the business change that
// caused it. Amounts are integer rials. A ledger row with a reference is written at
// most once, so retried tasks never move money twice. No debit takes a balance below
// the account's credit limit (0 unless an operator grants one); the database refuses
// it too (wallets_balance_floor).
package wallet

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
)

// Kinds of ledger rows.
const (
	Deposit     = "deposit"
	AdminCredit = "admin_credit"
	Gift        = "gift"
	Hold        = "hold"
	Release     = "release"
	Charge      = "charge"
	Refund      = "refund"
)

// ErrInsufficient is returned when a debit exceeds the balance and the credit limit.
var ErrInsufficient = apperr.New(apperr.PaymentRequired, apperr.MsgLowCredit).WithCode("low-credit")

// MsgOutOfRange refuses a movement whose amount or resulting balance does not fit
// the ledger's integer rials.
const MsgOutOfRange = "مبلغ یا موجودی حاصل از حد مجاز کیف پول بیشتر است"

// ErrOutOfRange is returned (422) when a movement would overflow the balance.
var ErrOutOfRange = apperr.Field("amount", MsgOutOfRange).WithCode("amount-out-of-range")

// Add returns balance+amount, or ErrOutOfRange when the sum does not fit an int64.
// Every balance sum goes through it, so no arithmetic on money wraps around.
func Add(balance, amount int64) (int64, error) {
	if (amount > 0 && balance > math.MaxInt64-amount) || (amount < 0 && balance < math.MinInt64-amount) {
		return 0, ErrOutOfRange
	}
	return balance + amount, nil
}

// Entry is one money movement. Amount is signed: positive credits the account.
type Entry struct {
	AccountID   int64
	Kind        string
	Amount      int64
	SendID      int64
	Ref         string // when set, the movement happens once per account and ref
	Description string
	UserID      int64
}

// Querier is a transaction (or pool) that money moves in.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Apply writes one ledger row and moves the balance, inside tx. It returns the new
// balance and whether the row was written (false when its ref was already applied).
func Apply(ctx context.Context, tx Querier, e Entry) (balance int64, applied bool, err error) {
	if e.Amount == 0 {
		// Nothing moves (a send closed with nothing to refund, settled at its
		// quote): no ledger row, so no lock on the wallet, which every send and
		// one-time code of the account takes.
		if err := tx.QueryRow(ctx, `SELECT coalesce((SELECT balance FROM wallets WHERE account_id = $1), 0)`,
			e.AccountID).Scan(&balance); err != nil {
			return 0, false, fmt.Errorf("read wallet: %w", err)
		}
		return balance, false, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO wallets (account_id) VALUES ($1) ON CONFLICT DO NOTHING`, e.AccountID); err != nil {
		return 0, false, fmt.Errorf("ensure wallet: %w", err)
	}
	var limit int64
	if err := tx.QueryRow(ctx, `SELECT balance, credit_limit FROM wallets WHERE account_id = $1 FOR UPDATE`,
		e.AccountID).Scan(&balance, &limit); err != nil {
		return 0, false, fmt.Errorf("lock wallet: %w", err)
	}
	if e.Ref != "" {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ledger WHERE account_id = $1 AND ref = $2 AND ref <> '')`, e.AccountID, e.Ref).Scan(&exists); err != nil {
			return 0, false, fmt.Errorf("ledger ref: %w", err)
		}
		if exists {
			return balance, false, nil
		}
	}
	next, err := Add(balance, e.Amount)
	if err != nil {
		return balance, false, err
	}
	if e.Amount < 0 && next < -limit {
		return balance, false, ErrInsufficient
	}
	if _, err := tx.Exec(ctx, `UPDATE wallets SET balance = $2, updated_at = now() WHERE account_id = $1`, e.AccountID, next); err != nil {
		return 0, false, fmt.Errorf("update wallet: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO ledger (account_id, kind, amount, balance_after, send_id, ref, description, user_id)
		VALUES ($1, $2, $3, $4, nullif($5, 0), $6, $7, nullif($8, 0))`,
		e.AccountID, e.Kind, e.Amount, next, e.SendID, e.Ref, e.Description, e.UserID); err != nil {
		return 0, false, fmt.Errorf("insert ledger: %w", err)
	}
	return next, true, nil
}

// Spendable returns what the account may still debit, read through q without a
// lock: the balance plus the credit limit (0 when it has no wallet yet). A debit
// decided on it is checked again, under the wallet lock, by Apply.
func Spendable(ctx context.Context, q Querier, accountID int64) (int64, error) {
	var n int64
	// Summed in numeric and capped, so a balance near the top never overflows.
	err := q.QueryRow(ctx, `SELECT least(balance::numeric + credit_limit, 9223372036854775807)::bigint
		FROM wallets WHERE account_id = $1`, accountID).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("spendable credit: %w", err)
	}
	return n, nil
}

// Service reads balances and runs stand-alone movements.
type Service struct {
	pool *pgxpool.Pool
}

// New returns the wallet service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// Balance returns the account's credit in rials.
func (s *Service) Balance(ctx context.Context, accountID int64) (int64, error) {
	var b int64
	err := s.pool.QueryRow(ctx, `SELECT balance FROM wallets WHERE account_id = $1`, accountID).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("balance: %w", err)
	}
	return b, nil
}

// Credit adds money (a deposit, an admin credit or a gift) in its own transaction.
func (s *Service) Credit(ctx context.Context, e Entry) (int64, error) {
	if e.Amount <= 0 {
		return 0, apperr.Field("amount", "مبلغ باید بیشتر از صفر باشد")
	}
	var bal int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		bal, _, err = Apply(ctx, tx, e)
		return err
	})
	return bal, err
}

// Check verifies the ledger of an account: the balance equals the sum of its rows.
func (s *Service) Check(ctx context.Context, accountID int64) (balance, sum int64, err error) {
	err = s.pool.QueryRow(ctx, `SELECT coalesce((SELECT balance FROM wallets WHERE account_id = $1), 0),
		coalesce((SELECT sum(amount) FROM ledger WHERE account_id = $1), 0)`, accountID).Scan(&balance, &sum)
	if err != nil {
		return 0, 0, fmt.Errorf("check ledger: %w", err)
	}
	return balance, sum, nil
}
