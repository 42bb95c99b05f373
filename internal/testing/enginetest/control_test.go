package enginetest_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

// Pause holds a running send (nothing more reaches the carrier), resume finishes it,
// and every recipient ends accounted for once with exact money.
func TestPauseResumeDone(t *testing.T) {
	const n = 6000
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.Rate = 1500; c.Burst = 150 }})
	token, acct := e.Account("pauser", "09121110003", "30006666", "service", 10_000_000)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "hello", "numbers": numbersFrom("0912", n)}, token).Decode(t, &a)
	e.Wait("the carrier accepting", 30*time.Second, func() bool { return e.Sim.Stats().Total.Accepted > 1 })
	var st send.Stopped
	e.Must(200, "POST", "/v1/api/send/pause", map[string]any{"id": a.ID}, token).Decode(t, &st)
	if st.Status != "paused" {
		t.Fatalf("pause answered %+v", st)
	}
	e.Must(409, "POST", "/v1/api/send/pause", map[string]any{"id": a.ID}, token)
	// The chunks in hand finish: the recorder deletes a chunk's claim once every
	// outcome of it is written, so with no claim left nothing of the send is in
	// flight. Then the carrier sees nothing more.
	e.Wait("the chunks in hand to finish", 2*time.Minute, func() bool {
		var claims int
		if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipient_claims WHERE send_id = $1`, a.ID).Scan(&claims); err != nil {
			t.Fatal(err)
		}
		return claims == 0
	})
	held := e.Sim.Stats().Total.Accepted
	time.Sleep(2 * time.Second) // a submit of the paused send would come now
	if now := e.Sim.Stats().Total.Accepted; now != held || held >= n {
		t.Fatalf("paused send kept submitting: %d then %d", held, now)
	}
	var stats report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if !stats.Paused || stats.Status != "paused" || stats.Pending == 0 {
		t.Fatalf("paused stats %+v", stats)
	}
	e.Must(200, "POST", "/v1/api/send/resume", map[string]any{"id": a.ID}, token).Decode(t, &st)
	if st.Status != "sending" {
		t.Fatalf("resume answered %+v", st)
	}
	assertAccounted(t, e, acct, a.ID, n)
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if len(stats.Controls) != 2 || stats.Controls[0].Action != "pause" || stats.Controls[1].Action != "resume" ||
		!strings.Contains(stats.Controls[0].By, "pauser") || stats.Controls[0].At.IsZero() {
		t.Fatalf("controls %+v", stats.Controls)
	}
	// Another account can neither pause nor see the send.
	other, _ := e.Account("stranger", "09121110004", "30006667", "service", 1_000_000)
	e.Must(404, "POST", "/v1/api/send/pause", map[string]any{"id": a.ID}, other)
	e.Must(404, "POST", "/v1/api/send/resume", map[string]any{"id": a.ID}, other)
}

// A scheduled send waits in the database, can be moved and cancelled with a full
// refund, and goes out when its time comes.
func TestScheduledSend(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("planner", "09121110005", "30007777", "service", 1_000_000)
	before := credit(t, e, token)
	at := time.Now().Add(10 * time.Minute).UTC().Truncate(time.Second)
	body := map[string]any{"text": "بعدا", "numbers": []string{"09121234500", "09351234500"}, "send_at": at}
	var a, b send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &b)
	if a.Status != "scheduled" || credit(t, e, token) != before-a.Price-b.Price {
		t.Fatalf("accepted %+v, credit %d", a, credit(t, e, token))
	}
	var list []send.ScheduledSend
	e.Must(200, "GET", "/v1/api/send/scheduled", nil, token).Decode(t, &list)
	if len(list) != 2 || list[0].Recipients != 2 || !list[0].SendAt.Equal(at) {
		t.Fatalf("scheduled list %+v", list)
	}
	// Moving to the past is refused; moving ahead is recorded.
	r := e.Do("POST", "/v1/api/send/scheduled/update", map[string]any{"id": a.ID, "send_at": time.Now().Add(time.Minute)}, token)
	if r.Status != 422 || r.Meta.Errors["send_at"][0] != send.MsgSendAtPast {
		t.Fatalf("past reschedule: %d %+v", r.Status, r.Meta)
	}
	e.Must(200, "POST", "/v1/api/send/scheduled/update", map[string]any{"id": a.ID, "send_at": at.Add(time.Hour)}, token)
	// A longer text: priced again, and the hold follows to the rial.
	longer := strings.Repeat("ب", 80)
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", map[string]any{"text": longer, "numbers": body["numbers"]}, token).Decode(t, &q)
	e.Must(200, "POST", "/v1/api/send/scheduled/update", map[string]any{"id": a.ID, "send_at": at.Add(time.Hour), "text": longer}, token)
	if c := credit(t, e, token); q.Parts != 2 || c != before-q.Price-b.Price {
		t.Fatalf("credit after text edit %d, want %d (quote %+v)", c, before-q.Price-b.Price, q)
	}
	a.Price = q.Price
	// Cancelling the other gives back its whole hold.
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": b.ID}, token)
	if c := credit(t, e, token); c != before-a.Price {
		t.Fatalf("credit after cancel %d, want %d", c, before-a.Price)
	}
	var stoppedB report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(b.ID), nil, token).Decode(t, &stoppedB)
	if stoppedB.Stopped == 0 || stoppedB.Stopped != stoppedB.Requested || stoppedB.Pending != 0 {
		t.Fatalf("a send stopped before its expansion: %+v", stoppedB)
	}
	// Time passes (the database clock is the one that fires schedules).
	time.Sleep(1500 * time.Millisecond)
	if s := sendStats(t, e, a.ID); s.Status != "scheduled" {
		t.Fatalf("fired early: %+v", s)
	}
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE sends SET send_at = now() WHERE id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	e.Wait("the scheduled send delivered", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == 2
	})
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != charged(t, e, a.ID) || taken != a.Price {
		t.Fatalf("ledger took %d, quoted %d", taken, a.Price)
	}
	if msg, _ := e.Sim.Latest("989121234500"); msg.Text != longer {
		t.Fatalf("handset got %q", msg.Text)
	}
	var stats report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &stats)
	if len(stats.Controls) != 2 || stats.Controls[0].Action != "reschedule" {
		t.Fatalf("controls %+v", stats.Controls)
	}
}

// A recurring campaign under a clock 60 times faster than real time fires once per
// (fast) minute, each run a normal send; a run that cannot be paid is recorded as
// failed and the campaign carries on.
func TestRecurringCampaignFiresTwice(t *testing.T) {
	start := time.Now()
	var fast atomic.Bool
	clock := func() time.Time {
		if !fast.Load() {
			return start
		}
		return start.Add(time.Since(start) * 60)
	}
	e := enginetest.Start(t, enginetest.Options{Now: clock})
	e.Deps.Campaigns.Now = clock
	token, acct := e.Account("repeater", "09121110006", "30008888", "service", 1_000_000)
	poor, poorAcct := e.Account("poorman", "09121110007", "30008889", "service", 0)
	in := map[string]any{"title": "یادآوری", "type": "quick", "text": "یادآوری دقیقه‌ای", "numbers": []string{"09121234501"},
		"schedule": map[string]any{"kind": "cron", "cron": "* * * * *"}}
	var c, pc campaign.Campaign
	e.Must(201, "POST", "/v1/api/send/campaigns", in, token).Decode(t, &c)
	e.Must(201, "POST", "/v1/api/send/campaigns", in, poor).Decode(t, &pc)
	if !c.Enabled || c.NextRunAt == nil || c.Source.Numbers[0] != "09121234501" {
		t.Fatalf("campaign %+v", c)
	}
	bad := map[string]any{"title": "", "type": "quick", "text": "x", "numbers": []string{"123"}, "schedule": map[string]any{"kind": "weekly", "time": "9"}}
	r := e.Do("POST", "/v1/api/send/campaigns", bad, token)
	errs := r.Meta.Errors
	if r.Status != 422 || len(errs["title"]) == 0 || len(errs["numbers"]) == 0 || len(errs["schedule.time"]) == 0 || len(errs["schedule.weekdays"]) == 0 {
		t.Fatalf("bad campaign: %d %+v", r.Status, errs)
	}
	fast.Store(true)
	e.Wait("two runs", 30*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sends WHERE campaign_id = $1 AND status = 'done'`, c.ID).Scan(&n)
		return n >= 2
	})
	e.Must(200, "POST", "/v1/api/send/campaigns/toggle", map[string]any{"id": c.ID, "enabled": false}, token)
	var runs []campaign.Run
	e.Must(200, "GET", "/v1/api/send/campaigns/"+itoa(c.ID)+"/runs", nil, token).Decode(t, &runs)
	if len(runs) < 2 || runs[0].Status != "sent" || runs[0].SendID == nil || !runs[0].At.After(runs[1].At) {
		t.Fatalf("runs %+v", runs)
	}
	if bal, sum, err := e.Deps.Wallet.Check(context.Background(), acct); err != nil || bal != sum {
		t.Fatalf("wallet %d ledger %d %v", bal, sum, err)
	}
	// The account without credit: its runs fail, are recorded and counted.
	e.Wait("a failed run", 10*time.Second, func() bool {
		var n int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT failed_runs FROM campaigns WHERE id = $1`, pc.ID).Scan(&n)
		return n >= 1
	})
	e.Must(200, "GET", "/v1/api/send/campaigns/"+itoa(pc.ID)+"/runs", nil, poor).Decode(t, &runs)
	if runs[0].Status != "failed" || runs[0].Error != apperr.MsgLowCredit || runs[0].SendID != nil {
		t.Fatalf("failed run %+v", runs[0])
	}
	var sends int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sends WHERE account_id = $1`, poorAcct).Scan(&sends)
	if sends != 0 {
		t.Fatalf("a failed run left %d sends", sends)
	}
	// Isolation.
	e.Must(404, "GET", "/v1/api/send/campaigns/"+itoa(c.ID)+"/runs", nil, poor)
	e.Must(404, "POST", "/v1/api/send/campaigns/toggle", map[string]any{"id": c.ID, "enabled": true}, poor)
	e.Must(404, "POST", "/v1/api/send/campaigns/delete", map[string]any{"id": c.ID}, poor)
	e.Must(200, "POST", "/v1/api/send/campaigns/delete", map[string]any{"id": c.ID}, token)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
