package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/send"
)

// An expansion of AnalyzeFrom recipients or more analyzes the recipients
// partition it loaded, so that the plans the gateway and the receipt path cached
// while the partition was nearly empty are made again for its size; a smaller
// one leaves it to autovacuum.
func TestLargeExpansionAnalyzesPartition(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{AnalyzeFrom: 20})
	token, acct := e.Account("analyze", "09121110041", "30004141", "service", 20_000_000)
	analyzed := func() (n int64) {
		if err := e.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(sum(analyze_count), 0)
			FROM pg_stat_user_tables WHERE relname ~ '^recipients_'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var small send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "کوچک", "numbers": numbersFrom("0912", 19)}, token).
		Decode(t, &small)
	assertAccounted(t, e, acct, small.ID, 19)
	if n := analyzed(); n != 0 {
		t.Fatalf("a send of 19 recipients (under 20) analyzed the partition %d times", n)
	}
	var large send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "بزرگ", "numbers": numbersFrom("0935", 20)}, token).
		Decode(t, &large)
	assertAccounted(t, e, acct, large.ID, 20)
	e.Wait("the partition analyzed after the expansion of 20", 30*time.Second, func() bool { return analyzed() == 1 })
}
