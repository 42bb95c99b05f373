// Package sandbox is a built-in fake of an Iranian payment service provider (PSP),
// for development and tests where no real bank can be reached. It behaves like the
// real thing: a payment request returns an authority code and a bank page URL; the
// bank page (Persian, RTL, a plain HTML form, no script) lets the payer pay, fail,
// cancel or have the money taken while the payment fails; the bank then redirects
// the browser to the merchant's callback with a signed result; the merchant verifies
// server to server, with the amount, before it delivers anything. The bank keeps
// its own state in sandbox_bank_payments, apart from the product's tables.
package sandbox

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// States of a bank session.
const (
	Created  = "created"  // waiting for the payer
	Paid     = "paid"     // the payer paid; the merchant has not verified yet
	Failed   = "failed"   // the payment failed, nothing was taken
	Canceled = "canceled" // the payer canceled
	Taken    = "taken"    // the payment failed but the payer's money was taken
	Verified = "verified" // paid and verified by the merchant
	Reversed = "reversed" // taken money returned to the payer
	Expired  = "expired"  // reported by Inquire for a created session past its lifetime
)

// PathPrefix is where the API serves the bank page.
const PathPrefix = "/sandbox-bank/pay/"

// Errors of the bank API.
var (
	ErrUnknown        = errors.New("sandbox bank: unknown authority")
	ErrAmountMismatch = errors.New("sandbox bank: amount does not match the payment")
	ErrBadSignature   = errors.New("sandbox bank: bad callback signature")
)

// Bank is the sandbox PSP.
type Bank struct {
	pool *pgxpool.Pool
	key  []byte
	// TTL is how long the payer has on the bank page; after it the session expires.
	TTL time.Duration
}

// New returns the bank; key signs its callbacks.
func New(pool *pgxpool.Pool, key []byte, ttl time.Duration) *Bank {
	return &Bank{pool: pool, key: key, TTL: ttl}
}

// Request opens a payment session of amount rials that returns to callback, and
// returns its authority code.
func (b *Bank) Request(ctx context.Context, amount int64, callback, description string) (string, error) {
	raw := make([]byte, 18)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("sandbox authority: %w", err)
	}
	authority := "A" + hex.EncodeToString(raw)
	_, err := b.pool.Exec(ctx, `INSERT INTO sandbox_bank_payments (authority, amount, callback, description)
		VALUES ($1, $2, $3, $4)`, authority, amount, callback, description)
	if err != nil {
		return "", fmt.Errorf("sandbox request: %w", err)
	}
	return authority, nil
}

// PayURL is the bank page of a session.
func (b *Bank) PayURL(authority string) string { return PathPrefix + url.PathEscape(authority) }

// Session is what the bank knows of one payment.
type Session struct {
	Authority   string
	Amount      int64
	Callback    string
	Description string
	State       string
	RefID       string
	CreatedAt   time.Time
}

// Inquire returns a session; a created session past its lifetime reads as Expired.
func (b *Bank) Inquire(ctx context.Context, authority string) (Session, error) {
	var s Session
	var open bool
	err := b.pool.QueryRow(ctx, `SELECT authority, amount, callback, description, state, ref_id, created_at,
		created_at > now() - make_interval(secs => $2) FROM sandbox_bank_payments WHERE authority = $1`,
		authority, b.TTL.Seconds()).Scan(&s.Authority, &s.Amount, &s.Callback, &s.Description, &s.State, &s.RefID, &s.CreatedAt, &open)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, ErrUnknown
	}
	if err != nil {
		return s, fmt.Errorf("sandbox inquire: %w", err)
	}
	if s.State == Created && !open {
		s.State = Expired
	}
	return s, nil
}

// Verify is the merchant's server-to-server confirmation: a paid session of exactly
// amount becomes verified (again and again: verifying twice answers the same). It
// returns the session as it is afterwards.
func (b *Bank) Verify(ctx context.Context, authority string, amount int64) (Session, error) {
	s, err := b.Inquire(ctx, authority)
	if err != nil {
		return s, err
	}
	if s.Amount != amount {
		return s, ErrAmountMismatch
	}
	if s.State != Paid {
		return s, nil
	}
	_, err = b.pool.Exec(ctx, `UPDATE sandbox_bank_payments SET state = 'verified', verified_at = now()
		WHERE authority = $1 AND state = 'paid'`, authority)
	if err != nil {
		return s, fmt.Errorf("sandbox verify: %w", err)
	}
	return b.Inquire(ctx, authority)
}

// Reverse returns the money of a taken (or paid but never verified) session to the
// payer. Reversing twice is harmless.
func (b *Bank) Reverse(ctx context.Context, authority string) error {
	tag, err := b.pool.Exec(ctx, `UPDATE sandbox_bank_payments SET state = 'reversed', reversed_at = now()
		WHERE authority = $1 AND state IN ('taken', 'paid', 'reversed')`, authority)
	if err != nil {
		return fmt.Errorf("sandbox reverse: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("sandbox reverse %s: %w", authority, ErrUnknown)
	}
	return nil
}

// Decide records the payer's choice on the bank page (Paid, Failed, Canceled or
// Taken) while the session is open, and returns the signed callback URL to redirect
// the browser to. A closed or expired session keeps its state; its callback tells it.
func (b *Bank) Decide(ctx context.Context, authority, state string) (string, error) {
	switch state {
	case Paid, Failed, Canceled, Taken:
	default:
		return "", fmt.Errorf("sandbox decide %q: unknown choice", state)
	}
	_, err := b.pool.Exec(ctx, `UPDATE sandbox_bank_payments SET state = $2,
		ref_id = CASE WHEN $2 = 'paid' THEN $3 ELSE ref_id END, paid_at = now()
		WHERE authority = $1 AND state = 'created' AND created_at > now() - make_interval(secs => $4)`,
		authority, state, refID(), b.TTL.Seconds())
	if err != nil {
		return "", fmt.Errorf("sandbox decide: %w", err)
	}
	s, err := b.Inquire(ctx, authority)
	if err != nil {
		return "", err
	}
	return b.CallbackURL(s), nil
}

// CallbackURL is the merchant's callback with the bank's signed result: the
// authority, Status OK (paid) or NOK, the amount and the signature.
func (b *Bank) CallbackURL(s Session) string {
	status := "NOK"
	if s.State == Paid || s.State == Verified {
		status = "OK"
	}
	q := url.Values{"Authority": {s.Authority}, "Status": {status}, "Amount": {strconv.FormatInt(s.Amount, 10)}}
	q.Set("Sign", b.sign(s.Authority, status, s.Amount))
	sep := "?"
	if u, err := url.Parse(s.Callback); err == nil && u.RawQuery != "" {
		sep = "&"
	}
	return s.Callback + sep + q.Encode()
}

// Callback is the bank's result as the merchant's callback received it.
type Callback struct {
	Authority string
	OK        bool
	Amount    int64
}

// ParseCallback checks the signature of a callback's query and returns it.
func (b *Bank) ParseCallback(q url.Values) (Callback, error) {
	c := Callback{Authority: q.Get("Authority"), OK: q.Get("Status") == "OK"}
	amount, err := strconv.ParseInt(q.Get("Amount"), 10, 64)
	if err != nil || c.Authority == "" {
		return c, ErrBadSignature
	}
	c.Amount = amount
	want := b.sign(c.Authority, q.Get("Status"), amount)
	if !hmac.Equal([]byte(want), []byte(q.Get("Sign"))) {
		return c, ErrBadSignature
	}
	return c, nil
}

func (b *Bank) sign(authority, status string, amount int64) string {
	m := hmac.New(sha256.New, b.key)
	fmt.Fprintf(m, "%s|%s|%d", authority, status, amount)
	return hex.EncodeToString(m.Sum(nil))
}

// refID is a bank reference number (12 digits).
func refID() string {
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	var n uint64
	for _, c := range raw {
		n = n<<8 | uint64(c)
	}
	return fmt.Sprintf("%012d", n%1_000_000_000_000)
}
