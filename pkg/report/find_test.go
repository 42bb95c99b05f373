package report_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/report"
)

// Finding a mobile reads recipients through their mobile index, not a scan of the
// recipients of the account's sends: checked on the plan of the list's count with
// 30,000 recipients in the account's send, the statistics fresh.
func TestMobileLookupUsesIndex(t *testing.T) {
	ctx := context.Background()
	acct, _, _ := account(t)
	id := seedSend(t, acct, sendSeed{Expanded: true, Requested: 30000, Recipients: 30000})
	seedRecipients(t, id, 30000, "2")
	if _, err := pool.Exec(ctx, `ANALYZE recipients`); err != nil {
		t.Fatal(err)
	}
	where, args := report.ListWhereForTest(report.Filter{Mobile: "989120000042"}, acct)
	rows, err := pool.Query(ctx, "EXPLAIN SELECT count(*) FROM sends s"+where, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	text := strings.Join(plan, "\n")
	if rows.Err() != nil || !strings.Contains(text, "mobile_") || strings.Contains(text, "Seq Scan on recipients") {
		t.Fatalf("the mobile lookup does not use the index:\n%s", text)
	}
	t.Logf("plan:\n%s", text)

	// And the list itself finds the number, with its status.
	list, total, err := report.New(pool).List(ctx, acct, report.Filter{Mobile: "989120000042"})
	if err != nil || total != 1 || list[0].ID != id || list[0].Match == nil || list[0].Match.Status != 2 {
		t.Fatalf("list by mobile: %v %d %v", err, total, list)
	}
}
