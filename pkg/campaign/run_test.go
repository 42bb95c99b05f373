package campaign_test

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// sendsPerMin is the test's send rate limit per account.
const sendsPerMin = 2

// world is a database, a Redis database and the campaign service over a real send
// service (rate limiter included), without the rest of the stack.
type world struct {
	t     *testing.T
	d     testenv.Database
	sends *send.Service
	svc   *campaign.Service
}

func newWorld(t *testing.T) *world { return newWorldLimit(t, sendsPerMin) }

// newWorldLimit is a world whose accounts may make perMin sends a minute.
func newWorldLimit(t *testing.T, perMin int) *world {
	d := testenv.Postgres(t)
	r := testenv.RedisDB(t)
	queue := asynq.NewClient(asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB})
	t.Cleanup(func() { _ = queue.Close() })
	sends := send.New(d.Pool, queue, line.New(d.Pool), ratelimit.New(r.Client, "rl:"), perMin, nil)
	return &world{t: t, d: d, sends: sends, svc: campaign.New(d.Pool, sends, nil)}
}

func (w *world) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// account creates a funded account with a default service line.
func (w *world) account(name, number string) acl.Identity {
	w.t.Helper()
	ctx := context.Background()
	var id int64
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, name).Scan(&id))
	_, err := w.d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind, is_default) VALUES ($1, $2, 'service', true)`, id, number)
	w.must(err)
	w.must(pgx.BeginFunc(ctx, w.d.Pool, func(tx pgx.Tx) error {
		_, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: id, Kind: wallet.AdminCredit, Amount: 1_000_000})
		return err
	}))
	return acl.Identity{AccountID: id, IsOwner: true}
}

func (w *world) create(id acl.Identity, title string) campaign.Campaign {
	w.t.Helper()
	c, err := w.svc.Create(context.Background(), id, campaign.Input{Title: title,
		Request:  send.Request{Type: send.TypeQuick, Text: "یادآوری", Numbers: []string{"09121234501"}},
		Schedule: campaign.Schedule{Kind: campaign.Daily, Time: "09:00"}})
	w.must(err)
	return c
}

// dueBy makes a campaign due since ago (an older due time is served first).
func (w *world) dueBy(id int64, ago time.Duration) {
	w.t.Helper()
	_, err := w.d.Pool.Exec(context.Background(), `UPDATE campaigns SET next_run_at = $2 WHERE id = $1`, id, time.Now().Add(-ago))
	w.must(err)
}

type state struct {
	enabled bool
	next    *time.Time
	retry   *time.Time
	runs    int
	sends   int
}

func (w *world) state(id int64) state {
	w.t.Helper()
	var s state
	w.must(w.d.Pool.QueryRow(context.Background(), `SELECT enabled, next_run_at, retry_at, runs,
		(SELECT count(*) FROM sends WHERE campaign_id = $1) FROM campaigns WHERE id = $1`, id).
		Scan(&s.enabled, &s.next, &s.retry, &s.runs, &s.sends))
	return s
}

// One tenant's campaigns that fail on every tick (a never-firing cron stored due at
// year 0001 before schedules were checked, an unreadable row, an account that used
// up its send rate limit) are pushed back or turned off; another account's due
// campaign still fires on the same tick, and the failing ones are not retried on
// the next.
func TestFailingCampaignsDoNotBlockOthers(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	victim := w.account("victim", "30001")
	attacker := w.account("attacker", "30002")

	limited := w.create(attacker, "over the limit")
	w.dueBy(limited.ID, time.Hour)
	for range sendsPerMin { // the attacker's own sends use up its limit
		_, _, err := w.sends.Create(ctx, attacker, send.Request{Text: "x", Numbers: []string{"09121234502"}}, "", "")
		w.must(err)
	}
	var never, broken int64
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO campaigns (account_id, title, request, schedule, next_run_at)
		VALUES ($1, 'never', $2, '{"kind":"cron","cron":"0 0 30 2 *"}', '0001-01-01') RETURNING id`,
		attacker.AccountID, send.Request{Type: send.TypeQuick, Text: "x", Numbers: []string{"09121234503"}}).Scan(&never))
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO campaigns (account_id, title, request, schedule, next_run_at)
		VALUES ($1, 'broken', '{}', '"weekly"', now() - interval '2 hours') RETURNING id`, attacker.AccountID).Scan(&broken))
	good := w.create(victim, "on time")
	w.dueBy(good.ID, time.Second)

	if _, err := w.svc.RunDue(ctx); err != nil {
		t.Fatalf("run due: %v", err)
	}
	if s := w.state(good.ID); s.runs != 1 || s.sends != 1 || s.retry != nil || !s.next.After(time.Now()) {
		t.Fatalf("the victim's campaign did not fire on time: %+v", s)
	}
	s := w.state(limited.ID)
	if s.runs != 0 || s.sends != 0 || s.retry == nil || !s.retry.After(time.Now()) || s.next.After(time.Now()) {
		t.Fatalf("the rate-limited campaign was not postponed: %+v", s)
	}
	for _, id := range []int64{never, broken} {
		if s := w.state(id); s.enabled || s.next != nil || s.runs != 0 || s.sends != 0 {
			t.Fatalf("campaign %d without a next run is still scheduled: %+v", id, s)
		}
	}
	// The next tick retries none of them.
	if n, err := w.svc.RunDue(ctx); err != nil || n != 0 {
		t.Fatalf("second tick handled %d (%v)", n, err)
	}
	// The turned-off never-firing campaign cannot be turned back on.
	if _, err := w.svc.Toggle(ctx, attacker.AccountID, never, true); err == nil {
		t.Fatal("a never-firing campaign was enabled again")
	} else if fe, ok := apperr.As(err); !ok || fe.Kind != apperr.Invalid || len(fe.Fields["schedule.cron"]) == 0 || fe.Fields["schedule.cron"][0] != campaign.MsgNoRun {
		t.Fatalf("enabling a never-firing campaign: %v", err)
	}
	// Editing the campaign clears the wait.
	_, err := w.svc.Toggle(ctx, attacker.AccountID, limited.ID, true)
	w.must(err)
	if s := w.state(limited.ID); s.retry != nil {
		t.Fatalf("toggle kept the retry: %+v", s)
	}
}
