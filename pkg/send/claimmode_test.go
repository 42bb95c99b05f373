package send_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/send"
)

// A new database claims in ranges; the mode is set and read back, an unknown one is
// refused, and a database without the setting reads as rows (the previous
// release's claims), which is what the gateways read too.
func TestClaimMode(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	mode := func() string {
		t.Helper()
		m, err := send.ClaimMode(ctx, d.Pool)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mode(); m != send.ClaimRanges {
		t.Fatalf("a new database claims in %q", m)
	}
	if err := send.SetClaimMode(ctx, d.Pool, send.ClaimRows); err != nil || mode() != send.ClaimRows {
		t.Fatalf("set rows: %v, now %q", err, mode())
	}
	if err := send.SetClaimMode(ctx, d.Pool, "cells"); !errors.Is(err, send.ErrClaimMode) || mode() != send.ClaimRows {
		t.Fatalf("an unknown mode: %v, now %q", err, mode())
	}
	if _, err := d.Pool.Exec(ctx, `DELETE FROM settings WHERE key = 'claim_mode'`); err != nil {
		t.Fatal(err)
	}
	if m := mode(); m != send.ClaimRows {
		t.Fatalf("without the setting: %q", m)
	}
}
