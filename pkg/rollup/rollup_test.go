package rollup_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/rollup"
)

// recipient is one recipient of a seeded send: its operator and stored status
// (1 sent, 2 delivered, 3 undelivered, 6 rejected).
type recipient struct {
	operator string
	status   int
}

// seed is a send as the engine leaves it.
type seed struct {
	at                    time.Time
	typ                   string
	sandbox, expanded     bool
	parts, cost, refunded int64
	recipients            []recipient
}

// exec runs a statement of the test's seeding.
func exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := shared.DB.Pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// account creates an account and returns its id.
func account(t *testing.T, name string) int64 {
	t.Helper()
	var id int64
	if err := shared.DB.Pool.QueryRow(context.Background(), `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// send inserts a send and its recipients, then updates it the way the engine's
// expansion does (which marks it for the rollup); it returns the send's id.
func send(t *testing.T, acct int64, s seed) int64 {
	t.Helper()
	if s.typ == "" {
		s.typ = "quick"
	}
	var id int64
	if err := shared.DB.Pool.QueryRow(context.Background(), `INSERT INTO sends (account_id, type, sender, text, status, sandbox, created_at)
		VALUES ($1, $2, '3000123', 'سلام', 'queued', $3, $4) RETURNING id`, acct, s.typ, s.sandbox, s.at).Scan(&id); err != nil {
		t.Fatal(err)
	}
	for i, r := range s.recipients {
		exec(t, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status) VALUES ($1, 0, $2, $3, 1, 100, $4)`,
			id, "98912000"+string(rune('0'+i))+"000", r.operator, r.status)
	}
	var expanded *time.Time
	if s.expanded {
		expanded = &s.at
	}
	exec(t, `UPDATE sends SET status = 'done', recipients = $2, total_parts = $3, cost = $4, refunded = $5, expanded_at = $6
		WHERE id = $1`, id, len(s.recipients), s.parts, s.cost, s.refunded, expanded)
	return id
}

// run runs the rollup job once and returns how many sends it recomputed.
func run(t *testing.T) int {
	t.Helper()
	n, err := rollup.NewJob(shared.DB.Pool, slog.New(slog.DiscardHandler)).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// charts reads an account's dashboard charts.
func charts(t *testing.T, acct int64) rollup.Charts {
	t.Helper()
	c, err := rollup.NewReader(shared.DB.Pool).Charts(context.Background(), acct)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Days) != rollup.Days || c.Days[0].Date != c.From || c.Days[rollup.Days-1].Date != c.To {
		t.Fatalf("charts cover %s..%s in %d days", c.From, c.To, len(c.Days))
	}
	return c
}

// day is the chart day of a Tehran date (zero when outside the charts).
func day(c rollup.Charts, at time.Time) rollup.Day {
	date := at.In(persian.Tehran).Format(time.DateOnly)
	for _, d := range c.Days {
		if d.Date == date {
			return d
		}
	}
	return rollup.Day{}
}

// shared is the package's one migrated database (TestMain); tests keep to their accounts.
var shared testenv.Shared

func TestMain(m *testing.M) { testenv.Main(m, false, &shared) }
