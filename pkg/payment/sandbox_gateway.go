package payment

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// SandboxGateway is the Gateway of the built-in sandbox bank.
type SandboxGateway struct {
	Bank *sandbox.Bank
}

// NewSandbox returns the sandbox gateway. Its signing key is derived from secret;
// sessions live for ttl.
func NewSandbox(pool *pgxpool.Pool, secret string, ttl time.Duration) SandboxGateway {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("sandbox-bank-callback"))
	return SandboxGateway{Bank: sandbox.New(pool, m.Sum(nil), ttl)}
}

// Name implements Gateway.
func (SandboxGateway) Name() string { return "sandbox" }

// Create implements Gateway.
func (g SandboxGateway) Create(ctx context.Context, total int64, callback, description string) (string, string, error) {
	a, err := g.Bank.Request(ctx, total, callback, description)
	if err != nil {
		return "", "", err
	}
	return a, g.Bank.PayURL(a), nil
}

// ParseCallback implements Gateway.
func (g SandboxGateway) ParseCallback(q url.Values) (Callback, error) {
	c, err := g.Bank.ParseCallback(q)
	if err != nil {
		return Callback{}, ErrBadCallback
	}
	return Callback{Authority: c.Authority, OK: c.OK, Amount: c.Amount}, nil
}

// Verify implements Gateway.
func (g SandboxGateway) Verify(ctx context.Context, t Txn, total int64) (Result, error) {
	s, err := g.Bank.Verify(ctx, t.Authority, total)
	if errors.Is(err, sandbox.ErrAmountMismatch) {
		return Result{}, ErrAmountMismatch
	}
	if err != nil {
		return Result{}, err
	}
	return result(s), nil
}

// Inquire implements Gateway.
func (g SandboxGateway) Inquire(ctx context.Context, t Txn) (Result, error) {
	s, err := g.Bank.Inquire(ctx, t.Authority)
	if err != nil {
		return Result{}, err
	}
	r := result(s)
	if s.State == sandbox.Paid { // paid, not yet verified: the merchant must verify
		r.Outcome = OutcomePending
	}
	return r, nil
}

// Reverse implements Gateway.
func (g SandboxGateway) Reverse(ctx context.Context, t Txn) error {
	return g.Bank.Reverse(ctx, t.Authority)
}

func result(s sandbox.Session) Result {
	switch s.State {
	case sandbox.Verified:
		return Result{Outcome: OutcomePaid, RefID: s.RefID}
	case sandbox.Failed, sandbox.Canceled:
		return Result{Outcome: OutcomeFailed}
	case sandbox.Taken, sandbox.Reversed:
		return Result{Outcome: OutcomeTaken}
	case sandbox.Expired:
		return Result{Outcome: OutcomeExpired}
	}
	return Result{Outcome: OutcomePending}
}
