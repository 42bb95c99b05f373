package report_test

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/report"
)

func ids(rows []report.SendRow) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

func same(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid || len(e.Fields[field]) == 0 {
		t.Fatalf("want a 422 on %q, got %v", field, err)
	}
}

func TestListWindowFiltersAndPaging(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	a, userA, nameA := account(t)
	b, _, _ := account(t)
	now := time.Now()
	long := strings.Repeat("پیام آزمایشی ", 20) // 240 characters of Persian
	s1 := seedSend(t, a, sendSeed{Created: now.Add(-24 * time.Hour), Text: long, Status: "done", Expanded: true, Finished: true})
	s2 := seedSend(t, a, sendSeed{Created: now.Add(-48 * time.Hour), Type: "file", Status: "sending", Expanded: true})
	s3 := seedSend(t, a, sendSeed{Created: now.Add(-10 * 24 * time.Hour), Status: "stopped", Stopped: true, StoppedBy: userA})
	old := seedSend(t, a, sendSeed{Created: now.Add(-40 * 24 * time.Hour)})
	seedSend(t, b, sendSeed{Created: now.Add(-time.Hour)})

	list := func(f report.Filter) ([]report.SendRow, int64) {
		t.Helper()
		rows, total, err := svc.List(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		return rows, total
	}
	rows, total := list(report.Filter{})
	if total != 3 || !same(ids(rows), []int64{s1, s2, s3}) {
		t.Fatalf("default list: total %d rows %v, want the 3 sends of the window newest first", total, ids(rows))
	}
	if n := utf8.RuneCountInString(rows[0].Text); n != 70 || !strings.HasPrefix(long, rows[0].Text) {
		t.Fatalf("text preview has %d characters: %q", n, rows[0].Text)
	}
	if rows[2].StoppedBy == nil || *rows[2].StoppedBy != nameA || rows[2].StoppedAt == nil {
		t.Fatalf("stopped_by of a stopped send: %v", rows[2].StoppedBy)
	}
	if rows[0].StoppedBy != nil || rows[0].FinishedAt == nil {
		t.Fatalf("done send: stopped_by %v finished_at %v", rows[0].StoppedBy, rows[0].FinishedAt)
	}

	cases := []struct {
		name string
		f    report.Filter
		want []int64
	}{
		{"status", report.Filter{Status: "sending"}, []int64{s2}},
		{"type", report.Filter{Type: "file"}, []int64{s2}},
		{"type all", report.Filter{Type: "all"}, []int64{s1, s2, s3}},
		{"from", report.Filter{From: now.Add(-5 * 24 * time.Hour)}, []int64{s1, s2}},
		{"from clamped to 30 days", report.Filter{From: now.Add(-90 * 24 * time.Hour)}, []int64{s1, s2, s3}},
		{"to", report.Filter{To: now.Add(-36 * time.Hour)}, []int64{s2, s3}},
		{"archive", report.Filter{Archive: true}, []int64{old}},
		{"archive to inside the window", report.Filter{Archive: true, To: now}, []int64{old}},
		{"archive from", report.Filter{Archive: true, From: now.Add(-35 * 24 * time.Hour)}, nil},
	}
	for _, c := range cases {
		rows, total := list(c.f)
		if !same(ids(rows), c.want) || total != int64(len(c.want)) {
			t.Errorf("%s: got %v (total %d), want %v", c.name, ids(rows), total, c.want)
		}
	}

	// Paging.
	rows, total = list(report.Filter{Limit: 2, Page: 2})
	if total != 3 || !same(ids(rows), []int64{s3}) {
		t.Fatalf("page 2 of 2: %v total %d", ids(rows), total)
	}
	rows, total = list(report.Filter{Limit: 2, Page: 3})
	if total != 3 || len(rows) != 0 || rows == nil {
		t.Fatalf("page past the end: %v total %d", rows, total)
	}

	// Account B sees only its own send.
	rowsB, totalB, err := svc.List(ctx, b, report.Filter{})
	if err != nil || totalB != 1 || len(rowsB) != 1 {
		t.Fatalf("account B: %v %d %v", ids(rowsB), totalB, err)
	}

	// Bad filters are 422 on their field.
	_, _, err = svc.List(ctx, a, report.Filter{Status: "bogus"})
	wantField(t, err, "status")
	_, _, err = svc.List(ctx, a, report.Filter{Type: "DROP TABLE"})
	wantField(t, err, "type")
	_, _, err = svc.List(ctx, a, report.Filter{From: now, To: now.Add(-time.Hour)})
	wantField(t, err, "from")
}

func TestParseFilter(t *testing.T) {
	f, err := report.ParseFilter(url.Values{"page": {"۲"}, "limit": {"500"}, "status": {"done"},
		"from": {"1403/02/11"}, "to": {"2024-05-01"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Page != 2 || f.Limit != report.MaxLimit || f.Status != "done" {
		t.Fatalf("filter %+v", f)
	}
	if f.To.Format(time.RFC3339) != "2024-05-02T00:00:00+03:30" {
		t.Fatalf("a bare date as 'to' is the end of that day in Tehran: %s", f.To.Format(time.RFC3339))
	}
	f, err = report.ParseFilter(url.Values{})
	if err != nil || f.Page != 1 || f.Limit != report.DefaultLimit {
		t.Fatalf("defaults: %+v %v", f, err)
	}
	_, err = report.ParseFilter(url.Values{"page": {"-1"}})
	wantField(t, err, "page")
	_, err = report.ParseFilter(url.Values{"from": {"yesterday"}})
	wantField(t, err, "from")
	if got, err := report.ParseIDs("3, ۵,3"); err != nil || !same(got, []int64{3, 5}) {
		t.Fatalf("ids: %v %v", got, err)
	}
	_, err = report.ParseIDs("1,x")
	wantField(t, err, "ids")
	_, err = report.ParseID("0")
	wantField(t, err, "id")
}

func TestStatsArithmeticAndIsolation(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	a, _, _ := account(t)
	b, _, _ := account(t)
	// recipients counts the charged numbers; the blacklisted ones are counted apart.
	running := seedSend(t, a, sendSeed{Status: "sending", Text: "متن کامل پیام", Requested: 120, Recipients: 100, Submitted: 80,
		Delivered: 50, Undelivered: 10, Rejected: 5, Blacklisted: 5, Parts: 2, TotalParts: 190, Quote: 60000, Cost: 45000, Expanded: true})
	over := seedSend(t, a, sendSeed{Status: "done", Requested: 10, Recipients: 10, Delivered: 8, Undelivered: 3, Expanded: true})
	otp := seedSend(t, a, sendSeed{Type: "verification", Text: "کد ورود شما: 123456", Requested: 1, Recipients: 1, Expanded: true})
	seedRecipients(t, otp, 1, "2")
	queued := seedSend(t, a, sendSeed{Status: "queued", Requested: 20, Parts: 2, Quote: 5000})
	cancelled := seedSend(t, a, sendSeed{Status: "stopped", Requested: 20, Parts: 1, Quote: 5000, Refunded: 5000, Stopped: true})
	other := seedSend(t, b, sendSeed{Status: "done"})

	st, err := svc.Stats(ctx, a, running)
	if err != nil {
		t.Fatal(err)
	}
	if st.ID != running || st.Status != "sending" || st.Requested != 120 || st.Sent != 80 || st.Delivered != 50 ||
		st.Undelivered != 10 || st.Rejected != 5 || st.Blacklisted != 5 || st.Pending != 35 ||
		st.Parts != 190 || st.Price != 45000 || st.Text != "متن کامل پیام" || !st.Expanded {
		t.Fatalf("running send stats: %+v", st)
	}
	if st, _ = svc.Stats(ctx, a, over); st.Pending != 0 {
		t.Fatalf("pending is floored at 0: %+v", st)
	}
	if st, _ = svc.Stats(ctx, a, queued); st.Pending != 20 || st.Price != 5000 || st.Parts != 40 || st.Expanded {
		t.Fatalf("before expansion: %+v", st)
	}
	if st, _ = svc.Stats(ctx, a, cancelled); st.Pending != 0 || st.Refunded != 5000 {
		t.Fatalf("cancelled before expansion: %+v", st)
	}

	// Another account's send is not found, whichever way it is asked.
	if _, err := svc.Stats(ctx, b, running); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("B reading A's send: %v", err)
	}
	if _, err := svc.Stats(ctx, a, 1<<40); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("missing send: %v", err)
	}
	got, err := svc.ByBulk(ctx, b, []int64{running, other, queued})
	if err != nil || len(got) != 1 || got[0].ID != other {
		t.Fatalf("B by_bulk: %+v %v", got, err)
	}
	got, err = svc.ByBulk(ctx, a, []int64{queued, other, running, queued})
	if err != nil || len(got) != 2 || got[0].ID != queued || got[1].ID != running {
		t.Fatalf("A by_bulk keeps the asked order: %+v %v", got, err)
	}

	// One-time-code sends carry login and reset codes: no report shows them.
	if _, err := svc.Stats(ctx, a, otp); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a one-time-code send in the stats: %v", err)
	}
	if _, _, err := svc.Recipients(ctx, a, otp, nil, 1, 10); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a one-time-code send's recipients: %v", err)
	}
	if err := svc.WriteRecipientsXLSX(ctx, a, otp, io.Discard); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a one-time-code send's download: %v", err)
	}
	for _, f := range []report.Filter{{}, {Type: "verification"}} {
		rows, _, err := svc.List(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.ID == otp {
				t.Fatalf("a one-time-code send in the list (filter %+v)", f)
			}
		}
	}

	// The pump's unscoped read says whose each send is and leaves the text out.
	all, err := svc.StatsByIDs(ctx, []int64{running, other, otp})
	if err != nil || len(all) != 2 {
		t.Fatalf("stats by ids: %+v %v", all, err)
	}
	for _, s := range all {
		if (s.ID == running && s.AccountID != a) || (s.ID == other && s.AccountID != b) || s.Text != "" {
			t.Fatalf("stats by ids row: %+v", s)
		}
	}
}

func TestRecipientsStatusesAndIsolation(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	a, _, _ := account(t)
	b, _, _ := account(t)
	send := seedSend(t, a, sendSeed{Status: "sending", Requested: 80, Recipients: 80, Expanded: true})
	// g % 8 gives every stored status 0-7, ten recipients each.
	seedRecipients(t, send, 80, "(g % 8)")

	all, total, err := svc.Recipients(ctx, a, send, nil, 1, 100)
	if err != nil || total != 80 || len(all) != 80 {
		t.Fatalf("all recipients: %d rows, total %d, %v", len(all), total, err)
	}
	for i, r := range all {
		stored := (i + 1) % 8
		want, pending, rejected := report.PublicStatus(stored)
		if r.Status != want || r.Pending != pending || r.Rejected != rejected {
			t.Fatalf("recipient %d (stored %d): %+v", i, stored, r)
		}
		if r.Mobile[:5] != "98912" || len(r.Mobile) != 12 || r.Operator == "" || r.Parts < 1 || r.UpdatedAt.IsZero() {
			t.Fatalf("recipient row: %+v", r)
		}
		if rejected && r.Error != "ESME_RSUBMITFAIL" {
			t.Fatalf("rejected recipient without its error: %+v", r)
		}
	}
	counts := map[int]int64{0: 30, 1: 10, 2: 10, 3: 20, 4: 10} // 0 = 0+5+7, 3 = 3+6
	for status, want := range counts {
		s := status
		rows, total, err := svc.Recipients(ctx, a, send, &s, 1, 100)
		if err != nil || total != want || int64(len(rows)) != want {
			t.Fatalf("status %d: %d rows, total %d, %v", status, len(rows), total, err)
		}
		for _, r := range rows {
			if r.Status != status {
				t.Fatalf("status %d filter returned %+v", status, r)
			}
		}
	}
	// Paging walks the same order.
	page2, total, err := svc.Recipients(ctx, a, send, nil, 2, 30)
	if err != nil || total != 80 || len(page2) != 30 || page2[0].Mobile != all[30].Mobile {
		t.Fatalf("page 2: %d rows, total %d, first %v, %v", len(page2), total, page2, err)
	}
	page3, _, _ := svc.Recipients(ctx, a, send, nil, 3, 30)
	if len(page3) != 20 || page3[19].Mobile != all[79].Mobile {
		t.Fatalf("last page: %d rows", len(page3))
	}

	if _, _, err := svc.Recipients(ctx, b, send, nil, 1, 10); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("B reading A's recipients: %v", err)
	}
	_, _, err = svc.Recipients(ctx, a, send, nil, report.MaxRecipientPage+1, 10)
	wantField(t, err, "page")
	bad := 9
	_, _, err = svc.Recipients(ctx, a, send, &bad, 1, 10)
	wantField(t, err, "status")
}

// TestRecipientsMillion checks the recipients queries stay index-bound on a send of
// a million recipients. It logs the timings; it does not assert them.
func TestRecipientsMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a million recipients")
	}
	ctx := context.Background()
	svc := report.New(pool)
	a, _, _ := account(t)
	send := seedSend(t, a, sendSeed{Status: "sending", Requested: 1_000_000, Recipients: 1_000_000, Expanded: true})
	start := time.Now()
	seedRecipients(t, send, 1_000_000, "CASE WHEN g % 100 = 0 THEN 4 WHEN g % 10 = 0 THEN 3 WHEN g % 3 = 0 THEN 2 ELSE 1 END")
	if _, err := pool.Exec(ctx, `ANALYZE recipients`); err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded 1,000,000 recipients in %s", time.Since(start).Round(time.Millisecond))
	four, one := 4, 1
	for _, c := range []struct {
		name   string
		status *int
		page   int
		limit  int
		total  int64
	}{
		{"first page", nil, 1, 10, 1_000_000},
		{"page 1000 of 100", nil, 1000, 100, 1_000_000},
		{"blacklisted", &four, 1, 10, 10_000},
		{"reached telecom, page 1000", &one, 1000, 100, 600_000},
	} {
		start := time.Now()
		rows, total, err := svc.Recipients(ctx, a, send, c.status, c.page, c.limit)
		if err != nil || total != c.total || len(rows) != c.limit {
			t.Fatalf("%s: %d rows, total %d, %v", c.name, len(rows), total, err)
		}
		t.Logf("%s: %s", c.name, time.Since(start).Round(time.Millisecond))
	}
	// The page query must not sort the whole send: the plan reads the batch index.
	var plan string
	rows, err := pool.Query(ctx, `EXPLAIN SELECT r.id FROM recipients_history r WHERE r.send_id = $1 ORDER BY r.batch, r.id LIMIT 100 OFFSET 99900`, send)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan += line + "\n"
	}
	// Every month's partition is read in (send_id, batch, id) order and merged: no
	// sequential scan, no sort of the send.
	if !strings.Contains(plan, "send_id_batch_id_idx") || strings.Contains(plan, "Seq Scan") ||
		strings.Contains(plan, "Sort  (") {
		t.Fatalf("the recipients page does not use the (send_id, batch, id) index of each month:\n%s", plan)
	}
}
