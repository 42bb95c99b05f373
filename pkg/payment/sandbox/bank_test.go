package sandbox_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/payment/sandbox"
)

// The bank behaves like a PSP: its verify checks the amount and answers the same
// when asked again; its callbacks are signed with its key only; a session past its
// lifetime takes no payment.
func TestBankVerifySignatureAndExpiry(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	bank := sandbox.New(d.Pool, []byte("bank key"), 15*time.Minute)
	a, err := bank.Request(ctx, 1_100_000, "/cb", "test")
	if err != nil {
		t.Fatal(err)
	}
	cb, err := bank.Decide(ctx, a, sandbox.Paid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bank.Verify(ctx, a, 1_000_000); !errors.Is(err, sandbox.ErrAmountMismatch) {
		t.Fatalf("verify of another amount: %v", err)
	}
	s1, err := bank.Verify(ctx, a, 1_100_000)
	s2, err2 := bank.Verify(ctx, a, 1_100_000)
	if err != nil || err2 != nil || s1.State != sandbox.Verified || s2.RefID != s1.RefID || s1.RefID == "" {
		t.Fatalf("verify: %+v %v / %+v %v", s1, err, s2, err2)
	}
	u, _ := url.Parse(cb)
	if c, err := bank.ParseCallback(u.Query()); err != nil || !c.OK || c.Amount != 1_100_000 {
		t.Fatalf("own callback: %+v %v", c, err)
	}
	other := sandbox.New(d.Pool, []byte("another key"), 15*time.Minute)
	if _, err := other.ParseCallback(u.Query()); !errors.Is(err, sandbox.ErrBadSignature) {
		t.Fatalf("callback signed by another key: %v", err)
	}

	late, _ := bank.Request(ctx, 1_100_000, "/cb", "")
	if _, err := d.Pool.Exec(ctx, `UPDATE sandbox_bank_payments SET created_at = now() - interval '16 minutes' WHERE authority = $1`, late); err != nil {
		t.Fatal(err)
	}
	cb, err = bank.Decide(ctx, late, sandbox.Paid)
	if err != nil || !strings.Contains(cb, "Status=NOK") {
		t.Fatalf("expired session paid: %s %v", cb, err)
	}
	if s, _ := bank.Inquire(ctx, late); s.State != sandbox.Expired {
		t.Fatalf("expired session reads %s", s.State)
	}
}
