package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
)

// bornOn is a birth date in 1990–1995 with the Jalali month and day of day.
func bornOn(t *testing.T, day time.Time) string {
	t.Helper()
	_, m, d := persian.GregorianToJalali(day.Year(), int(day.Month()), day.Day())
	for b := time.Date(1990, 1, 1, 12, 0, 0, 0, time.UTC); b.Year() < 1996; b = b.AddDate(0, 0, 1) {
		if _, bm, bd := persian.GregorianToJalali(b.Year(), int(b.Month()), b.Day()); bm == m && bd == d {
			return b.Format("2006-01-02")
		}
	}
	t.Fatalf("no day of 1990–1995 is %02d/%02d", m, d)
	return ""
}

// An occasion campaign through the whole engine: its run reaches the carrier with
// each birthday contact's own text (once for a number in two phonebooks) and
// nobody else, charged exactly those recipients; the next day, without birthdays,
// is a quiet empty run that sends and charges nothing.
func TestOccasionCampaignReachesBirthdays(t *testing.T) {
	clock := testenv.NewClock(time.Now())
	e := enginetest.Start(t, enginetest.Options{Now: clock.Now})
	token, acct := e.Account("birthdays", "09121110071", "50007171", "service", 10_000_000)
	var book, other struct{ ID int64 }
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "مشتریان"}, token).Decode(t, &book)
	e.Must(201, "POST", "/v1/api/phonebooks", map[string]any{"name": "همکاران"}, token).Decode(t, &other)
	in := map[string]any{"title": "تبریک تولد", "type": "phonebook", "phonebook_ids": []int64{book.ID, other.ID}, "sender": "50007171",
		"text": "{title} {name} عزیز، تولدت مبارک", "occasion": map[string]any{"field": "birth_date"},
		"schedule": map[string]any{"kind": "daily", "time": "09:00"}}
	var c campaign.Campaign
	e.Must(201, "POST", "/v1/api/send/campaigns", in, token).Decode(t, &c)
	due := *c.NextRunAt
	day := due.In(persian.Tehran)
	tomorrow := day.AddDate(0, 0, 1)
	add := func(id int64, contacts ...map[string]any) {
		e.Must(201, "POST", "/v1/api/phonebooks/numbers/add-list-new", map[string]any{"phonebook_id": id, "contacts": contacts}, token)
	}
	add(book.ID,
		map[string]any{"number": "09121238001", "name": "علی", "gender": "male", "birth_date": bornOn(t, day)},
		map[string]any{"number": "09121238002", "name": "مریم", "gender": "female", "birth_date": bornOn(t, day)},
		map[string]any{"number": "09121238003", "name": "فردا", "birth_date": bornOn(t, day.AddDate(0, 0, 2))},
		map[string]any{"number": "09121238004", "name": "بی‌تاریخ"})
	add(other.ID, map[string]any{"number": "09121238001", "name": "علی همکار", "gender": "male", "birth_date": bornOn(t, day)})

	var up send.Upcoming
	e.Must(200, "POST", "/v1/api/send/occasions/upcoming", map[string]any{"phonebook_ids": []int64{book.ID, other.ID},
		"occasion": map[string]any{"field": "birth_date", "on": day.Format("2006-01-02")}}, token).Decode(t, &up)
	if up.Days[0].Contacts != 2 || up.Days[1].Contacts != 0 || up.Days[2].Contacts != 1 || up.Next == nil || up.Next.On != up.Days[0].On {
		t.Fatalf("upcoming %+v", up)
	}

	clock.Set(due.Add(time.Second))
	var sendID int64
	e.Wait("the birthday run", 30*time.Second, func() bool {
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(max(id), 0) FROM sends WHERE campaign_id = $1`, c.ID).Scan(&sendID)
		return sendID > 0 && sendStats(t, e, sendID).Status == "done"
	})
	want := map[string]string{"989121238001": "آقای علی عزیز، تولدت مبارک", "989121238002": "خانم مریم عزیز، تولدت مبارک"}
	for to, text := range want {
		if got := e.Sim.Messages(to); len(got) != 1 || got[0].Text != text || got[0].From != "50007171" {
			t.Fatalf("%s received %+v, want %q", to, got, text)
		}
	}
	for _, to := range []string{"989121238003", "989121238004"} {
		if got := e.Sim.Messages(to); len(got) != 0 {
			t.Fatalf("%s has no birthday and received %+v", to, got)
		}
	}
	if s := sendStats(t, e, sendID); s.Recipients != 2 {
		t.Fatalf("send %+v", s)
	}
	if taken := ledgerBalanced(t, e, acct, sendID); taken != charged(t, e, sendID) || taken <= 0 {
		t.Fatalf("ledger took %d, the recipients cost %d", taken, charged(t, e, sendID))
	}

	before := credit(t, e, token)
	clock.Set(time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 9, 0, 1, 0, persian.Tehran))
	var runs []campaign.Run
	e.Wait("the empty run", 30*time.Second, func() bool {
		e.Must(200, "GET", "/v1/api/send/campaigns/"+itoa(c.ID)+"/runs", nil, token).Decode(t, &runs)
		return len(runs) == 2
	})
	var sends int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sends WHERE account_id = $1`, acct).Scan(&sends)
	if runs[0].Status != campaign.RunEmpty || runs[0].SendID != nil || runs[1].Status != campaign.RunSent || sends != 1 || credit(t, e, token) != before {
		t.Fatalf("runs %+v, %d sends, credit %d → %d", runs, sends, before, credit(t, e, token))
	}
	var list []campaign.Campaign
	e.Must(200, "GET", "/v1/api/send/campaigns?kind=occasion", nil, token).Decode(t, &list)
	if len(list) != 1 || list[0].LastRun == nil || list[0].LastRun.Status != campaign.RunEmpty || list[0].FailedRuns != 0 {
		t.Fatalf("list %+v", list)
	}
	e.Must(422, "GET", "/v1/api/send/campaigns?kind=weekly", nil, token)
}
