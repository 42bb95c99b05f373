package httpapi_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/send"
)

// POST /send/test sends the text, with the sample's fields filled in, from the
// chosen line to the caller's own mobile alone, charged as one ordinary message
// (202); the sixth test in ten minutes is refused (429, Persian message) and
// nothing more is sent or held.
func TestSendTestGoesToOwnMobile(t *testing.T) {
	e := apitest.Start(t, nil)
	token, acct := lineOwner(t, e, "tester", "09121117001", 1_000_000)
	ctx := context.Background()
	body := map[string]any{"text": "سلام {name}، تخفیف ویژه", "line": "30004040", "sample": map[string]string{"name": "علی"}}
	var a send.TestSent
	e.Must(202, "POST", "/v1/api/send/test", body, token).Decode(t, &a)
	if a.Mobile != "09121117001" {
		t.Fatalf("the answer names %q", a.Mobile)
	}
	var (
		numbers   []string
		text, typ string
		requested int
	)
	if err := e.DB.Pool.QueryRow(ctx, `SELECT numbers, text, type, requested FROM sends WHERE id = $1 AND account_id = $2`, a.ID, acct).
		Scan(&numbers, &text, &typ, &requested); err != nil {
		t.Fatal(err)
	}
	if len(numbers) != 1 || numbers[0] != "989121117001" || requested != 1 || typ != send.TypeQuick || text != "سلام علی، تخفیف ویژه" || a.Sender != "30004040" {
		t.Fatalf("test send: numbers %v requested %d type %s text %q sender %s", numbers, requested, typ, text, a.Sender)
	}
	if a.Price <= 0 {
		t.Fatalf("a test is charged as one message: price %d", a.Price)
	}
	if bal, _ := e.Deps.Wallet.Balance(ctx, acct); bal != 1_000_000-a.Price {
		t.Fatalf("balance %d, want %d", bal, 1_000_000-a.Price)
	}

	// A bad line is the test request's own field.
	r := e.Do("POST", "/v1/api/send/test", map[string]any{"text": "x", "line": "99999999"}, token)
	if r.Status != 422 || len(r.Meta.Errors["line"]) == 0 {
		t.Fatalf("unknown line: %d %s", r.Status, r.Raw)
	}
	// Five tests per ten minutes per user: the bad-line one counted, three more pass.
	for i := 0; i < 3; i++ {
		e.Must(202, "POST", "/v1/api/send/test", body, token)
	}
	before := countSends(t, e, acct)
	r = e.Do("POST", "/v1/api/send/test", body, token)
	if r.Status != 429 || r.Meta.Message != send.MsgTestLimit {
		t.Fatalf("sixth test: %d %s", r.Status, r.Raw)
	}
	if n := countSends(t, e, acct); n != before {
		t.Fatalf("the refused test made a send: %d, want %d", n, before)
	}
}

// A test send needs the sending permission: a colleague who may only read reports
// is refused (403) and nothing is sent; a colleague who may send gets the test on
// their own mobile, not the owner's.
func TestSendTestPermission(t *testing.T) {
	e := apitest.Start(t, nil)
	token, acct := lineOwner(t, e, "boss", "09121117002", 1_000_000)
	reader := acceptAndLogin(t, e, inviteColleague(t, e, token, "09121117003", makeRole(t, e, token, "گزارش‌خوان", acl.ReportView)))
	body := map[string]any{"text": "آزمایش", "line": "30004040"}
	r := e.Do("POST", "/v1/api/send/test", body, reader)
	if r.Status != 403 {
		t.Fatalf("reader's test: %d %s", r.Status, r.Raw)
	}
	if n := countSends(t, e, acct); n != 0 {
		t.Fatalf("%d sends after a refused test", n)
	}
	sender := acceptAndLogin(t, e, inviteColleague(t, e, token, "09121117004", makeRole(t, e, token, "ارسال‌کننده", acl.SendCreate)))
	var a send.TestSent
	e.Must(202, "POST", "/v1/api/send/test", body, sender).Decode(t, &a)
	var numbers []string
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT numbers FROM sends WHERE id = $1`, a.ID).Scan(&numbers); err != nil {
		t.Fatal(err)
	}
	if len(numbers) != 1 || numbers[0] != "989121117004" {
		t.Fatalf("colleague's test went to %v", numbers)
	}
}
