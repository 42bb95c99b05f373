package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

// An advertising bulk send still in flight at 22:00 pauses (nothing is
// submitted after the window closes, its recipients stay queued, the report
// says when it resumes) and resumes at 07:00: every recipient is submitted
// exactly once and the ledger is exact.
func TestSendCrossingWindowEndPausesAndResumes(t *testing.T) {
	const n = 6000
	today := time.Now().In(persian.Tehran)
	day := func(days, h, m int) time.Time {
		return time.Date(today.Year(), today.Month(), today.Day()+days, h, m, 0, 0, persian.Tehran)
	}
	clock := testenv.NewClock(day(1, 21, 59))
	e := enginetest.Start(t, enginetest.Options{Clock: clock.Now, Sim: func(c *smscsim.Config) { c.Rate = 1500; c.Burst = 150 }})
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE send_hours SET start_minute = 420, end_minute = 1320`); err != nil {
		t.Fatal(err)
	}
	token, acct := e.Account("nightly", "09121110041", "30004141", "advertising", 20_000_000)
	base := e.Sim.Stats().Total.Accepted // the login's code
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "حراج", "numbers": numbersFrom("0912", n)}, token).Decode(t, &a)
	e.Wait("the carrier accepting", 30*time.Second, func() bool { return e.Sim.Stats().Total.Accepted > base+1 })
	clock.Set(day(1, 22, 0))

	e.Wait("the send paused with nothing in hand", 60*time.Second, func() bool {
		var status string
		var inHand int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT status, (SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 7)
			+ (SELECT count(*) FROM recipient_claims WHERE send_id = $1) FROM sends WHERE id = $1`, a.ID).Scan(&status, &inHand)
		return status == "paused" && inHand == 0
	})
	held := e.Sim.Stats().Total.Accepted
	var queued, submitted int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status = 5), count(*) FILTER (WHERE status <> 5)
		FROM recipients WHERE send_id = $1`, a.ID).Scan(&queued, &submitted); err != nil {
		t.Fatal(err)
	}
	if queued == 0 || held-base < int64(submitted) || submitted+queued != n {
		t.Fatalf("paused at 22:00: carrier accepted %d, %d queued, %d submitted", held, queued, submitted)
	}
	var stats report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if !stats.Paused || stats.WindowResumeAt == nil || !stats.WindowResumeAt.Equal(day(2, 7, 0)) || stats.WindowNote == "" {
		t.Fatalf("report of the paused send: %+v", stats)
	}
	if got := e.Sim.Stats().Total.Accepted; got != held {
		t.Fatalf("submitted after the window closed: %d then %d", held, got)
	}

	clock.Set(day(2, 7, 0))
	assertAccounted(t, e, acct, a.ID, n)
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if len(stats.Controls) != 2 || stats.Controls[0].Action != send.ActionPause || stats.Controls[1].Action != send.ActionResume {
		t.Fatalf("controls %+v", stats.Controls)
	}
}
