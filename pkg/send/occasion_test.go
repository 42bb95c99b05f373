package send_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
)

func day(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return d
}

// The Jalali dates an occasion reaches on a run day: Jalali anniversaries (Nowruz
// is 20 March in 2024, 21 March in 2025), Esfand 30 celebrated on Esfand 29 of a
// common year only, and days_before across a month's and a year's end.
func TestJalaliTargets(t *testing.T) {
	for _, c := range []struct {
		run    string
		before int
		want   []int
	}{
		{"2024-03-20", 0, []int{101}},        // Nowruz 1403
		{"2024-03-21", 0, []int{102}},        // the Gregorian anniversary of a 21 March Nowruz is Farvardin 2 this year
		{"2025-03-21", 0, []int{101}},        // Nowruz 1404
		{"2024-03-19", 0, []int{1229, 1230}}, // Esfand 29 of 1402, a common year: Esfand 30 births too
		{"2025-03-19", 0, []int{1229}},       // Esfand 29 of 1403, a leap year
		{"2025-03-20", 0, []int{1230}},       // Esfand 30 of 1403
		{"2026-03-15", 5, []int{1229, 1230}}, // five days before Esfand 29 of 1404 (common)
		{"2025-03-18", 5, []int{103}},        // Esfand 28 of 1403 + 5: Farvardin 3 of 1404
		{"2024-10-20", 3, []int{802}},        // Mehr 29 of 1403 + 3 (Mehr has 30 days): Aban 2
		{"2024-09-20", 1, []int{631}},        // Shahrivar 30 + 1: Shahrivar 31
		{"2024-12-20", 30, []int{1030}},      // Azar 30 + 30: Dey 30
	} {
		if got := send.JalaliTargets(day(c.run), c.before); !slices.Equal(got, c.want) {
			t.Errorf("%s - %d days: %v, want %v", c.run, c.before, got, c.want)
		}
	}
}

// The SQL jalali_md (migration 0170) agrees with the Go conversion the texts are
// written with, for every day of 1900–2100 (leap years of both calendars and the
// century rules included), from a date and from a feature's stored text.
func TestJalaliSQLAgreesWithGo(t *testing.T) {
	d := testenv.Postgres(t)
	rows, err := d.Pool.Query(context.Background(), `SELECT g::date, jalali_md(g::date), jalali_md_text(to_char(g, 'YYYY-MM-DD'))
		FROM generate_series('1900-01-01'::date, '2100-12-31'::date, interval '1 day') g`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var g time.Time
		var md, mdText int
		if err := rows.Scan(&g, &md, &mdText); err != nil {
			t.Fatal(err)
		}
		_, m, dd := persian.GregorianToJalali(g.Year(), int(g.Month()), g.Day())
		if md != m*100+dd || mdText != md {
			t.Fatalf("%s: SQL %d / %d, Go %02d/%02d", g.Format("2006-01-02"), md, mdText, m, dd)
		}
		n++
	}
	if err := rows.Err(); err != nil || n != 73414 {
		t.Fatalf("%d days compared (%v)", n, err)
	}
	var junk *int
	if err := d.Pool.QueryRow(context.Background(), `SELECT jalali_md_text('1369/01/01')`).Scan(&junk); err != nil || junk != nil {
		t.Fatalf("a value that is not a stored date: %v %v", junk, err)
	}
}

// occasionWorld is an account with a phonebook of dated contacts and a date feature.
type occasionWorld struct {
	t           *testing.T
	s           *send.Service
	id          acl.Identity
	book, other int64
	feature     int64
}

func newOccasionWorld(t *testing.T) *occasionWorld {
	d := testenv.Postgres(t)
	w := &occasionWorld{t: t, s: send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)}
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('occasions') RETURNING id`).Scan(&w.id.AccountID))
	w.id.IsOwner = true
	_, err := d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind, is_default) VALUES ($1, '30001', 'service', true)`, w.id.AccountID)
	must(err)
	must(d.Pool.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'b', 'b') RETURNING id`, w.id.AccountID).Scan(&w.book))
	must(d.Pool.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, 'c', 'c') RETURNING id`, w.id.AccountID).Scan(&w.other))
	must(d.Pool.QueryRow(ctx, `INSERT INTO contact_features (account_id, title_fa, title_en, type) VALUES ($1, 'سالگرد ازدواج', 'wedding', 'date')
		RETURNING id`, w.id.AccountID).Scan(&w.feature))
	// Born on Nowruz 1369 (21 March 1990); on Esfand 30 1399 (20 March 2021); on Farvardin 2 (22 March 1995);
	// two entries of one number; a wedding anniversary on Farvardin 1 as a feature.
	_, err = d.Pool.Exec(ctx, `INSERT INTO contacts (account_id, phonebook_id, mobile, name, birth_date, features) VALUES
		($1, $2, '989121000001', 'نوروزی', '1990-03-21', '{}'),
		($1, $2, '989121000002', 'اسفندی', '2021-03-20', '{}'),
		($1, $2, '989121000003', 'دومی', '1995-03-22', '{}'),
		($1, $3, '989121000001', 'نوروزی دوباره', '1990-03-21', '{}'),
		($1, $2, '989121000004', 'زوج', NULL, jsonb_build_object($4::text, '2010-03-21'))`,
		w.id.AccountID, w.book, w.other, strconv.FormatInt(w.feature, 10))
	must(err)
	return w
}

func (w *occasionWorld) quote(field, on string, before int, books ...int64) (send.Quote, error) {
	return w.s.Quote(context.Background(), w.id, send.Request{Type: send.TypePhonebook, PhonebookIDs: books, Text: "{name} جان، مبارک",
		Occasion: &send.Occasion{Field: field, DaysBefore: before, On: on}})
}

// The quote of an occasion reaches exactly the contacts whose date falls on the
// day, once per number across phonebooks, and the day counts agree with it.
func TestOccasionQuoteAndDays(t *testing.T) {
	w := newOccasionWorld(t)
	both := []int64{w.book, w.other}
	for _, c := range []struct {
		field, on string
		before    int
		want      []string
	}{
		{"birth_date", "2025-03-21", 0, []string{"09121000001"}},                                  // Nowruz 1404
		{"birth_date", "2024-03-20", 0, []string{"09121000001"}},                                  // Nowruz 1403: 20 March
		{"birth_date", "2024-03-21", 0, []string{"09121000003"}},                                  // 21 March 2024 is Farvardin 2
		{"birth_date", "2026-03-20", 0, []string{"09121000002"}},                                  // Esfand 29 of 1404 (common)
		{"birth_date", "2025-03-19", 0, nil},                                                      // Esfand 29 of 1403 (leap): not yet
		{"birth_date", "2025-03-20", 0, []string{"09121000002"}},                                  // Esfand 30 of 1403
		{"birth_date", "2025-03-18", 3, []string{"09121000001"}},                                  // three days before Nowruz 1404
		{"feature:" + strconv.FormatInt(w.feature, 10), "2025-03-21", 0, []string{"09121000004"}}, // the wedding feature
	} {
		q, err := w.quote(c.field, c.on, c.before, both...)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		var got []string
		for _, r := range q.Preview {
			got = append(got, r.Mobile)
		}
		if !slices.Equal(got, c.want) || q.Recipients != len(c.want) {
			t.Errorf("%s on %s -%d: preview %v (%d recipients), want %v", c.field, c.on, c.before, got, q.Recipients, c.want)
		}
		up, err := w.s.Upcoming(context.Background(), w.id.AccountID, send.UpcomingRequest{PhonebookIDs: both,
			Occasion: send.Occasion{Field: c.field, DaysBefore: c.before, On: c.on}})
		if err != nil || len(up.Days) != send.UpcomingDays || up.Days[0].Contacts != q.Requested-q.Duplicates {
			t.Errorf("%s on %s: days %+v (%v), quote %+v", c.field, c.on, up.Days, err, q)
		}
	}
	q, err := w.quote("birth_date", "2025-03-21", 0, both...)
	if err != nil || q.Preview[0].Text != "نوروزی جان، مبارک" || q.Duplicates != 1 {
		t.Fatalf("personalised, deduped: %+v %v", q, err)
	}
	up, err := w.s.Upcoming(context.Background(), w.id.AccountID, send.UpcomingRequest{PhonebookIDs: both,
		Occasion: send.Occasion{Field: "birth_date", On: "2025-03-23"}})
	if err != nil || up.Next == nil || up.Next.On != "2026-03-20" || up.Next.Contacts != 1 || up.Next.Jalali != "1404/12/29" ||
		up.Days[0].Jalali != "1404/01/03" || up.Days[0].Contacts != 0 {
		t.Fatalf("next occasion after Farvardin 2: %+v %v", up, err)
	}
	up, err = w.s.Upcoming(context.Background(), w.id.AccountID, send.UpcomingRequest{PhonebookIDs: both,
		Occasion: send.Occasion{Field: "birth_date", DaysBefore: 2, On: "2025-03-19"}})
	if err != nil || up.Next == nil || up.Next.On != "2025-03-19" || up.Next.Occasion != "1404/01/01" || up.Next.Contacts != 1 {
		t.Fatalf("the next occasion is the first day when it has contacts: %+v %v", up, err)
	}
}

// Bad occasions are field errors in Persian; an occasion is for phonebook sends only.
func TestOccasionRefusals(t *testing.T) {
	w := newOccasionWorld(t)
	for _, c := range []struct {
		r     send.Request
		field string
	}{
		{send.Request{Type: send.TypePhonebook, PhonebookIDs: []int64{w.book}, Text: "x", Occasion: &send.Occasion{Field: "name"}}, "occasion.field"},
		{send.Request{Type: send.TypePhonebook, PhonebookIDs: []int64{w.book}, Text: "x", Occasion: &send.Occasion{Field: "feature:999999"}}, "occasion.field"},
		{send.Request{Type: send.TypePhonebook, PhonebookIDs: []int64{w.book}, Text: "x", Occasion: &send.Occasion{Field: "birth_date", DaysBefore: 31}}, "occasion.days_before"},
		{send.Request{Type: send.TypePhonebook, PhonebookIDs: []int64{w.book}, Text: "x", Occasion: &send.Occasion{Field: "birth_date", On: "1404/01/01"}}, "occasion.on"},
		{send.Request{Type: send.TypeQuick, Numbers: []string{"09121000001"}, Text: "x", Occasion: &send.Occasion{Field: "birth_date"}}, "occasion"},
	} {
		_, err := w.s.Quote(context.Background(), w.id, c.r)
		fe, ok := apperr.As(err)
		if !ok || fe.Kind != apperr.Invalid || len(fe.Fields[c.field]) == 0 {
			t.Errorf("%+v: %v", c.r.Occasion, err)
		}
	}
}
