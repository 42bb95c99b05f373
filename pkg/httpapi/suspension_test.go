package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
)

// sendStatus reads a send's status and whether a suspension paused it.
func sendStatus(t *testing.T, e *apitest.Env, id int64) (string, bool) {
	t.Helper()
	var st string
	var suspended bool
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, suspended_at IS NOT NULL FROM sends WHERE id = $1`,
		id).Scan(&st, &suspended); err != nil {
		t.Fatal(err)
	}
	return st, suspended
}

// Suspending an account stops every path that sends or spends for it at once, on
// every API instance: its API key (cached for an hour on a second instance) is
// refused, its send under way is paused, its scheduled send does not fire and its
// held send cannot be approved. Reactivation resumes exactly what the suspension
// paused, and the wallet still equals its ledger (nothing charged twice).
func TestSuspensionStopsEverySendPath(t *testing.T) {
	e := keyEnv(t, func(c *config.Config) { c.SessionCacheTTL = time.Hour })
	ctx := context.Background()
	stok := addStaff(t, e, "support9")
	tok, acct := lineOwner(t, e, "suspended", "09121238801", 1_000_000)
	key := sendKey(t, e, tok, "09121238801")
	other := e.Another()
	form := map[string]any{"text": "سلام", "numbers": []string{"09121234801"}}
	var running, held send.Accepted
	other.Must(201, "POST", "/v1/api/send", form, key).Decode(t, &running) // warms the other instance's key cache
	later := time.Now().Add(time.Hour).Format(time.RFC3339)
	var scheduled send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "بعدا", "numbers": []string{"09121234802"}, "send_at": later}, tok).Decode(t, &scheduled)
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "کازينو", "numbers": []string{"09121234803"}}, tok).Decode(t, &held)
	if held.Status != send.StatusHeld {
		t.Fatalf("held: %+v", held)
	}
	path := "/v1/api/admin/accounts/" + strconv.FormatInt(acct, 10) + "/status"
	e.Must(200, "POST", path, map[string]any{"status": "suspended"}, stok)

	for _, env := range []*apitest.Env{e, other} {
		env.Must(401, "POST", "/v1/api/send", form, key)
	}
	if r := e.Must(403, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "suspended", "password": pw}, ""); r.Meta.Message != auth.MsgSuspended {
		t.Fatalf("a suspended owner's login: %s", r.Raw)
	}
	if st, paused := sendStatus(t, e, running.ID); st != send.StatusPaused || !paused {
		t.Fatalf("the send under way: %s (suspension mark %v)", st, paused)
	}
	// The scheduled send's time comes while suspended: it waits.
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE sends SET send_at = now() - interval '1 minute' WHERE id = $1`, scheduled.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := e.Deps.Sends.FireDue(ctx); err != nil || n != 0 {
		t.Fatalf("fired %d scheduled sends of a suspended account (%v)", n, err)
	}
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items", nil, stok).Decode(t, &items)
	if len(items) != 1 {
		t.Fatalf("queue %+v", items)
	}
	r := e.Must(409, "POST", "/v1/api/admin/reviews/"+strconv.FormatInt(items[0].ID, 10)+"/approve", map[string]any{}, stok)
	if r.Meta.MessageCode != send.CodeSuspended || r.Meta.Message != send.MsgHeldSuspended {
		t.Fatalf("approving a held send of a suspended account: %s", r.Raw)
	}

	e.Must(200, "POST", path, map[string]any{"status": "active"}, stok)
	if st, paused := sendStatus(t, e, running.ID); st != send.StatusQueued || paused {
		t.Fatalf("resumed send: %s (suspension mark %v)", st, paused)
	}
	if n, err := e.Deps.Sends.FireDue(ctx); err != nil || n != 1 {
		t.Fatalf("reactivated: fired %d (%v)", n, err)
	}
	other.Must(201, "POST", "/v1/api/send", form, key)
	bal, sum, err := e.Deps.Wallet.Check(ctx, acct)
	if err != nil || bal != sum {
		t.Fatalf("wallet %d, ledger %d (%v)", bal, sum, err)
	}
}
