package history_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/history"
	"github.com/chapar/chapar/pkg/report"
)

// TestArchiveAcrossPartitions: a send whose recipients straddle two months keeps
// its report after both months are archived, the hot table no longer holds them,
// and every step is idempotent.
func TestArchiveAcrossPartitions(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := d.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	count := func(sql string, args ...any) (n int) {
		t.Helper()
		if err := d.Pool.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var account, send int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('history') RETURNING id`).Scan(&account); err != nil {
		t.Fatal(err)
	}
	if err := d.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
		VALUES ($1, 'quick', '3000123', 'x', 'done', 5, now()) RETURNING id`, account).Scan(&send); err != nil {
		t.Fatal(err)
	}
	const ins = `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status) VALUES `
	exec(ins+`($1, 0, '989120000001', 'mci', 1, 190, 2), ($1, 0, '989120000002', 'mci', 1, 190, 2),
		($1, 0, '989120000003', 'mci', 1, 190, 3)`, send)
	this := history.Month(time.Now())
	// An expansion that ran over the month's end: its last rows carry the next month's ids.
	exec(`INSERT INTO recipients (id, send_id, batch, mobile, operator, parts, cost, status) VALUES
		($2::bigint + 1, $1, 1, '989120000004', 'mci', 1, 190, 2), ($2::bigint + 2, $1, 1, '989120000005', 'mci', 1, 190, 0)`,
		send, history.Base(this+1))

	var first int64
	if err := d.Pool.QueryRow(ctx, `SELECT min(id) FROM recipients WHERE send_id = $1`, send).Scan(&first); err != nil {
		t.Fatal(err)
	}
	if history.MonthOf(first) != this {
		t.Fatalf("a new recipient's id %d is of month %d, want %d", first, history.MonthOf(first), this)
	}
	if n := count(`SELECT count(DISTINCT tableoid) FROM recipients WHERE send_id = $1`, send); n != 2 {
		t.Fatalf("the send's recipients are in %d partitions, want 2", n)
	}

	j := history.NewJob(d.Pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	j.Session = d.Direct
	if err := j.Once(ctx); err != nil { // today: nothing to make, nothing to archive
		t.Fatal(err)
	}
	if n := count(`SELECT count(*) FROM recipients WHERE send_id = $1`, send); n != 5 {
		t.Fatalf("after a run today the hot table holds %d of the send's 5 recipients", n)
	}
	if made, err := j.Ensure(ctx); err != nil || made != 0 {
		t.Fatalf("Ensure after the migration made %d (%v), want 0: it makes %d months ahead", made, err, history.DefaultAhead)
	}
	// Fourteen months on: this month and the next are older than the 13 kept.
	j.Now = func() time.Time { return time.Now().AddDate(0, 14, 0) }
	if made, err := j.Ensure(ctx); err != nil || made != 4 {
		t.Fatalf("Ensure 14 months on made %d (%v), want 4", made, err)
	}
	archived, err := j.Archive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(archived) != 3 { // recipients_legacy, this month, the next
		t.Fatalf("archived %v, want the legacy rows and two months", archived)
	}
	if again, err := j.Archive(ctx); err != nil || len(again) != 0 {
		t.Fatalf("a second Archive moved %v (%v), want nothing", again, err)
	}
	if n := count(`SELECT count(*) FROM recipients WHERE send_id = $1`, send); n != 0 {
		t.Fatalf("the hot table still holds %d of the archived send's recipients", n)
	}
	parts, err := j.Partitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		old := p.Month < this+2
		if old == p.Attached || old != (p.Schema == history.ArchiveSchema) {
			t.Errorf("partition %+v: archived should be %v", p, old)
		}
	}

	got, total, err := report.New(d.Pool).Recipients(ctx, account, send, nil, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if total != 5 || len(got) != 5 || got[3].Mobile != "989120000004" {
		t.Fatalf("the archived send's report: %d of %d recipients %+v, want all 5 in order", len(got), total, got)
	}
	delivered := 2
	if _, total, err := report.New(d.Pool).Recipients(ctx, account, send, &delivered, 1, 10); err != nil || total != 3 {
		t.Fatalf("delivered recipients of the archived send: %d (%v), want 3", total, err)
	}
}
