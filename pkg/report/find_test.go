package report_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/report"
)

// Finding a mobile reads recipients through their mobile index, not a scan of the
// recipients of the account's sends: checked on the plan of the list's count with
// 30,000 recipients in the account's send, the statistics fresh (an index-only scan
// of the month's (mobile, send_id) index).
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
	// The month holding the rows is read by its mobile index; empty months may be
	// scanned (nothing to read).
	var part string
	if err := pool.QueryRow(ctx, `SELECT tableoid::regclass::text FROM recipients WHERE send_id = $1 LIMIT 1`, id).Scan(&part); err != nil {
		t.Fatal(err)
	}
	if rows.Err() != nil || !strings.Contains(text, "Index Only Scan using "+part+"_mobile_send_id_idx") || strings.Contains(text, "Seq Scan on "+part+" ") {
		t.Fatalf("the mobile lookup does not use the index of %s:\n%s", part, text)
	}
	t.Logf("plan:\n%s", text)

	// And the list itself finds the number, with its status.
	list, total, err := report.New(pool).List(ctx, acct, report.Filter{Mobile: "989120000042"})
	if err != nil || total != 1 || list[0].ID != id || list[0].Match == nil || list[0].Match.Status != 2 {
		t.Fatalf("list by mobile: %v %d %v", err, total, list)
	}
}
