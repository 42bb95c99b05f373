package campaign_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/send"
)

// colleagueKey adds a colleague who may send and a sandbox API key of theirs to the
// account, and returns the identity of a request made with that key.
func (w *world) colleagueKey(owner acl.Identity, name string) acl.Identity {
	w.t.Helper()
	ctx := context.Background()
	var role, user, key int64
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO roles (account_id, name, permissions) VALUES ($1, 'ارسال', '{send.create}')
		RETURNING id`, owner.AccountID).Scan(&role))
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, role_id) VALUES ($1, $2, 'x', $3)
		RETURNING id`, owner.AccountID, name, role).Scan(&user))
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO api_keys (account_id, created_by, title, prefix, secret_hash, scopes, sandbox)
		VALUES ($1, $2, 'sandbox', $3, 'x', '{send.create}', true) RETURNING id`, owner.AccountID, user, "chp_test_"+name).Scan(&key))
	return acl.Identity{AccountID: owner.AccountID, UserID: user, APIKeyID: key, Sandbox: true,
		Permissions: []acl.Permission{acl.SendCreate}}
}

// A campaign made with a sandbox API key runs as that key: its sends are sandbox
// sends, never charged (issue 38 item 4). When the colleague who made it is
// deactivated the next run starts nothing, turns the campaign off and tells the
// owner in the audit log (item 1).
func TestCampaignRunsAsItsMaker(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	owner := w.account("tenant", "30011")
	key := w.colleagueKey(owner, "dev")
	c := w.create(key, "sandbox reminder")
	w.dueBy(c.ID, time.Minute)
	if _, err := w.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	var sandbox bool
	var quote int64
	var apiKey *int64
	w.must(w.d.Pool.QueryRow(ctx, `SELECT sandbox, quote, api_key_id FROM sends WHERE campaign_id = $1`, c.ID).Scan(&sandbox, &quote, &apiKey))
	if !sandbox || quote != 0 || apiKey == nil || *apiKey != key.APIKeyID {
		t.Fatalf("the sandbox key's run: sandbox %v, quote %d, key %v", sandbox, quote, apiKey)
	}

	_, err := w.d.Pool.Exec(ctx, `UPDATE users SET status = 'disabled' WHERE id = $1`, key.UserID)
	w.must(err)
	w.dueBy(c.ID, time.Minute)
	if _, err := w.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if s := w.state(c.ID); s.enabled || s.sends != 1 {
		t.Fatalf("a deactivated colleague's campaign still runs: %+v", s)
	}
	var reason string
	w.must(w.d.Pool.QueryRow(ctx, `SELECT details->>'reason' FROM audit_log WHERE account_id = $1 AND action = 'campaign.stopped'`,
		owner.AccountID).Scan(&reason))
	if reason != campaign.MsgMakerDisabled {
		t.Fatalf("the owner's note: %q", reason)
	}
}

// A suspended account's campaigns wait; reactivated, the missed run fires once.
func TestSuspendedAccountCampaignsWait(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	owner := w.account("tenant", "30012")
	c := w.create(owner, "daily")
	w.dueBy(c.ID, time.Hour)
	_, err := w.d.Pool.Exec(ctx, `UPDATE accounts SET status = 'suspended' WHERE id = $1`, owner.AccountID)
	w.must(err)
	if n, err := w.svc.RunDue(ctx); err != nil || n != 0 {
		t.Fatalf("a suspended account's campaign ran: %d %v", n, err)
	}
	// A send of a suspended account is refused outright too.
	if _, _, err := w.sends.Create(ctx, owner, send.Request{Text: "x", Numbers: []string{"09121234509"}}, "", ""); err != send.ErrSuspended {
		t.Fatalf("send of a suspended account: %v", err)
	}
	_, err = w.d.Pool.Exec(ctx, `UPDATE accounts SET status = 'active' WHERE id = $1`, owner.AccountID)
	w.must(err)
	if n, err := w.svc.RunDue(ctx); err != nil || n != 1 {
		t.Fatalf("reactivated: %d %v", n, err)
	}
	if s := w.state(c.ID); s.runs != 1 || s.sends != 1 {
		t.Fatalf("reactivated campaign: %+v", s)
	}
}

// A scheduled send keeps the identity it was made with: a sandbox key's scheduled
// send edited later from the panel is still never charged (issue 38 item 4).
func TestSandboxScheduledSendStaysFree(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	owner := w.account("tenant", "30013")
	key := w.colleagueKey(owner, "dev2")
	at := time.Now().Add(time.Hour)
	a, _, err := w.sends.Create(ctx, key, send.Request{Text: "کد", Numbers: []string{"09121234510"}, SendAt: &at}, "", "")
	w.must(err)
	long := strings.Repeat("متن بلندتر ", 40)
	w.must(w.sends.Reschedule(ctx, owner, a.ID, nil, &long))
	var quote int64
	w.must(w.d.Pool.QueryRow(ctx, `SELECT quote FROM sends WHERE id = $1`, a.ID).Scan(&quote))
	var bal int64
	w.must(w.d.Pool.QueryRow(ctx, `SELECT balance FROM wallets WHERE account_id = $1`, owner.AccountID).Scan(&bal))
	if quote != 0 || bal != 1_000_000 {
		t.Fatalf("an edited sandbox send is charged: quote %d, balance %d", quote, bal)
	}
}

// A live campaign edited through a sandbox key runs as that key from then on: the
// key cannot make live, charged sends by rewriting an owner's campaign.
func TestCampaignEditedBySandboxKeyRunsSandboxed(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	owner := w.account("tenant", "30014")
	key := w.colleagueKey(owner, "dev3")
	c := w.create(owner, "live")
	_, err := w.svc.Update(ctx, key, campaign.Input{ID: c.ID, Title: "rewritten",
		Request:  send.Request{Type: send.TypeQuick, Text: "متن تازه", Numbers: []string{"09121234511"}},
		Schedule: campaign.Schedule{Kind: campaign.Daily, Time: "09:00"}})
	w.must(err)
	w.dueBy(c.ID, time.Minute)
	if _, err := w.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	var sandbox bool
	var quote int64
	w.must(w.d.Pool.QueryRow(ctx, `SELECT sandbox, quote FROM sends WHERE campaign_id = $1`, c.ID).Scan(&sandbox, &quote))
	if !sandbox || quote != 0 {
		t.Fatalf("the campaign rewritten by a sandbox key ran live: sandbox %v, quote %d", sandbox, quote)
	}
}
