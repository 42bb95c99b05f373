package enginetest_test

import (
	"github.com/hibiken/asynq"

	"context"
	"fmt"
	"github.com/chapar/chapar/jobs"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/send"
)

// A gateway killed with SIGKILL in the middle of a send: after a new gateway takes
// over, every recipient is final exactly once, nothing was submitted twice, and the
// ledger equals the cost of what was submitted.
func TestGatewayKilledMidSend(t *testing.T) {
	// The simulator redelivers receipts the dead gateway never acknowledged after 2 s;
	// a held recipient with no receipt 40 s after the kill was never sent (the
	// production grace is 48 hours).
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.Rate, c.Burst, c.RetryTimeout = 1500, 100, 2*time.Second
	}})
	e.Worker.Sweep = send.SweepConfig{Abandoned: 2 * time.Second, Stalled: 3 * time.Second, NoReceipt: 40 * time.Second}
	token, acct := e.Account("killer", "09121110003", "30006666", "service", 20_000_000)
	gw := e.StartGatewayProcess(t)
	const n = 6000
	numbers := make([]string, n)
	for i := range numbers {
		numbers[i] = fmt.Sprintf("0912%07d", i)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "kill test", "numbers": numbers}, token).Decode(t, &a)
	e.Wait("the carrier accepting", 30*time.Second, func() bool { return e.Sim.Stats().Total.Accepted > 1500 })
	gw.Kill()
	acceptedAtKill := e.Sim.Stats().Total.Accepted
	if acceptedAtKill >= n {
		t.Fatalf("the send finished before the kill (%d accepted)", acceptedAtKill)
	}
	// The sweeper takes the dead gateway's claims over: only the recipients it may
	// have handed to the SMSC (its grants) become unknown; the rest are queued again.
	// No gateway runs meanwhile, so no receipt reconciles an unknown one yet.
	e.Wait("the dead gateway's claims taken over", 30*time.Second, func() bool {
		var claims int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipient_claims WHERE send_id = $1`, a.ID).Scan(&claims)
		return claims == 0
	})
	var unknown, claimed int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE unknown), count(*) FILTER (WHERE status = 7)
		FROM recipients WHERE send_id = $1`, a.ID).Scan(&unknown, &claimed); err != nil {
		t.Fatal(err)
	}
	// Unknown now: what was in flight (one bind, a window of 100), the answers the
	// dead gateway had not yet recorded (more on a loaded machine, where its group
	// transactions lag), and the grants in hand that it never sent. Only the last
	// end without a receipt; they are bounded below.
	if claimed != 0 {
		t.Fatalf("after the takeover: %d still claimed", claimed)
	}
	e.StartGatewayProcess(t)
	e.Wait("every recipient final", 150*time.Second, func() bool {
		var open int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipients WHERE send_id = $1 AND status NOT IN (2, 3, 4, 6)`, a.ID).Scan(&open)
		return open == 0
	})
	e.Wait("send closed", 30*time.Second, func() bool { return sendStats(t, e, a.ID).Status == "done" })
	st := e.Sim.Stats()
	if st.Duplicates != 0 {
		t.Fatalf("%d duplicate submits: %v", st.Duplicates, st.DuplicateDestinations)
	}
	var delivered, noReceipt, total int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status = 2),
		count(*) FILTER (WHERE status = 3 AND error = 'no-receipt'), count(*) FROM recipients WHERE send_id = $1`, a.ID).
		Scan(&delivered, &noReceipt, &total); err != nil {
		t.Fatal(err)
	}
	// Each recipient the carrier accepted reached its handset once; the ones the dead
	// gateway held but never sent end as not reached (their outcome was unknown).
	accepted := int(st.Total.Accepted) - 1 // minus the account's login code
	// The grants of the six batches in hand (sized by pace, 16 at least) are all
	// that may never reach the carrier: 86 on a quiet machine. Claiming 500 per
	// chunk without grants left 1,432 unknown here.
	if noReceipt > 250 {
		t.Fatalf("%d recipients granted and never sent (want at most 250)", noReceipt)
	}
	if total != n || delivered != accepted || delivered+noReceipt != n || noReceipt > unknown {

		t.Fatalf("recipients %d, delivered %d, no receipt %d, carrier accepted %d", total, delivered, noReceipt, accepted)
	}
	if taken, want := ledgerBalanced(t, e, acct, a.ID), charged(t, e, a.ID); taken != want {
		t.Fatalf("ledger took %d, submitted cost %d", taken, want)
	}
	t.Logf("killed at %d accepted; %d unknown after the takeover; %d delivered, %d unknown without receipt",
		acceptedAtKill, unknown, delivered, noReceipt)
}

// An inbound «۱۱» puts the sender on the account's cancel-11 list: the next send
// marks it blacklisted (status 4) and does not charge it; «12» takes it off.
func TestCancel11FromInbound(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("optout", "09121110004", "30007777", "advertising", 1_000_000)
	if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121230000", To: "30007777", Text: "۱۱"}); err != nil {
		t.Fatal(err)
	}
	e.Wait("the opt-out stored", 10*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM blacklist WHERE account_id = $1 AND kind = 'cancel11'
			AND mobile = '989121230000' AND source = 'inbound'`, acct).Scan(&n)
		return n == 1
	})
	var inbox int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM inbox WHERE account_id = $1 AND sender = '989121230000'`, acct).Scan(&inbox)
	if inbox != 1 {
		t.Fatalf("inbox rows %d", inbox)
	}
	body := map[string]any{"text": "offer", "numbers": []string{"09121230000", "09121230001"}}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Recipients != 1 || q.Blacklisted != 1 {
		t.Fatalf("quote %+v", q)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Wait("done", 15*time.Second, func() bool { s := sendStats(t, e, a.ID); return s.Status == "done" && s.Delivered == 1 })
	var status, cost int64
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, cost FROM recipients WHERE send_id = $1 AND mobile = '989121230000'`, a.ID).Scan(&status, &cost); err != nil {
		t.Fatal(err)
	}
	if status != 4 || cost != 0 {
		t.Fatalf("opted-out recipient: status %d cost %d", status, cost)
	}
	if m := e.Sim.Messages("989121230000"); len(m) != 0 {
		t.Fatalf("opted-out handset received %d messages", len(m))
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != q.Price || taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d, quote %d", taken, q.Price)
	}
	// «12» takes the number off the list again.
	if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121230000", To: "30007777", Text: "12"}); err != nil {
		t.Fatal(err)
	}
	e.Wait("the opt-in stored", 10*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM blacklist WHERE account_id = $1 AND mobile = '989121230000'`, acct).Scan(&n)
		return n == 0
	})
}

// assertAccounted checks the end state every fault must leave: every recipient
// final exactly once, no duplicate submit at the carrier, and the ledger equal to
// the cost of what was submitted.
func assertAccounted(t *testing.T, e *enginetest.Engine, acct, sendID int64, n int) {
	t.Helper()
	e.Wait("every recipient final", 120*time.Second, func() bool {
		var open, total int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status NOT IN (2, 3, 4, 6)), count(*)
			FROM recipients WHERE send_id = $1`, sendID).Scan(&open, &total)
		return total == n && open == 0
	})
	e.Wait("send closed and counted", 30*time.Second, func() bool {
		s := sendStats(t, e, sendID)
		return s.Status == "done" && s.Delivered+s.Undelivered+s.Rejected == n
	})
	if st := e.Sim.Stats(); st.Duplicates != 0 {
		t.Fatalf("%d duplicate submits: %v", st.Duplicates, st.DuplicateDestinations)
	}
	s := sendStats(t, e, sendID)
	if s.Recipients != n || s.Delivered+s.Undelivered+s.Rejected != n {
		t.Fatalf("counters %+v for %d recipients", s, n)
	}
	if taken, want := ledgerBalanced(t, e, acct, sendID), charged(t, e, sendID); taken != want {
		t.Fatalf("ledger took %d, submitted cost %d", taken, want)
	}
}

func numbersFrom(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%07d", prefix, i)
	}
	return out
}

// The carrier drops the SMPP connection in the middle of a send.
func TestConnectionDroppedMidSend(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.RetryTimeout = 2 * time.Second }})
	e.Worker.Sweep = send.SweepConfig{Abandoned: 2 * time.Second, Stalled: 3 * time.Second, NoReceipt: 30 * time.Second}
	token, acct := e.Account("dropper", "09121110005", "30008888", "service", 20_000_000)
	if err := e.Sim.Disconnect("mci", 1500); err != nil {
		t.Fatal(err)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "drop test", "numbers": numbersFrom("0912", 4000)}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, 4000)
	if d := e.Sim.Stats().Total.Disconnects; d == 0 {
		t.Fatal("the connection was never dropped")
	}
}

// The carrier throttles: everything still goes out once, nothing twice. Its
// limit is low enough (400/s on the bind) that even a loaded machine goes past it.
func TestCarrierThrottles(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.Rate, c.Burst = 400, 40 }})
	token, acct := e.Account("throttled", "09121110006", "30009999", "service", 20_000_000)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "throttle test", "numbers": numbersFrom("0935", 2000)}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, 2000)
	if s := sendStats(t, e, a.ID); s.Delivered != 2000 {
		t.Fatalf("delivered %d", s.Delivered)
	}
	if th := e.Sim.Stats().Total.Throttled; th == 0 {
		t.Fatal("the carrier never throttled")
	}
}

// asynq delivers the same batch twice (a second task for every batch).
func TestBatchTaskDeliveredTwice(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("twice", "09121110007", "30001010", "service", 20_000_000)
	e.StopGateway() // hold the batches until both copies are queued
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "twice", "numbers": numbersFrom("0920", 2500)}, token).Decode(t, &a)
	e.Wait("expanded", 15*time.Second, func() bool { return sendStats(t, e, a.ID).Status == "sending" })
	rows, err := e.DB.Pool.Query(context.Background(), `SELECT DISTINCT batch, operator FROM recipients WHERE send_id = $1 AND status = 5`, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	var copies int
	for rows.Next() {
		var b int
		var op string
		if err := rows.Scan(&b, &op); err != nil {
			t.Fatal(err)
		}
		task, _ := jobs.NewSendBatch(jobs.SendBatch{SendID: a.ID, Batch: b, Operator: op}, false)
		if _, err := e.Queue.Enqueue(task, asynq.TaskID(fmt.Sprintf("dup:%d:%d", a.ID, b))); err != nil {
			t.Fatal(err)
		}
		copies++
	}
	rows.Close()
	if copies != 3 {
		t.Fatalf("%d batches", copies)
	}
	e.StartGateway(t)
	assertAccounted(t, e, acct, a.ID, 2500)
}
