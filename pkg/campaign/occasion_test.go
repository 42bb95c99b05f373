package campaign_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
)

func tehran(d string, h, m int) time.Time {
	t, err := time.ParseInLocation("2006-01-02", d, persian.Tehran)
	if err != nil {
		panic(err)
	}
	return t.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
}

// occasionWorld is a world on a movable clock with an account whose phonebook holds
// contacts born on Nowruz (Farvardin 1), on Farvardin 2 and without a birth date.
type occasionWorld struct {
	*world
	clk  *testenv.Clock
	id   acl.Identity
	book int64
}

func newOccasionWorld(t *testing.T, at time.Time) *occasionWorld {
	w := &occasionWorld{world: newWorldLimit(t, 100), clk: testenv.NewClock(at)}
	w.svc.Now = w.clk.Now
	w.sends.SetClock(w.clk.Now)
	w.id = w.account("occasions", "30007")
	ctx := context.Background()
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'دوستان', 'f') RETURNING id`,
		w.id.AccountID).Scan(&w.book))
	_, err := w.d.Pool.Exec(ctx, `INSERT INTO contacts (account_id, phonebook_id, mobile, name, gender, birth_date) VALUES
		($1, $2, '989121000001', 'علی', 'male', '1990-03-21'),
		($1, $2, '989121000002', 'مریم', 'female', '1995-03-22'),
		($1, $2, '989121000003', 'بی‌تاریخ', '', NULL)`, w.id.AccountID, w.book)
	w.must(err)
	return w
}

// occasion creates a birthday campaign sent daily at hh:mm with text.
func (w *occasionWorld) occasion(at, text string) campaign.Campaign {
	w.t.Helper()
	c, err := w.svc.Create(context.Background(), w.id, w.input(at, text))
	w.must(err)
	return c
}

func (w *occasionWorld) input(at, text string) campaign.Input {
	return campaign.Input{Title: "تبریک تولد",
		Request: send.Request{Type: send.TypePhonebook, PhonebookIDs: []int64{w.book}, Text: text,
			Occasion: &send.Occasion{Field: send.OccasionBirthDate}},
		Schedule: campaign.Schedule{Kind: campaign.Daily, Time: at}}
}

// expand runs the send's expansion as the worker would and returns its recipients'
// numbers, texts and costs.
func (w *occasionWorld) expand(sendID int64) (texts map[string]string, cost int64) {
	w.t.Helper()
	ctx := context.Background()
	task, err := jobs.NewSendExpand(sendID, jobs.QueueDefault, time.Time{})
	w.must(err)
	w.must(w.sends.HandleExpand(ctx, task))
	rows, err := w.d.Pool.Query(ctx, `SELECT mobile, text, cost FROM recipients WHERE send_id = $1`, sendID)
	w.must(err)
	defer rows.Close()
	texts = map[string]string{}
	for rows.Next() {
		var m, x string
		var c int64
		w.must(rows.Scan(&m, &x, &c))
		texts[m], cost = x, cost+c
	}
	return texts, cost
}

func (w *occasionWorld) balance() int64 {
	w.t.Helper()
	var b int64
	w.must(w.d.Pool.QueryRow(context.Background(), `SELECT balance FROM wallets WHERE account_id = $1`, w.id.AccountID).Scan(&b))
	return b
}

// sendOf is the send of the campaign's run due at due (0: none).
func (w *occasionWorld) sendOf(c campaign.Campaign, due time.Time) (id int64, status string) {
	w.t.Helper()
	var sid *int64
	_ = w.d.Pool.QueryRow(context.Background(), `SELECT r.send_id, r.status FROM campaign_runs r WHERE r.campaign_id = $1 AND r.due_at = $2`,
		c.ID, due).Scan(&sid, &status)
	if sid != nil {
		id = *sid
	}
	return id, status
}

func (w *occasionWorld) runDue(want int) {
	w.t.Helper()
	if n, err := w.svc.RunDue(context.Background()); err != nil || n != want {
		w.t.Fatalf("RunDue at %s handled %d, want %d (%v)", w.clk.Now().In(persian.Tehran), n, want, err)
	}
}

// A birthday campaign's run reaches exactly the contacts born on its scheduled day
// (Jalali), each with its own text, charged the price of those recipients: the run
// of Nowruz 1404 delayed past midnight still greets Nowruz's contact (not the next
// day's) and the next day's run is not skipped; calling RunDue twice sends nothing
// twice; a day without birthdays is a quiet empty run, nothing sent or charged.
func TestOccasionRunsItsScheduledDay(t *testing.T) {
	w := newOccasionWorld(t, tehran("2025-03-20", 10, 0)) // Esfand 30 1403
	c := w.occasion("09:00", "{title} {name} عزیز، تولدت مبارک")
	if !c.NextRunAt.Equal(tehran("2025-03-21", 9, 0)) || c.Occasion == nil || c.Occasion.On != "" {
		t.Fatalf("campaign %+v", c)
	}
	start := w.balance()

	w.clk.Set(tehran("2025-03-22", 0, 30)) // Nowruz's run, forty minutes past midnight
	w.runDue(1)
	w.runDue(0)
	nowruz, st := w.sendOf(c, tehran("2025-03-21", 9, 0))
	texts, cost := w.expand(nowruz)
	if st != campaign.RunSent || len(texts) != 1 || texts["989121000001"] != "آقای علی عزیز، تولدت مبارک" || cost <= 0 {
		t.Fatalf("Nowruz run %s: %v cost %d", st, texts, cost)
	}
	if got := w.balance(); got != start-cost {
		t.Fatalf("balance %d, want %d - %d", got, start, cost)
	}
	if s := w.state(c.ID); !s.next.Equal(tehran("2025-03-22", 9, 0)) || s.runs != 1 {
		t.Fatalf("after the late run: %+v", s)
	}

	w.clk.Set(tehran("2025-03-22", 9, 0).Add(5 * time.Second))
	w.runDue(1)
	w.runDue(0)
	second, _ := w.sendOf(c, tehran("2025-03-22", 9, 0))
	if texts, _ := w.expand(second); len(texts) != 1 || texts["989121000002"] != "خانم مریم عزیز، تولدت مبارک" {
		t.Fatalf("Farvardin 2 run: %v", texts)
	}

	before := w.balance()
	w.clk.Set(tehran("2025-03-23", 9, 1))
	w.runDue(1)
	id, st := w.sendOf(c, tehran("2025-03-23", 9, 0))
	s := w.state(c.ID)
	if id != 0 || st != campaign.RunEmpty || s.sends != 2 || s.runs != 3 || w.balance() != before || !s.next.Equal(tehran("2025-03-24", 9, 0)) {
		t.Fatalf("empty run: send %d status %q state %+v balance %d → %d", id, st, s, before, w.balance())
	}
	list, _, err := w.svc.List(context.Background(), w.id.AccountID, campaign.KindOccasion, 1, 10)
	w.must(err)
	if len(list) != 1 || list[0].FailedRuns != 0 || list[0].LastRun == nil || list[0].LastRun.Status != campaign.RunEmpty {
		t.Fatalf("list %+v", list)
	}
	if other, _, err := w.svc.List(context.Background(), w.id.AccountID, campaign.KindRecurring, 1, 10); err != nil || len(other) != 0 {
		t.Fatalf("recurring list %+v %v", other, err)
	}
}

// Missed days are sent in turn while within OccasionCatchUp, each for its own day;
// an older one is recorded as failed and not sent.
func TestOccasionCatchUp(t *testing.T) {
	w := newOccasionWorld(t, tehran("2025-03-18", 10, 0))
	c := w.occasion("09:00", "{name} عزیز، تولدت مبارک")
	w.clk.Set(tehran("2025-03-22", 8, 0)) // down since before the run of the 19th
	w.runDue(3)                           // the 19th (too old), the 20th, Nowruz
	w.runDue(0)
	if _, st := w.sendOf(c, tehran("2025-03-19", 9, 0)); st != campaign.RunFailed {
		t.Fatalf("the run of the 19th: %q", st)
	}
	if _, st := w.sendOf(c, tehran("2025-03-20", 9, 0)); st != campaign.RunEmpty {
		t.Fatalf("the run of the 20th: %q", st)
	}
	id, _ := w.sendOf(c, tehran("2025-03-21", 9, 0))
	if texts, _ := w.expand(id); len(texts) != 1 || texts["989121000001"] == "" {
		t.Fatalf("Nowruz, caught up: %v", texts)
	}
	if s := w.state(c.ID); !s.next.Equal(tehran("2025-03-22", 9, 0)) {
		t.Fatalf("next %v", s.next)
	}
}

// «ارسال امروز» sends today's run at once; the scheduled run of the day, a second
// press, an edit of the hour and a pause and resume never send the day again.
func TestOccasionRunTodayNeverDoubles(t *testing.T) {
	w := newOccasionWorld(t, tehran("2025-03-21", 8, 0))
	ctx := context.Background()
	c := w.occasion("09:00", "{name} عزیز، تولدت مبارک")
	a, err := w.svc.RunToday(ctx, w.id, c.ID)
	w.must(err)
	if id, st := w.sendOf(c, tehran("2025-03-21", 9, 0)); id != a.ID || st != campaign.RunSent {
		t.Fatalf("today's run %d %q, sent %d", id, st, a.ID)
	}
	if _, err := w.svc.RunToday(ctx, w.id, c.ID); !isKind(err, apperr.Conflict) {
		t.Fatalf("second press: %v", err)
	}
	if s := w.state(c.ID); !s.next.Equal(tehran("2025-03-22", 9, 0)) {
		t.Fatalf("next after today's run: %v", s.next)
	}
	in := w.input("10:00", "{name} جان، تولدت مبارک")
	in.ID = c.ID
	u, err := w.svc.Update(ctx, w.id, in)
	w.must(err)
	if !u.NextRunAt.Equal(tehran("2025-03-22", 10, 0)) {
		t.Fatalf("an edit planned %v", u.NextRunAt)
	}
	_, err = w.svc.Toggle(ctx, w.id.AccountID, c.ID, false)
	w.must(err)
	u, err = w.svc.Toggle(ctx, w.id.AccountID, c.ID, true)
	w.must(err)
	if !u.NextRunAt.Equal(tehran("2025-03-22", 10, 0)) {
		t.Fatalf("a resume planned %v", u.NextRunAt)
	}
	w.clk.Set(tehran("2025-03-21", 23, 59))
	w.runDue(0)
	if s := w.state(c.ID); s.sends != 1 {
		t.Fatalf("%d sends on Nowruz", s.sends)
	}
	// A campaign that is not an occasion has no «today».
	plain := w.create(w.id, "خبرنامه")
	if _, err := w.svc.RunToday(ctx, w.id, plain.ID); !isKind(err, apperr.Invalid) {
		t.Fatalf("run-today of a recurring campaign: %v", err)
	}
	if _, err := w.svc.RunToday(ctx, acl.Identity{AccountID: w.id.AccountID + 1000, IsOwner: true}, c.ID); err != apperr.ErrNotFound {
		t.Fatalf("another account: %v", err)
	}
}

// The rules of any send hold: a text with a sensitive word is held for review with
// its price on hold; a run due outside an advertising line's hours waits for the
// window and still greets its own day; an occasion runs daily; an hour outside the
// sending hours is refused when the campaign is saved.
func TestOccasionReviewAndHours(t *testing.T) {
	w := newOccasionWorld(t, tehran("2025-03-20", 10, 0))
	ctx := context.Background()
	held := w.occasion("09:00", "{name} عزیز، تولدت مبارک؛ کازینو")
	w.clk.Set(tehran("2025-03-21", 9, 0).Add(time.Second))
	w.runDue(1)
	id, _ := w.sendOf(held, tehran("2025-03-21", 9, 0))
	var status string
	var hold int64
	w.must(w.d.Pool.QueryRow(ctx, `SELECT status, quote FROM sends WHERE id = $1`, id).Scan(&status, &hold))
	if status != send.StatusHeld || hold <= 0 {
		t.Fatalf("held run: %s hold %d", status, hold)
	}

	_, err := w.d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind) VALUES ($1, '50009', 'advertising')`, w.id.AccountID)
	w.must(err)
	late := w.input("23:30", "{name} عزیز، تولدت مبارک")
	late.Sender = "50009"
	if _, err := w.svc.Create(ctx, w.id, late); err == nil {
		t.Fatal("an advertising occasion at 23:30 was saved")
	}
	weekly := w.input("09:00", "x")
	weekly.Schedule = campaign.Schedule{Kind: campaign.Weekly, Time: "09:00", Weekdays: []int{0}}
	if _, err := w.svc.Create(ctx, w.id, weekly); !hasField(err, "schedule.kind", campaign.MsgOccasionDaily) {
		t.Fatalf("weekly occasion: %v", err)
	}
	ad := w.input("09:00", "{name} عزیز، تولدت مبارک")
	ad.Sender = "50009"
	c, err := w.svc.Create(ctx, w.id, ad)
	w.must(err)
	// The run comes due at 23:30 of Farvardin 1 (its hour changed meanwhile).
	_, err = w.d.Pool.Exec(ctx, `UPDATE campaigns SET next_run_at = $2 WHERE id = $1`, c.ID, tehran("2025-03-21", 23, 30))
	w.must(err)
	w.clk.Set(tehran("2025-03-21", 23, 31))
	w.runDue(1)
	id, _ = w.sendOf(c, tehran("2025-03-21", 23, 30))
	var sendAt time.Time
	var on string
	w.must(w.d.Pool.QueryRow(ctx, `SELECT status, send_at, source->'occasion'->>'on' FROM sends WHERE id = $1`, id).Scan(&status, &sendAt, &on))
	if status != send.StatusScheduled || !sendAt.Equal(tehran("2025-03-22", 7, 0)) || on != "2025-03-21" {
		t.Fatalf("run outside the hours: %s at %v for the day %s", status, sendAt.In(persian.Tehran), on)
	}
}

func isKind(err error, k apperr.Kind) bool {
	fe, ok := apperr.As(err)
	return ok && fe.Kind == k
}

func hasField(err error, field, msg string) bool {
	fe, ok := apperr.As(err)
	return ok && len(fe.Fields[field]) > 0 && fe.Fields[field][0] == msg
}
