package send_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/send"
)

// The engine's modes (the claim mode, the id store, the inbound format): a new database is in this
// release's; the mode is set and read back, an unknown one is refused, and a
// database without the setting reads as the previous release's way, which is what
// the gateways read too.
func TestEngineModes(t *testing.T) {
	for _, c := range []struct {
		key, new, old string
		get           func(context.Context, *pgxpool.Pool) (string, error)
		set           func(context.Context, *pgxpool.Pool, string) error
		bad           error
	}{
		{"claim_mode", send.ClaimRanges, send.ClaimRows, send.ClaimMode, send.SetClaimMode, send.ErrClaimMode},
		{"id_store", send.IDsRedis, send.IDsTable, send.IDStoreMode, send.SetIDStoreMode, send.ErrIDStore},
		{"inbound_format", send.InboundPacked, send.InboundFields, send.InboundFormat, send.SetInboundFormat,
			send.ErrInboundFormat},
	} {
		t.Run(c.key, func(t *testing.T) {
			d := testenv.Postgres(t)
			ctx := context.Background()
			mode := func() string {
				t.Helper()
				m, err := c.get(ctx, d.Pool)
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if m := mode(); m != c.new {
				t.Fatalf("a new database is in %q", m)
			}
			if err := c.set(ctx, d.Pool, c.old); err != nil || mode() != c.old {
				t.Fatalf("set %s: %v, now %q", c.old, err, mode())
			}
			if err := c.set(ctx, d.Pool, "cells"); !errors.Is(err, c.bad) || mode() != c.old {
				t.Fatalf("an unknown mode: %v, now %q", err, mode())
			}
			if _, err := d.Pool.Exec(ctx, `DELETE FROM settings WHERE key = $1`, c.key); err != nil {
				t.Fatal(err)
			}
			if m := mode(); m != c.old {
				t.Fatalf("without the setting: %q", m)
			}
		})
	}
}
