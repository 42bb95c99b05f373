package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// The attacks of the unpaid expansion: a send is priced (and its hold taken) for the
// recipients its source has at accept time, then the customer grows the source
// before expansion. Expansion pays the extra recipients from the free credit under
// the balance check and drops the rest, visibly; the wallet never goes below zero.

// unitPrice is what one 1-part message to an MCI number costs the account.
func unitPrice(t *testing.T, e *enginetest.Engine, token string) int64 {
	t.Helper()
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", map[string]any{"text": "hello", "numbers": []string{"09129999999"}}, token).Decode(t, &q)
	if q.Price <= 0 || q.Parts != 1 {
		t.Fatalf("unit quote %+v", q)
	}
	return q.Price
}

// addCredit credits the account through the wallet service.
func addCredit(t *testing.T, e *enginetest.Engine, acct, amount int64) {
	t.Helper()
	if _, err := e.Deps.Wallet.Credit(context.Background(), wallet.Entry{AccountID: acct, Kind: wallet.AdminCredit,
		Amount: amount, Description: "test credit"}); err != nil {
		t.Fatal(err)
	}
}

// fireNow makes a scheduled send due by the database clock.
func fireNow(t *testing.T, e *enginetest.Engine, sendID int64) {
	t.Helper()
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE sends SET send_at = now() WHERE id = $1`, sendID); err != nil {
		t.Fatal(err)
	}
}

// assertPaidOrDropped checks a send whose source grew to total recipients after it
// was priced: exactly paid of them reached the carrier, each charged to the rial, the
// others are dropped (rejected, cost 0, the reason shown by the report API), and the
// wallet ends at want, equal to its ledger, never below zero on the way.
func assertPaidOrDropped(t *testing.T, e *enginetest.Engine, token string, acct, sendID int64, paid, total int, unit, want int64) {
	t.Helper()
	e.Wait("the grown send closed", 30*time.Second, func() bool {
		s := sendStats(t, e, sendID)
		return s.Status == "done" && s.Delivered+s.Undelivered == paid
	})
	reached := 0
	for _, m := range numbersFrom("0912", total) {
		if _, ok := e.Sim.Latest("98" + m[1:]); ok {
			reached++
		}
	}
	if reached != paid {
		t.Fatalf("%d handsets got the message, %d were paid for", reached, paid)
	}
	s := sendStats(t, e, sendID)
	if s.Recipients != paid || s.Cost != int64(paid)*unit {
		t.Fatalf("send counters %+v, want %d recipients costing %d", s, paid, int64(paid)*unit)
	}
	if taken := ledgerBalanced(t, e, acct, sendID); taken != int64(paid)*unit || taken != charged(t, e, sendID) {
		t.Fatalf("ledger took %d for %d paid recipients of %d", taken, paid, unit)
	}
	if c := credit(t, e, token); c != want {
		t.Fatalf("balance %d, want %d", c, want)
	}
	var lowest int64
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT min(balance_after) FROM ledger WHERE account_id = $1`, acct).Scan(&lowest); err != nil || lowest < 0 {
		t.Fatalf("the balance went down to %d (%v)", lowest, err)
	}
	var stats report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(sendID), nil, token).Decode(t, &stats)
	if stats.Unpaid != total-paid || stats.Recipients != paid || stats.Pending != 0 || stats.Price != int64(paid)*unit {
		t.Fatalf("report %+v, want %d unpaid", stats, total-paid)
	}
	var dropped []report.Recipient
	r := e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(sendID)+"&status=3&limit=100", nil, token)
	r.Decode(t, &dropped)
	if r.Meta.Total == nil || *r.Meta.Total != int64(total-paid) {
		t.Fatalf("%v recipients listed as not sent, want %d", r.Meta.Total, total-paid)
	}
	for _, d := range dropped {
		if !d.Rejected || d.Error != send.MsgUnpaid {
			t.Fatalf("dropped recipient %+v", d)
		}
		if st, cost := recipientOf(t, e, sendID, d.Mobile); st != send.RcptRejected || cost != 0 {
			t.Fatalf("dropped %s stored with status %d cost %d", d.Mobile, st, cost)
		}
	}
}

// (a) Blacklist 100 of 101 numbers, schedule a quick send (priced for 1), take the
// 100 off the blacklist before it fires: the credit pays for 2 more, the other 98
// are dropped, and the balance ends at exactly 0.
func TestScheduledQuickSendCannotOutgrowItsHold(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("grower", "09121110031", "30003131", "service", 0)
	unit := unitPrice(t, e, token)
	addCredit(t, e, acct, 3*unit)
	numbers := numbersFrom("0912", 101)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": numbers[1:], "kind": "send"}, token)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "hello", "numbers": numbers,
		"send_at": time.Now().Add(10 * time.Minute).UTC()}, token).Decode(t, &a)
	if a.Status != "scheduled" || a.Price != unit {
		t.Fatalf("accepted %+v, want a hold of %d", a, unit)
	}
	e.Must(200, "POST", "/v1/api/phonebooks/blacklist/delete-list", map[string]any{"numbers": numbers[1:], "kind": "send"}, token)
	fireNow(t, e, a.ID)
	assertPaidOrDropped(t, e, token, acct, a.ID, 3, 101, unit, 0)
}

// (b) Schedule a phonebook send of 1 contact, add 30 contacts before it fires: the
// free credit (one rial short of a sixth message) pays for 4 more, 26 are dropped.
func TestScheduledPhonebookSendCannotOutgrowItsHold(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("booker", "09121110032", "30003232", "service", 0)
	unit := unitPrice(t, e, token)
	addCredit(t, e, acct, 6*unit-1)
	pb := phonebookOf(t, e, token, numbersFrom("0912", 1))
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "phonebook", "phonebook_ids": []int64{pb}, "text": "hello",
		"send_at": time.Now().Add(10 * time.Minute).UTC()}, token).Decode(t, &a)
	if a.Status != "scheduled" || a.Price != unit {
		t.Fatalf("accepted %+v, want a hold of %d", a, unit)
	}
	addContacts(t, e, token, pb, numbersFrom("0912", 31)[1:])
	fireNow(t, e, a.ID)
	assertPaidOrDropped(t, e, token, acct, a.ID, 5, 31, unit, unit-1)
}

// A recurring campaign's run follows the same rule: its send is priced when the run
// starts; contacts added before the run is expanded are paid from the free credit or
// dropped.
func TestRecurringRunCannotOutgrowItsHold(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("runner", "09121110033", "30003333", "service", 0)
	unit := unitPrice(t, e, token)
	addCredit(t, e, acct, 2*unit)
	pb := phonebookOf(t, e, token, numbersFrom("0912", 1))
	var c struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/send/campaigns", map[string]any{"title": "هر دقیقه", "type": "phonebook",
		"phonebook_ids": []int64{pb}, "text": "hello", "schedule": map[string]any{"kind": "cron", "cron": "* * * * *"}}, token).Decode(t, &c)
	// Hold expansion back so the contacts land between the run's price and its expansion.
	if err := e.Inspector.PauseQueue(jobs.QueueDefault); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE campaigns SET next_run_at = now() WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	var sendID int64
	e.Wait("the run's send", 15*time.Second, func() bool {
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT id FROM sends WHERE campaign_id = $1`, c.ID).Scan(&sendID)
		return sendID != 0
	})
	e.Must(200, "POST", "/v1/api/send/campaigns/toggle", map[string]any{"id": c.ID, "enabled": false}, token)
	if c := credit(t, e, token); c != unit {
		t.Fatalf("after the run's hold the balance is %d, want %d", c, unit)
	}
	addContacts(t, e, token, pb, numbersFrom("0912", 11)[1:])
	if err := e.Inspector.UnpauseQueue(jobs.QueueDefault); err != nil {
		t.Fatal(err)
	}
	assertPaidOrDropped(t, e, token, acct, sendID, 2, 11, unit, 0)
}

// phonebookOf creates a phonebook holding the numbers and returns its id.
func phonebookOf(t *testing.T, e *enginetest.Engine, token string, numbers []string) int64 {
	t.Helper()
	var pb struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, token).Decode(t, &pb)
	addContacts(t, e, token, pb.ID, numbers)
	return pb.ID
}

func addContacts(t *testing.T, e *enginetest.Engine, token string, phonebook int64, numbers []string) {
	t.Helper()
	contacts := make([]map[string]any, len(numbers))
	for i, n := range numbers {
		contacts[i] = map[string]any{"number": n, "name": "مخاطب " + n[len(n)-3:]}
	}
	e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": phonebook, "contacts": contacts}, token)
}
