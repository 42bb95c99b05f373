// Package payment runs online payments that charge the wallet. A payment goes
// through a Gateway (a PSP: create → the bank's page, the bank's signed callback,
// a server-to-server verify with the amount, inquiry and reversal); the sandbox
// bank (pkg/payment/sandbox) is built in and a real PSP is added behind the same
// interface. A payment row moves from pending to paid, failed or expired once,
// under a row lock; the credit is a ledger entry keyed by the payment id, so a
// replayed, concurrent or late callback credits nothing more. A periodic task
// resolves payments still pending after the review window (15 minutes) and returns
// the money of failed payments that the bank took, within 72 hours.
package payment

import (
	"context"
	"errors"
	"net/url"
)

// Business constants (spec §9).
const (
	// MinAmount is the smallest online payment, in rials.
	MinAmount int64 = 1_000_000
	// MaxAmount bounds one payment (a sanity limit, 100 billion rials).
	MaxAmount int64 = 100_000_000_000
	// TaxPercent is added on online payments.
	TaxPercent = 10
)

// States of a payment.
const (
	Pending = "pending"
	Paid    = "paid"
	Failed  = "failed"
	Expired = "expired"
)

// Persian messages of the payment results (spec §4, §8).
const (
	MsgMinAmount = "حداقل مبلغ پرداخت ۱٬۰۰۰٬۰۰۰ ریال است"
	MsgPaid      = "پرداخت با موفقیت انجام شد و کیف پول شما شارژ شد"
	MsgFailed    = "پرداخت ناموفق بود؛ در صورت کسر وجه، مبلغ کسرشده حداکثر تا ۷۲ ساعت آینده به حساب شما بازمی‌گردد"
	MsgPending   = "پرداخت در انتظار تأیید است؛ نتیجه حداکثر تا ۱۵ دقیقه دیگر مشخص می‌شود"
	MsgExpired   = "مهلت پرداخت به پایان رسید و پرداخت انجام نشد"
)

// Tax is the tax added on an online payment of amount rials: 10%, rounded to the
// nearest rial (half up).
func Tax(amount int64) int64 { return (amount*TaxPercent + 50) / 100 }

// Outcome is what the bank says of a payment.
type Outcome int

// Outcomes of a verify or inquiry.
const (
	OutcomePending Outcome = iota // the payer has not finished
	OutcomePaid                   // paid and verified
	OutcomeFailed                 // failed or canceled, nothing taken
	OutcomeTaken                  // failed, but the payer's money was taken: return it
	OutcomeExpired                // the bank's session ended unpaid
	OutcomeOpen                   // the payer is still at the bank: wait, do not verify yet
)

// Result is the bank's answer about one payment.
type Result struct {
	Outcome Outcome
	RefID   string // the bank's reference of a paid payment
}

// Callback is a callback the gateway parsed (and checked, where it is signed).
type Callback struct {
	Authority string
	OK        bool
	// Amount is the amount the callback states; 0 when the bank's callback does
	// not carry one (the verify call checks it then).
	Amount int64
	// Ref is the bank's reference of the paid transaction when the gateway verifies
	// by it rather than by the authority (SEP's RefNum); empty otherwise.
	Ref string
	// Declined is a callback that is the bank's last word on a failed payment:
	// nothing is verified, the payment fails (SEP's State other than OK).
	Declined bool
}

// Txn names one bank transaction: the authority the gateway gave at Create and,
// for gateways that name the paid transaction only in the callback, its Ref.
type Txn struct {
	Authority string
	Ref       string
}

// ErrBadCallback is a callback whose signature does not check out.
var ErrBadCallback = errors.New("payment: forged or malformed callback")

// ErrAmountMismatch is a bank that reports another amount than the payment's.
var ErrAmountMismatch = errors.New("payment: amount does not match")

// Gateway is a payment service provider.
type Gateway interface {
	// Name identifies the gateway in the payments table.
	Name() string
	// Create opens a bank session for total rials returning to callback, and returns
	// its authority and the URL to send the payer to.
	Create(ctx context.Context, total int64, callback, description string) (authority, payURL string, err error)
	// ParseCallback reads a callback's query or form and checks its signature
	// where the bank signs it (ErrBadCallback when it fails).
	ParseCallback(q url.Values) (Callback, error)
	// Verify confirms a payment of exactly total rials server to server; it may be
	// called again and answers the same.
	Verify(ctx context.Context, t Txn, total int64) (Result, error)
	// Inquire asks the bank what became of a payment, without verifying it:
	// OutcomePending is a payment to verify now, OutcomeOpen one to wait for.
	Inquire(ctx context.Context, t Txn) (Result, error)
	// Reverse returns taken money to the payer.
	Reverse(ctx context.Context, t Txn) error
}
