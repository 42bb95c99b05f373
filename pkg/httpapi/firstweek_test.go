package httpapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/onboarding"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// steps reads the caller's first steps as key → done.
func steps(t *testing.T, e *apitest.Env, token string) (map[string]bool, onboarding.Steps) {
	t.Helper()
	var s onboarding.Steps
	e.Must(200, "GET", "/v1/api/panel/first-steps", nil, token).Decode(t, &s)
	out := map[string]bool{}
	for _, st := range s.Steps {
		out[st.Key] = st.Done
	}
	return out, s
}

// A new account has taken none of the first steps; each one is ticked by the
// account's real state as it is taken (a gift is not a purchase, a payment or
// credit staff added is; a send to someone else is not the test to one's own
// mobile), and another account's steps stay its own.
func TestFirstSteps(t *testing.T) {
	e := apitest.Start(t, nil)
	ctx := context.Background()
	e.Register("firstweek", pw, "09121118101")
	tok := e.Login("firstweek", pw)
	e.Register("firstweek2", pw, "09121118102")
	other := e.Login("firstweek2", pw)
	u, err := e.Accounts.ByUsername(ctx, "firstweek")
	if err != nil {
		t.Fatal(err)
	}
	got, s := steps(t, e, tok)
	if len(s.Steps) != 4 || s.Mobile != "09121118101" || s.Done != 0 || s.Complete || got[onboarding.StepCredit] || got[onboarding.StepLine] ||
		got[onboarding.StepTest] || got[onboarding.StepPhonebook] {
		t.Fatalf("a new account's steps: %+v", s)
	}

	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.Gift, Amount: 500_000}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, "30008101", line.KindService, true); err != nil {
		t.Fatal(err)
	}
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "سلام", "numbers": []string{"09121118199"}}, tok)
	if got, _ = steps(t, e, tok); got[onboarding.StepCredit] || got[onboarding.StepTest] || !got[onboarding.StepLine] {
		t.Fatalf("a gift or a send to another number ticked a step, or the line did not: %v", got)
	}

	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.Deposit, Amount: 1_000_000, Ref: "pay-1"}); err != nil {
		t.Fatal(err)
	}
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "آزمایش", "numbers": []string{"۰۹۱۲۱۱۱۸۱۰۱"}}, tok)
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, tok)
	got, s = steps(t, e, tok)
	if !got[onboarding.StepCredit] || !got[onboarding.StepLine] || !got[onboarding.StepTest] || !got[onboarding.StepPhonebook] ||
		s.Done != 4 || !s.Complete {
		t.Fatalf("after every step: %+v", s)
	}
	if got, s = steps(t, e, other); s.Done != 0 {
		t.Fatalf("another account sees this account's steps: %v", got)
	}
	u2, err := e.Accounts.ByUsername(ctx, "firstweek2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u2.AccountID, Kind: wallet.AdminCredit, Amount: 2_000_000}); err != nil {
		t.Fatal(err)
	}
	if got, s = steps(t, e, other); !got[onboarding.StepCredit] || s.Done != 1 {
		t.Fatalf("a purchase staff credited is not the credit step: %+v", s)
	}
}

// inboxRow is one row of the inbox list as the test reads it.
type inboxRow struct {
	ID        int64      `json:"id"`
	ReadAt    *time.Time `json:"read_at"`
	RepliedAt *time.Time `json:"replied_at"`
}

// A reply from the inbox marks the message it answers read and replied (the
// others from the number stay unread); replaying the reply records it once. The
// conversation with the number holds its received messages and the reply in
// time order, not another number's message, and is 404 to another account.
func TestInboxReplyMarksAndThread(t *testing.T) {
	e := apitest.Start(t, nil)
	ctx := context.Background()
	tok, acct := lineOwner(t, e, "replier", "09121118201", 1_000_000)
	e.Register("replier2", pw, "09121118202")
	other := e.Login("replier2", pw)
	mo := func(sender, text string, ago time.Duration) int64 {
		var id int64
		if err := e.DB.Pool.QueryRow(ctx, `INSERT INTO inbox (account_id, line, sender, text, stream_id, received_at)
			VALUES ($1, '30004040', $2, $3, 'thread-' || $3, now() - $4::interval) RETURNING id`,
			acct, sender, text, strconv.Itoa(int(ago.Seconds()))+" seconds").Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	first, second := mo("989121118250", "سلام، قیمت؟", 2*time.Hour), mo("989121118250", "منتظرم", time.Hour)
	stranger := mo("989121118260", "پیام دیگر", 30*time.Minute)

	var a send.Accepted
	body := map[string]any{"id": first, "text": "قیمت ۱۰۰ هزار تومان"}
	e.Must(201, "POST", "/v1/api/report/messages-inbox/reply", body, tok, "Idempotency-Key", "reply-1").Decode(t, &a)
	e.Must(200, "POST", "/v1/api/report/messages-inbox/reply", body, tok, "Idempotency-Key", "reply-1")
	var rows []inboxRow
	e.Must(200, "GET", "/v1/api/report/messages-inbox", nil, tok).Decode(t, &rows)
	state := map[int64]inboxRow{}
	for _, r := range rows {
		state[r.ID] = r
	}
	if r := state[first]; r.ReadAt == nil || r.RepliedAt == nil {
		t.Fatalf("the answered message is not read and replied: %+v", r)
	}
	if r := state[second]; r.ReadAt != nil || r.RepliedAt != nil {
		t.Fatalf("the unanswered message changed: %+v", r)
	}
	var unread struct{ Unread int }
	e.Must(200, "GET", "/v1/api/report/messages-inbox/unread", nil, tok).Decode(t, &unread)
	if unread.Unread != 2 {
		t.Fatalf("unread %d, want 2", unread.Unread)
	}
	var replies int
	if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM inbox_replies WHERE account_id = $1`, acct).Scan(&replies); err != nil || replies != 1 {
		t.Fatalf("replies recorded: %d %v", replies, err)
	}

	var th inbox.Thread
	e.Must(200, "GET", "/v1/api/report/messages-inbox/thread?id="+strconv.FormatInt(second, 10), nil, tok).Decode(t, &th)
	want := []struct {
		dir string
		id  int64
	}{{"in", first}, {"in", second}, {"out", a.ID}}
	if th.Sender != "989121118250" || len(th.Entries) != len(want) {
		t.Fatalf("thread %+v", th)
	}
	for i, w := range want {
		if g := th.Entries[i]; g.Direction != w.dir || g.ID != w.id {
			t.Errorf("entry %d: %s %d, want %s %d", i, g.Direction, g.ID, w.dir, w.id)
		}
	}
	if out := th.Entries[2]; out.Text != "قیمت ۱۰۰ هزار تومان" || out.Line != "30004040" || out.Status == "" {
		t.Errorf("the reply entry %+v", out)
	}
	for _, en := range th.Entries {
		if en.Direction == "in" && en.ID == stranger {
			t.Error("another number's message is in the thread")
		}
	}
	e.Must(404, "GET", "/v1/api/report/messages-inbox/thread?id="+strconv.FormatInt(second, 10), nil, other)
	e.Must(404, "GET", "/v1/api/report/messages-inbox/thread?id=abc", nil, tok)
}
