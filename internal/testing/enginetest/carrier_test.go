package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
)

// drained waits until the inbound stream is empty and nothing in it is pending:
// every entry the gateway stored was applied or quarantined.
func drained(t *testing.T, e *enginetest.Engine, what string) {
	t.Helper()
	ctx := context.Background()
	e.Wait(what, 60*time.Second, func() bool {
		n, err := e.RDB().XLen(ctx, jobs.InboundStream).Result()
		if err != nil || n != 0 {
			return false
		}
		p, err := e.RDB().XPending(ctx, jobs.InboundStream, jobs.InboundGroup).Result()
		return err == nil && p.Count == 0
	})
}

// quarantined lists the reasons of the quarantined inbound entries.
func quarantined(t *testing.T, e *enginetest.Engine) []string {
	t.Helper()
	rows, err := e.DB.Pool.Query(context.Background(), `SELECT reason FROM inbound_quarantine ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// The carrier sends receipts whose message id or handset holds bytes that are
// not UTF-8, and MO messages with such a handset or text, among valid ones: the
// bad receipts and the MO with a bad handset are quarantined (their raw bytes
// kept), the MO with a bad text is stored with U+FFFD in its place, and every
// valid receipt and MO is applied; nothing stays in the stream.
func TestPoisonInboundQuarantined(t *testing.T) {
	const badID, badSource = "989121140001", "989121140002"
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.PoisonReceipts = map[string]smscsim.PoisonField{badID: smscsim.PoisonID, badSource: smscsim.PoisonSource}
	}})
	token, acct := e.Account("poison", "09121110041", "30004141", "service", 20_000_000)
	numbers := append(numbersFrom("0912", 8), "09121140001", "09121140002")
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "poison", "numbers": numbers}, token).Decode(t, &a)
	for _, mo := range []smscsim.MO{
		{From: "989121150001", Text: "valid"},
		{From: "989121150002", Text: "bad handset", Poison: smscsim.PoisonSource},
		{From: "989121150003", Text: "bad text", Poison: smscsim.PoisonText},
		{From: "989121150004", Text: "also valid"},
	} {
		mo.Operator, mo.To = "mci", "30004141"
		if _, err := e.Sim.InjectMO(mo); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("the valid receipts applied", 60*time.Second, func() bool { return sendStats(t, e, a.ID).Delivered == 8 })
	e.Wait("three valid MO stored", 60*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM inbox WHERE account_id = $1`, acct).Scan(&n)
		return n == 3
	})
	drained(t, e, "the inbound stream drained")
	q := quarantined(t, e)
	if len(q) != 3 {
		t.Fatalf("quarantined %q, want the two receipts and the MO with bad bytes", q)
	}
	for _, r := range q {
		if !strings.Contains(r, "not valid UTF-8") {
			t.Errorf("reason %q", r)
		}
	}
	if got := inboxRows(t, e, acct, "989121150003"); len(got) != 1 || !strings.HasPrefix(got[0].text, "bad text\uFFFD") {
		t.Fatalf("MO with a bad byte in its text: %+v", got)
	}
}

// The carrier's id counter restarts (every submit gets the same id), and the
// receipt of the handset's second message comes before its submit_sm_resp: it
// matches only the first message's part, already delivered. It must wait for
// the new id and then deliver the second message.
func TestReusedIDReceiptBeforeResponse(t *testing.T) {
	const mobile = "989121160001"
	// The held response must still be awaited when it is released: on a loaded
	// machine the waits below can outlast the default 10 s, after which the part
	// would be unknown and the test about another case.
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.IDRestartAfter = 1 },
		Gateway: map[string]string{"GATEWAY_RESPONSE_TIMEOUT": "10m"}})
	token, acct := e.Account("reusedid", "09121110042", "30004242", "service", 20_000_000)
	// Every message gets the same id: the login code's receipt must be applied
	// before the next message takes its id over. The code is sent by a task, so
	// its recipient may not exist yet when the login returns: wait for the row
	// itself to be final, not for the absence of open rows.
	e.Wait("the login code final", 30*time.Second, func() bool {
		var final, open int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status IN (2, 3, 4, 6)),
			count(*) FILTER (WHERE status NOT IN (2, 3, 4, 6)) FROM recipients WHERE mobile = '989121110042'`).Scan(&final, &open)
		return final == 1 && open == 0
	})
	var first, second send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "first", "numbers": []string{"09121160001"}}, token).Decode(t, &first)
	assertAccounted(t, e, acct, first.ID, 1)
	if s := sendStats(t, e, first.ID); s.Delivered != 1 {
		t.Fatalf("first send %+v", s)
	}
	e.Sim.SetSubmitFaults([]smscsim.SubmitFault{{Dest: mobile, HoldResponse: true}})
	acked := e.Sim.Stats().Total.ReceiptsAcked
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "second", "numbers": []string{"09121160001"}}, token).Decode(t, &second)
	e.Wait("the second receipt stored by the gateway", 30*time.Second, func() bool {
		return e.Sim.Held() == 1 && e.Sim.Stats().Total.ReceiptsAcked > acked
	})
	drained(t, e, "the early receipt applied")
	if n := e.Sim.ReleaseHeld(); n != 1 {
		t.Fatalf("released %d responses", n)
	}
	e.Wait("the second message delivered", 60*time.Second, func() bool { return sendStats(t, e, second.ID).Delivered == 1 })
}

// The carrier sends receipts and MO as data_sm: they are answered data_sm_resp
// and applied as deliver_sm are.
func TestDataSMReceiptsAndMO(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.DataSM = true }})
	token, acct := e.Account("datasm", "09121110043", "30004343", "service", 20_000_000)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "data_sm", "numbers": numbersFrom("0912", 3)}, token).Decode(t, &a)
	for _, mo := range []smscsim.MO{
		{From: "989121170001", Text: "سلام data_sm"},
		{From: "989121170002", Text: strings.Repeat("پیام بلند ", 20)},
	} {
		mo.Operator, mo.To = "mci", "30004343"
		if _, err := e.Sim.InjectMO(mo); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("the receipts applied", 60*time.Second, func() bool { return sendStats(t, e, a.ID).Delivered == 3 })
	e.Wait("both MO stored", 60*time.Second, func() bool {
		return len(inboxRows(t, e, acct, "989121170001")) == 1 && len(inboxRows(t, e, acct, "989121170002")) == 1
	})
	if got := inboxRows(t, e, acct, "989121170002")[0]; got.text != strings.Repeat("پیام بلند ", 20) || got.parts != 3 {
		t.Fatalf("long MO as data_sm: %+v", got)
	}
	if st := e.Sim.Stats().Total; st.GenericNacks != 0 {
		t.Fatalf("%d generic_nack", st.GenericNacks)
	}
}

// Before answering a submit_sm, the carrier sends a request with the same
// sequence number, which the gateway answers generic_nack, and nacks that
// generic_nack: a nack that is no answer to the submit_sm. The part stays
// accepted (its response comes next), is delivered and is not refunded.
func TestGenericNackOfOurNackSettlesNothing(t *testing.T) {
	const mobile = "989121180001"
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.SubmitFaults = []smscsim.SubmitFault{{Dest: mobile, NackEcho: true}}
	}})
	token, acct := e.Account("nackecho", "09121110044", "30004444", "service", 20_000_000)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "nack", "numbers": []string{"09121180001", "09121180002"}}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, 2)
	if s := sendStats(t, e, a.ID); s.Delivered != 2 || s.Rejected != 0 || s.Refunded != 0 {
		t.Fatalf("stats %+v: the nacked nack must not reject the part", s)
	}
}

// An emoji split between two UCS-2 parts of an MO (half of its surrogate pair in
// each) is stored whole.
func TestEmojiAcrossMOParts(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	_, acct := e.Account("emoji", "09121110045", "30004545", "service", 0)
	text := strings.Repeat("س", 66) + "😀" + " پایان" // the emoji's halves at octets 132-135, parts cut at 134
	if n, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121190001", To: "30004545", Text: text,
		SplitSurrogates: true}); err != nil || n != 2 {
		t.Fatalf("injected %d parts: %v", n, err)
	}
	e.Wait("the MO stored", 30*time.Second, func() bool { return len(inboxRows(t, e, acct, "989121190001")) == 1 })
	if got := inboxRows(t, e, acct, "989121190001")[0]; got.text != text || got.parts != 2 {
		t.Fatalf("stored %q (%d parts), want %q", got.text, got.parts, text)
	}
}
