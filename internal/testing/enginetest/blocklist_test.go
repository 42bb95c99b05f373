package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/send"
)

// blockedRecipient is a recipient row as the report lists it.
type blockedRecipient struct {
	Mobile string `json:"mobile"`
	Status int    `json:"status"`
	Error  string `json:"error"`
}

// blocklistSendFinal waits until every one of the send's n recipients is final and the
// send is closed.
func blocklistSendFinal(t *testing.T, e *enginetest.Engine, sendID int64, n int) {
	t.Helper()
	e.Wait("every recipient final and the send closed", 120*time.Second, func() bool {
		var open, total int
		var finished bool
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE x.status NOT IN (2, 3, 4, 6)), count(*),
			bool_and(s.finished_at IS NOT NULL) FROM recipients x JOIN sends s ON s.id = x.send_id WHERE x.send_id = $1`,
			sendID).Scan(&open, &total, &finished)
		return total == n && open == 0 && finished
	})
}

// submittedTo counts the messages the simulator received for a handset.
func submittedTo(e *enginetest.Engine, mobile string) int { return len(e.Sim.Messages(mobile)) }

// An advertising send to ten numbers, two of them on MCI's block list: the quote
// shows the two on a line of their own, the two are never submitted nor charged
// and show as «لیست سیاه» (status 4) with the reason; a service-line send to the
// same ten numbers submits all ten.
func TestOperatorBlocklistAdvertisingSkips(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	ctx := context.Background()
	numbers := numbersFrom("0912", 10)
	blocked := []string{"989120000003", "989120000007"}
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO operator_blocklist (mobile, operator) SELECT unnest($1::text[]), 'mci'`, blocked); err != nil {
		t.Fatal(err)
	}
	adToken, adAcct := e.Account("adblock", "09121110071", "30007171", "advertising", 20_000_000)
	svcToken, svcAcct := e.Account("svcblock", "09121110072", "30007272", "service", 20_000_000)
	body := map[string]any{"text": "حراج ویژه", "numbers": numbers}

	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, adToken).Decode(t, &q)
	if q.OperatorBlocked != 2 || q.Recipients != 8 || q.Blacklisted != 0 {
		t.Fatalf("advertising quote %+v, want 2 operator-blocked and 8 recipients", q)
	}
	var sq send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, svcToken).Decode(t, &sq)
	if sq.OperatorBlocked != 0 || sq.Recipients != 10 {
		t.Fatalf("service quote %+v, want every number", sq)
	}

	var ad send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, adToken).Decode(t, &ad)
	blocklistSendFinal(t, e, ad.ID, 10)
	for _, m := range blocked {
		if n := submittedTo(e, m); n != 0 {
			t.Fatalf("%s is on the operator's list but was submitted %d times", m, n)
		}
	}
	if n := submittedTo(e, "989120000000"); n != 1 {
		t.Fatalf("an unlisted number was submitted %d times", n)
	}
	// The counters are folded into the send a moment after the receipts.
	e.Wait("the eight sent counted delivered", 60*time.Second, func() bool { return sendStats(t, e, ad.ID).Delivered == 8 })
	s := sendStats(t, e, ad.ID)
	if s.Blacklisted != 2 || s.Recipients != 8 || s.Submitted != 8 {
		t.Fatalf("advertising send %+v, want 2 blacklisted and 8 sent", s)
	}
	var stats struct {
		Blacklisted     int `json:"blacklisted"`
		OperatorBlocked int `json:"operator_blocked"`
	}
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(ad.ID), nil, adToken).Decode(t, &stats)
	if stats.Blacklisted != 2 || stats.OperatorBlocked != 2 {
		t.Fatalf("bulk_stats %+v", stats)
	}
	var rows []blockedRecipient
	e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(ad.ID)+"&status=4", nil, adToken).Decode(t, &rows)
	if len(rows) != 2 || rows[0].Error != send.MsgOperatorBlocked {
		t.Fatalf("«لیست سیاه» recipients %+v", rows)
	}
	if taken, want := ledgerBalanced(t, e, adAcct, ad.ID), charged(t, e, ad.ID); taken != want || taken != q.Price {
		t.Fatalf("ledger took %d, the eight sent cost %d (quote %d)", taken, want, q.Price)
	}

	var svc send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, svcToken).Decode(t, &svc)
	assertAccounted(t, e, svcAcct, svc.ID, 10)
	for _, m := range blocked {
		if n := submittedTo(e, m); n != 1 {
			t.Fatalf("a service send must ignore the list: %s submitted %d times", m, n)
		}
	}
}

// The carrier answers a number as blocked (receipt REJECTD, err 014): the number
// joins the operator's list (source receipt), its recipient shows «لیست سیاه»
// and is refunded in full; the next advertising send leaves it out.
func TestCarrierBlockedReceiptFillsList(t *testing.T) {
	const mobile = "989121180002"
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.Blocked = map[string][]string{"mci": {mobile}}
	}})
	ctx := context.Background()
	token, acct := e.Account("rcptblock", "09121110073", "30007373", "advertising", 20_000_000)
	numbers := []string{"09121180001", "09121180002", "09121180003"}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "پیشنهاد ویژه", "numbers": numbers}, token).Decode(t, &a)
	blocklistSendFinal(t, e, a.ID, 3)
	e.Wait("the blocked recipient refunded", 60*time.Second, func() bool {
		var status int
		_ = e.DB.Pool.QueryRow(ctx, `SELECT status FROM recipients WHERE send_id = $1 AND mobile = $2`, a.ID, mobile).Scan(&status)
		return status == send.RcptBlacklisted
	})
	if st := e.Sim.Stats().Total; st.Blocked != 1 {
		t.Fatalf("the simulator answered %d messages blocked", st.Blocked)
	}
	var source, op string
	if err := e.DB.Pool.QueryRow(ctx, `SELECT source, operator FROM operator_blocklist WHERE mobile = $1`, mobile).Scan(&source, &op); err != nil {
		t.Fatalf("the number is not on the list: %v", err)
	}
	if source != "receipt" || op != "mci" {
		t.Fatalf("listed as %s by %s", op, source)
	}
	var rows []blockedRecipient
	e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(a.ID)+"&status=4", nil, token).Decode(t, &rows)
	if len(rows) != 1 || rows[0].Mobile != mobile || rows[0].Error != send.MsgCarrierBlocked {
		t.Fatalf("«لیست سیاه» recipients %+v", rows)
	}
	var cost int64
	if err := e.DB.Pool.QueryRow(ctx, `SELECT cost FROM recipients WHERE send_id = $1 AND mobile <> $2 LIMIT 1`, a.ID, mobile).Scan(&cost); err != nil {
		t.Fatal(err)
	}
	e.Wait("the ledger settled", 30*time.Second, func() bool { return ledgerBalanced(t, e, acct, a.ID) == 2*cost })
	if s := sendStats(t, e, a.ID); s.Refunded != cost {
		t.Fatalf("send refunded %d, want the blocked recipient's %d", s.Refunded, cost)
	}

	var next send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "پیشنهاد دوم", "numbers": numbers}, token).Decode(t, &next)
	blocklistSendFinal(t, e, next.ID, 3)
	if n := submittedTo(e, mobile); n != 1 {
		t.Fatalf("the listed number was submitted %d times in all, want only the first", n)
	}
	e.Wait("the two sent counted delivered", 60*time.Second, func() bool { return sendStats(t, e, next.ID).Delivered == 2 })
	if s := sendStats(t, e, next.ID); s.Blacklisted != 1 || s.Recipients != 2 {
		t.Fatalf("second send %+v", s)
	}
}
