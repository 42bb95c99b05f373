package enginetest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/rollup"
	"github.com/chapar/chapar/pkg/send"
)

// bruteDays aggregates an account's activity per Tehran day straight from sends,
// recipients and inbox: what the rollups must equal.
const bruteDays = `WITH s AS (
	SELECT id, (coalesce(send_at, created_at) AT TIME ZONE 'Asia/Tehran')::date AS day, total_parts, cost - refunded AS spend
	FROM sends WHERE account_id = $1 AND expanded_at IS NOT NULL AND NOT sandbox AND type <> 'verification'),
d AS (SELECT day, count(*) AS sends, sum(total_parts) AS parts, sum(spend) AS spend FROM s GROUP BY day),
r AS (SELECT s.day, count(*) AS recipients, count(*) FILTER (WHERE r.status = 2) AS delivered,
		count(*) FILTER (WHERE r.status = 3) AS undelivered
	FROM recipients r JOIN s ON s.id = r.send_id GROUP BY s.day),
i AS (SELECT (received_at AT TIME ZONE 'Asia/Tehran')::date AS day, count(*) AS inbound FROM inbox WHERE account_id = $1 GROUP BY 1)
SELECT coalesce(d.day, i.day)::text, coalesce(d.sends, 0), coalesce(r.recipients, 0), coalesce(d.parts, 0)::bigint, coalesce(r.delivered, 0),
	coalesce(r.undelivered, 0), coalesce(d.spend, 0)::bigint, coalesce(i.inbound, 0)
FROM d LEFT JOIN r ON r.day = d.day FULL JOIN i ON i.day = d.day ORDER BY 1`

const rolledDays = `SELECT day::text, sends, recipients, parts, delivered, undelivered, spend, inbound
FROM rollup_days WHERE account_id = $1 ORDER BY 1`

const bruteOps = `SELECT r.operator, count(*), count(*) FILTER (WHERE r.status IN (0, 1, 2, 3)),
	count(*) FILTER (WHERE r.status = 2), count(*) FILTER (WHERE r.status = 3)
FROM recipients r JOIN sends s ON s.id = r.send_id
WHERE s.account_id = $1 AND NOT s.sandbox AND s.type <> 'verification' GROUP BY 1 ORDER BY 1`

const rolledOps = `SELECT operator, sum(recipients), sum(sent), sum(delivered), sum(undelivered)
FROM rollup_day_ops WHERE account_id = $1 GROUP BY 1 ORDER BY 1`

// rows renders a query's rows as text lines.
func rows(t *testing.T, e *enginetest.Engine, q string, args ...any) string {
	t.Helper()
	rs, err := e.DB.Pool.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var b strings.Builder
	for rs.Next() {
		vals, err := rs.Values()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// finalSend sends numbers as the account and waits for every receipt.
func finalSend(t *testing.T, e *enginetest.Engine, token, sender, text string, numbers []string) int64 {
	t.Helper()
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "quick", "text": text, "sender": sender, "numbers": numbers}, token).Decode(t, &a)
	e.Wait("send final", 30*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == s.Submitted && s.Submitted > 0
	})
	return a.ID
}

func TestRollupsEqualBruteForce(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.ForcedOutcomes = map[string]smscsim.Stat{"989351230002": smscsim.StatUndeliverable, "989121230003": smscsim.StatUndeliverable}
	}})
	tokenA, acctA := e.Account("rolla", "09121119001", "30009001", "advertising", 5_000_000)
	tokenB, acctB := e.Account("rollb", "09121119002", "30009002", "advertising", 5_000_000)
	first := finalSend(t, e, tokenA, "30009001", "سلام", []string{"09121230001", "09351230002", "09121230003", "09201230004"})
	finalSend(t, e, tokenA, "30009001", strings.Repeat("پیام دو بخشی ", 8), []string{"09121230005", "09351230006"})
	finalSend(t, e, tokenB, "30009002", "other", []string{"09121230007"})
	for _, from := range []string{"989121239991", "989121239992"} {
		if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: "30009001", Text: "سلام"}); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("inbound stored", 20*time.Second, func() bool {
		return rows(t, e, `SELECT count(*) FROM inbox WHERE account_id = $1`, acctA) == "2\n"
	})
	ctx := context.Background()
	for _, acct := range []int64{acctA, acctB} {
		want, wantOps := rows(t, e, bruteDays, acct), rows(t, e, bruteOps, acct)
		if want == "" || wantOps == "" {
			t.Fatalf("account %d has no activity", acct)
		}
		e.Wait("rolled up", 20*time.Second, func() bool {
			_, _ = e.Worker.Rollups.Run(ctx)
			return rows(t, e, rolledDays, acct) == want && rows(t, e, rolledOps, acct) == wantOps
		})
	}
	var chA, chB rollup.Charts
	e.Must(200, "GET", "/v1/api/panel/dashboard_charts", nil, tokenA).Decode(t, &chA)
	e.Must(200, "GET", "/v1/api/panel/dashboard_charts", nil, tokenB).Decode(t, &chB)
	if len(chA.Days) != rollup.Days || chA.Totals.Sends != 2 || chA.Totals.Recipients != 6 || chA.Totals.Delivered != 4 ||
		chA.Totals.Undelivered != 2 || chA.Totals.Inbound != 2 || chA.Totals.Parts != 8 || chA.Totals.Spend <= 0 {
		t.Fatalf("account A charts %+v", chA.Totals)
	}
	if chB.Totals.Sends != 1 || chB.Totals.Recipients != 1 || chB.Totals.Inbound != 0 {
		t.Fatalf("account B sees %+v", chB.Totals)
	}
	if today := chA.Days[rollup.Days-1]; today.Sends != 2 || today.Date != chA.To {
		t.Fatalf("today %+v", today)
	}
	var mci *rollup.Operator
	for i := range chA.Operators {
		if chA.Operators[i].Code == "mci" {
			mci = &chA.Operators[i]
		}
	}
	if mci == nil || mci.Sent != 3 || mci.Delivered != 2 || mci.Rate != 66.6 {
		t.Fatalf("mci %+v of %+v", mci, chA.Operators)
	}
	sendAnalytics(t, e, tokenA, tokenB, first)
	systemicList(t, e, tokenA, tokenB)
}

// sendAnalytics checks a send's analytics against its outcome, and that another
// account cannot read them.
func sendAnalytics(t *testing.T, e *enginetest.Engine, token, other string, id int64) {
	var a report.Analytics
	e.Must(200, "GET", fmt.Sprintf("/v1/api/report/analytics?id=%d", id), nil, token).Decode(t, &a)
	recipients, delivered := 0, 0
	for _, o := range a.Operators {
		recipients, delivered = recipients+o.Recipients, delivered+o.Delivered
	}
	if recipients != 4 || delivered != 2 || len(a.Operators) != 3 {
		t.Fatalf("operators %+v", a.Operators)
	}
	if len(a.Reasons) != 1 || a.Reasons[0].Count != 2 || a.Reasons[0].Status != 3 {
		t.Fatalf("reasons %+v", a.Reasons)
	}
	last := a.Curve[len(a.Curve)-1]
	if len(a.Curve) < 2 || last.Delivered != 2 || last.Undelivered != 2 || a.Curve[0].Delivered != 0 {
		t.Fatalf("curve %+v", a.Curve)
	}
	e.Must(404, "GET", fmt.Sprintf("/v1/api/report/analytics?id=%d", id), nil, other)
}

// systemicList checks the login codes sent to each account's owner are listed
// for that account only, with the code hidden.
func systemicList(t *testing.T, e *enginetest.Engine, token, other string) {
	var page []report.Systemic
	r := e.Must(200, "GET", "/v1/api/report/systemic_list", nil, token)
	r.Decode(t, &page)
	if len(page) == 0 || page[0].Username != "rolla" || page[0].Purpose != "login" {
		t.Fatalf("systemic list %s", r.Raw)
	}
	for _, m := range page {
		if m.Username != "rolla" || !strings.Contains(m.Text, "••••") || strings.ContainsAny(m.Text, "0123456789") {
			t.Fatalf("systemic row %+v", m)
		}
	}
	var otherPage []report.Systemic
	e.Must(200, "GET", "/v1/api/report/systemic_list", nil, other).Decode(t, &otherPage)
	for _, m := range otherPage {
		if m.Username != "rollb" {
			t.Fatalf("account B sees %+v", m)
		}
	}
	if raw := rawGet(t, e, "/v1/api/report/systemic_list/export", token); !strings.HasPrefix(string(raw), "PK") {
		t.Fatalf("the export is not an xlsx: %.40q", raw)
	}
}
