package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

// A gradual send of 10,000 at 2,000 an hour, under a clock the test moves an
// hour at a time: after each hour the recipients handed to the carrier are
// within 5% of 2,000 × hours (and nothing more goes while the clock stands);
// a one-time code asked for meanwhile goes out at once; stopped midway, the
// send refunds exactly the recipients never submitted.
func TestGradualSendKeepsItsPaceAndStopsWithExactRefund(t *testing.T) {
	const n, perHour = 10_000, 2_000
	today := time.Now().In(persian.Tehran)
	start := time.Date(today.Year(), today.Month(), today.Day()+1, 8, 0, 0, 0, persian.Tehran)
	clock := testenv.NewClock(start)
	e := enginetest.Start(t, enginetest.Options{Clock: clock.Now})
	e.Worker.Sweep = send.SweepConfig{Abandoned: 2 * time.Second, Stalled: 3 * time.Second, NoReceipt: 30 * time.Second}
	token, acct := e.Account("gradual", "09121110051", "30005151", "service", 50_000_000)
	names := otpUsers(t, e, 1)
	body := map[string]any{"text": "ارسال تدریجی", "numbers": numbersFrom("0912", n), "gradual": map[string]int{"per_hour": perHour}}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Gradual == nil || q.Gradual.PerHour != perHour || !q.Gradual.EstimatedEnd.Equal(start.Add(5*time.Hour)) {
		t.Fatalf("quote of the gradual send: %+v", q.Gradual)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)

	for _, h := range []float64{0, 1, 2, 2.5} {
		clock.Set(start.Add(time.Duration(h * float64(time.Hour))))
		want := int(perHour*h) + perHour/60 + 1
		got := waitPaced(t, e, a.ID, want)
		if off := float64(got) - perHour*h; h == 0 && got != want || h > 0 && (off > perHour*h*0.05 || off < -perHour*h*0.05) {
			t.Fatalf("after %v hours %d recipients released, want %v ± 5%%", h, got, perHour*h)
		}
		if h == 1 {
			assertCodeGoesAtOnce(t, e, names[0], a.ID, got)
		}
	}
	var stats report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if stats.PacePerHour == nil || *stats.PacePerHour != perHour || stats.PaceEndAt == nil || stats.PaceNote == "" {
		t.Fatalf("report of the gradual send: %+v", stats)
	}
	assertStoppedExactly(t, e, token, acct, a.ID, n)
}

// waitPaced waits until the send has released want recipients and waits for
// its next allotment with nothing in hand, and returns how many it released.
func waitPaced(t *testing.T, e *enginetest.Engine, sendID int64, want int) int {
	t.Helper()
	var released int
	e.Wait("the gradual send's allotment handed over", 120*time.Second, func() bool {
		var waiting bool
		var inHand, out int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT pace_released, pace_wait_until IS NOT NULL,
			(SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 7),
			(SELECT count(*) FROM recipients WHERE send_id = $1 AND status <> 5) FROM sends WHERE id = $1`, sendID).
			Scan(&released, &waiting, &inHand, &out)
		return released >= want && waiting && inHand == 0 && out == released
	})
	return released
}

// assertCodeGoesAtOnce asks for a password-reset code while the gradual send
// waits for its next allotment: the code reaches the carrier, and the gradual
// send releases nothing more meanwhile.
func assertCodeGoesAtOnce(t *testing.T, e *enginetest.Engine, name string, sendID int64, released int) {
	t.Helper()
	e.Must(200, "POST", "/v1/api/acl/auth/forgot_password", map[string]string{"username": name}, "")
	mobile := "98" + otpMobile(0)[1:]
	sent := []otpSent{{mobile: mobile, code: e.LastCode(mobile), accepted: time.Now()}}
	e.Wait("the code at the handset", 60*time.Second, func() bool { return otpsSubmitted(e, sent) })
	var out int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipients WHERE send_id = $1 AND status <> 5`,
		sendID).Scan(&out); err != nil {
		t.Fatal(err)
	}
	if out != released {
		t.Fatalf("the gradual send went on with the clock standing: %d released, then %d", released, out)
	}
}

// assertStoppedExactly stops the send: every recipient never submitted is
// stopped and refunded, and the ledger takes exactly what was submitted.
func assertStoppedExactly(t *testing.T, e *enginetest.Engine, token string, acct, sendID int64, n int) {
	t.Helper()
	var queued, queuedCost int64
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*), coalesce(sum(cost), 0) FROM recipients
		WHERE send_id = $1 AND status = 5`, sendID).Scan(&queued, &queuedCost); err != nil {
		t.Fatal(err)
	}
	var st send.Stopped
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": sendID}, token).Decode(t, &st)
	if st.Refunded != queuedCost || queued == 0 {
		t.Fatalf("stop refunded %d for %d queued recipients costing %d", st.Refunded, queued, queuedCost)
	}
	e.Wait("every recipient final, the send closed and counted", 120*time.Second, func() bool {
		var open int
		var finished bool
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM recipients WHERE send_id = $1
			AND status NOT IN (2, 3, 4, 6)), finished_at IS NOT NULL FROM sends WHERE id = $1`, sendID).Scan(&open, &finished)
		s := sendStats(t, e, sendID)
		return open == 0 && finished && s.Delivered+s.Undelivered+s.Rejected == n
	})
	s := sendStats(t, e, sendID)
	if s.Status != send.StatusStopped || s.Recipients != n || s.Delivered+s.Undelivered+s.Rejected != n {
		t.Fatalf("stopped send counters %+v", s)
	}
	if taken, want := ledgerBalanced(t, e, acct, sendID), charged(t, e, sendID); taken != want {
		t.Fatalf("ledger took %d, submitted cost %d", taken, want)
	}
}
