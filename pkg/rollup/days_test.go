package rollup_test

import (
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/rollup"
)

// The dashboard's daily figures: each expanded customer send counts on its Tehran
// day (a send a minute before Tehran's midnight on the day before), with its
// parts, its spend less refunds and its recipients' outcomes; inbound messages
// count on the day they arrived; sandbox, verification and unexpanded sends do not
// count; every account sees only its own; the operators' delivery rate is
// delivered over sent.
func TestDailyFigures(t *testing.T) {
	a, b := account(t, "rollup a"), account(t, "rollup b")
	now := time.Now()
	y, m, d := now.In(persian.Tehran).Date()
	beforeMidnight := time.Date(y, m, d, 0, 0, 0, 0, persian.Tehran).Add(-time.Minute)
	delivered, undelivered := recipient{"mci", 2}, recipient{"mci", 3}
	send(t, a, seed{at: now, expanded: true, parts: 4, cost: 800, refunded: 100,
		recipients: []recipient{delivered, delivered, undelivered, {"irancell", 2}}})
	send(t, a, seed{at: beforeMidnight, expanded: true, parts: 2, cost: 400,
		recipients: []recipient{{"mci", 1}, {"rightel", 6}}})
	send(t, a, seed{at: now, parts: 1, cost: 100, recipients: []recipient{delivered}})                                      // never expanded
	send(t, a, seed{at: now, sandbox: true, expanded: true, parts: 1, cost: 100, recipients: []recipient{delivered}})       // sandbox
	send(t, a, seed{at: now, typ: "verification", expanded: true, parts: 1, cost: 100, recipients: []recipient{delivered}}) // a login code
	send(t, b, seed{at: now, expanded: true, parts: 1, cost: 150, recipients: []recipient{delivered}})
	for i, acct := range []int64{a, a, b} {
		exec(t, `INSERT INTO inbox (account_id, line, sender, text, stream_id) VALUES ($1, '3000123', '989121234567', 'سلام', $2)`,
			acct, t.Name()+string(rune('a'+i)))
	}
	if n := run(t); n != 4 {
		t.Fatalf("recomputed %d sends, want the 4 customer sends", n)
	}
	c := charts(t, a)
	today := rollup.Day{Date: c.To, Sends: 1, Recipients: 4, Parts: 4, Delivered: 3, Undelivered: 1, Spend: 700, Inbound: 2}
	if got := day(c, now); got != today {
		t.Fatalf("today %+v, want %+v", got, today)
	}
	yesterday := rollup.Day{Date: beforeMidnight.In(persian.Tehran).Format(time.DateOnly), Sends: 1, Recipients: 2, Parts: 2, Spend: 400}
	if got := day(c, beforeMidnight); got != yesterday {
		t.Fatalf("the day before %+v, want %+v", got, yesterday)
	}
	if c.Totals != (rollup.Day{Sends: 2, Recipients: 6, Parts: 6, Delivered: 3, Undelivered: 1, Spend: 1100, Inbound: 2}) {
		t.Fatalf("totals %+v", c.Totals)
	}
	operatorsAre(t, c.Operators, []rollup.Operator{{Code: "mci", Recipients: 4, Sent: 4, Delivered: 2, Undelivered: 1, Rate: 50},
		{Code: "irancell", Recipients: 1, Sent: 1, Delivered: 1, Rate: 100}, {Code: "rightel", Recipients: 1}})
	if cb := charts(t, b); cb.Totals != (rollup.Day{Sends: 1, Recipients: 1, Parts: 1, Delivered: 1, Spend: 150, Inbound: 1}) {
		t.Fatalf("account b sees %+v", cb.Totals)
	}
	if n := run(t); n != 0 {
		t.Fatalf("a second run recomputed %d sends with nothing changed", n)
	}
}

// operatorsAre checks the operators' figures in order, each with its Persian name.
func operatorsAre(t *testing.T, got, want []rollup.Operator) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("operators %+v", got)
	}
	for i, o := range got {
		if o.Name == "" || o.Name == o.Code {
			t.Errorf("operator %s has no Persian name", o.Code)
		}
		if o.Name = ""; o != want[i] {
			t.Errorf("operator %d: %+v, want %+v", i, o, want[i])
		}
	}
}

// A change to a send moves only what it changes: a receipt turns an undelivered
// recipient delivered, and a rescheduled send leaves its old day (which loses its
// row) for its new one.
func TestRollupFollowsChanges(t *testing.T) {
	a := account(t, "rollup changes")
	now := time.Now()
	id := send(t, a, seed{at: now, expanded: true, parts: 2, cost: 200, recipients: []recipient{{"mci", 2}, {"mci", 3}}})
	run(t)
	exec(t, `UPDATE recipients SET status = 2 WHERE send_id = $1 AND status = 3`, id)
	exec(t, `UPDATE sends SET delivered = 2, undelivered = 0 WHERE id = $1`, id)
	if n := run(t); n != 1 {
		t.Fatalf("recomputed %d sends after a receipt", n)
	}
	if got := day(charts(t, a), now); got.Delivered != 2 || got.Undelivered != 0 || got.Sends != 1 {
		t.Fatalf("after the receipt %+v", got)
	}
	earlier := now.AddDate(0, 0, -3)
	exec(t, `UPDATE sends SET send_at = $2 WHERE id = $1`, id, earlier)
	run(t)
	c := charts(t, a)
	if got := day(c, now); got.Sends != 0 || got.Recipients != 0 {
		t.Fatalf("the old day keeps %+v", got)
	}
	if got := day(c, earlier); got.Sends != 1 || got.Recipients != 2 || got.Delivered != 2 || got.Spend != 200 {
		t.Fatalf("the new day %+v", got)
	}
	var rows int
	if err := shared.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM rollup_days WHERE account_id = $1`, a).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d day rows (%v), want the new day's only", rows, err)
	}
}
