package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/send"
)

// Deactivating a colleague stops the work they left running (issue 38 item 1): their
// recurring campaign is turned off and their scheduled send waits past its time, and
// the owner's audit entry of the deactivation says so.
func TestDeactivatedColleaguesWorkStops(t *testing.T) {
	e := keyEnv(t, nil)
	ctx := context.Background()
	tok, acct := lineOwner(t, e, "deact", "09121238861", 1_000_000)
	ct := acceptAndLogin(t, e, inviteColleague(t, e, tok, "09121238862", makeRole(t, e, tok, "ارسال", acl.SendCreate, acl.ReportView)))
	e.Must(201, "POST", "/v1/api/send/campaigns", map[string]any{"title": "یادآوری روزانه", "type": "quick", "text": "یادآوری",
		"numbers": []string{"09121234861"}, "schedule": map[string]any{"kind": "daily", "time": "09:00"}}, ct)
	var scheduled send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "بعدا", "numbers": []string{"09121234862"},
		"send_at": time.Now().Add(time.Hour).Format(time.RFC3339)}, ct).Decode(t, &scheduled)
	c, err := e.Accounts.ByUsername(ctx, "09121238862")
	if err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/user/partner/deactive", map[string]any{"id": c.ID}, tok)

	var enabled bool
	if err := e.DB.Pool.QueryRow(ctx, `SELECT enabled FROM campaigns WHERE account_id = $1`, acct).Scan(&enabled); err != nil || enabled {
		t.Fatalf("the deactivated colleague's campaign is enabled: %v (%v)", enabled, err)
	}
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE sends SET send_at = now() - interval '1 minute' WHERE id = $1`, scheduled.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Deps.Sends.FireDue(ctx); err != nil || n != 0 {
		t.Fatalf("fired %d sends of a deactivated colleague (%v)", n, err)
	}
	var stopped, waiting string
	if err := e.DB.Pool.QueryRow(ctx, `SELECT details->>'campaigns_stopped', details->>'scheduled_waiting' FROM audit_log
		WHERE account_id = $1 AND action = 'partner.deactivate'`, acct).Scan(&stopped, &waiting); err != nil ||
		stopped != `["یادآوری روزانه"]` || waiting != "1" {
		t.Fatalf("the owner's note: campaigns %s, scheduled %s (%v)", stopped, waiting, err)
	}
}
