package blocklist_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/upload"
)

// TestBenchImport measures a staff import of a generated csv of distinct numbers
// (BENCH_ROWS, default 1,000,000): the file read and normalised row by row, COPYed
// into the staging table and merged into the list, in one transaction; then the
// same file again (every number already listed), and the anti-join an advertising
// expansion runs per chunk of 20,000 recipients against the full list.
//
//	BENCH=1 BENCH_ROWS=1000000 go test -count=1 -run TestBenchImport -v ./pkg/blocklist/
func TestBenchImport(t *testing.T) {
	if os.Getenv("BENCH") != "1" {
		t.Skip("BENCH=1 runs the import benchmark")
	}
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	db := testenv.Postgres(t)
	svc := blocklist.New(db.Pool, func(path, name string) (blocklist.Rows, error) { return upload.OpenRows(path, name) })
	path := filepath.Join(t.TempDir(), "numbers.csv")
	writeNumbers(t, path, n)
	ctx := context.Background()
	staff := acl.Identity{UserID: 0, Username: "bench"}
	for _, pass := range []string{"new numbers", "already listed"} {
		start := time.Now()
		res, err := svc.Import(ctx, staff, path, "numbers.csv", "", "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		t.Logf("import (%s): %d rows in %v = %.0f rows/s (added %d, existing %d)", pass, res.Rows, d.Round(time.Millisecond),
			float64(res.Rows)/d.Seconds(), res.Added, res.Existing)
	}
	mobiles, ops := make([]string, 20_000), make([]string, 20_000)
	for i := range mobiles {
		mobiles[i], ops[i] = fmt.Sprintf("98912%07d", i*(n/20_000+1)%n), "mci"
	}
	start := time.Now()
	hit, err := blocklist.Blocked(ctx, db.Pool, mobiles, ops)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("anti-join of a 20,000-recipient chunk against %d listed: %v (%d listed)", n, time.Since(start).Round(time.Millisecond), len(hit))
}

// writeNumbers writes n distinct MCI numbers, one a line.
func writeNumbers(t *testing.T, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintf(w, "0912%07d\n", i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
