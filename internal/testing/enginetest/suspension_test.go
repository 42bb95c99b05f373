package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/send"
)

// Suspending an account mid-send pauses its send at the gateways (no grant is given
// to a paused send or a suspended account); reactivating resumes it, and every
// recipient ends accounted for once with exact money (issue 38 item 1).
func TestSuspensionPausesAndResumesSend(t *testing.T) {
	const n = 3000
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.Rate = 1500; c.Burst = 150 }})
	ctx := context.Background()
	token, acct := e.Account("suspendee", "09121110091", "30006668", "service", 10_000_000)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "hello", "numbers": numbersFrom("0912", n)}, token).Decode(t, &a)
	e.Wait("the carrier accepting", 30*time.Second, func() bool { return e.Sim.Stats().Total.Accepted > 1 })
	ops := acl.Identity{Username: "ops", Staff: true}
	if err := e.Deps.Staff.SetStatus(ctx, ops, acct, "suspended", "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := e.DB.Pool.QueryRow(ctx, `SELECT status FROM sends WHERE id = $1`, a.ID).Scan(&status); err != nil || status != send.StatusPaused {
		t.Fatalf("the send of a suspended account: %s (%v)", status, err)
	}
	e.Must(401, "GET", "/v1/api/acl/auth/check_token", nil, token)
	if err := e.Deps.Staff.SetStatus(ctx, ops, acct, "active", "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	assertAccounted(t, e, acct, a.ID, n)
}
