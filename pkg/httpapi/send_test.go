package httpapi_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// lineOwner registers an owner with a service and an advertising line and credit.
func lineOwner(t *testing.T, e *apitest.Env, username, mobile string, credit int64) (token string, accountID int64) {
	t.Helper()
	e.Register(username, pw, mobile)
	token = e.Login(username, pw)
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, username)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, "30004040", line.KindService, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, "50004040", line.KindAdvertising, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.AdminCredit, Amount: credit}); err != nil {
		t.Fatal(err)
	}
	return token, u.AccountID
}

func countSends(t *testing.T, e *apitest.Env, accountID int64) int {
	t.Helper()
	var n int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sends WHERE account_id = $1`, accountID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An Idempotency-Key sent again with the same request returns the first send; sent
// with another request it is refused (422, Persian message) instead of passing the
// first send off as the second, and nothing more is held.
func TestIdempotencyKeyReusedWithAnotherRequest(t *testing.T) {
	e := apitest.Start(t, nil)
	token, acct := lineOwner(t, e, "idem", "09121114001", 1_000_000)
	first := map[string]any{"text": "سلام", "numbers": []string{"09121234001"}}
	var a, again send.Accepted
	e.Must(201, "POST", "/v1/api/send", first, token, "Idempotency-Key", "order-1").Decode(t, &a)
	e.Must(200, "POST", "/v1/api/send", first, token, "Idempotency-Key", "order-1").Decode(t, &again)
	if again.ID != a.ID {
		t.Fatalf("the retried request made send %d, first %d", again.ID, a.ID)
	}
	other := map[string]any{"text": "سلام", "numbers": []string{"09121234001", "09121234002", "09121234003"}}
	r := e.Do("POST", "/v1/api/send", other, token, "Idempotency-Key", "order-1")
	if r.Status != 422 || r.Meta.Message != send.MsgIdempotencyReused || r.Meta.MessageCode != send.CodeIdempotencyReused {
		t.Fatalf("key reused with another body: %d %s", r.Status, r.Raw)
	}
	if n := countSends(t, e, acct); n != 1 {
		t.Fatalf("%d sends", n)
	}
	if bal, _ := e.Deps.Wallet.Balance(context.Background(), acct); bal != 1_000_000-a.Price {
		t.Fatalf("balance %d, want %d", bal, 1_000_000-a.Price)
	}
	// Another key is another send.
	e.Must(201, "POST", "/v1/api/send", other, token, "Idempotency-Key", "order-2")
}

// Advertising lines always carry the «لغو۱۱» footer: cancel11 false is refused on
// them (quote and send), nothing is stored or held; a service line may omit it.
func TestAdvertisingLineKeepsCancel11(t *testing.T) {
	e := apitest.Start(t, nil)
	token, acct := lineOwner(t, e, "adver", "09121114002", 1_000_000)
	body := map[string]any{"sender": "50004040", "text": "حراج", "numbers": []string{"09121234001"}, "cancel11": false}
	for _, path := range []string{"/v1/api/send/calculate-price", "/v1/api/send"} {
		r := e.Do("POST", path, body, token)
		if r.Status != 422 || len(r.Meta.Errors["cancel11"]) == 0 || r.Meta.Errors["cancel11"][0] != send.MsgCancel11Required {
			t.Fatalf("%s with cancel11 false on an advertising line: %d %s", path, r.Status, r.Raw)
		}
	}
	if n := countSends(t, e, acct); n != 0 {
		t.Fatalf("%d sends stored", n)
	}
	if bal, _ := e.Deps.Wallet.Balance(context.Background(), acct); bal != 1_000_000 {
		t.Fatalf("balance moved to %d", bal)
	}
	var q send.Quote
	delete(body, "cancel11")
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if !q.Cancel11 {
		t.Fatalf("advertising quote without the footer: %+v", q)
	}
	body["cancel11"] = true
	e.Must(201, "POST", "/v1/api/send", body, token)
	body["sender"], body["cancel11"] = "30004040", false
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Cancel11 {
		t.Fatalf("service line kept the footer: %+v", q)
	}
}
