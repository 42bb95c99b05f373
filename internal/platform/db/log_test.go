package db_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/internal/testing/testenv"
)

type logRow struct {
	ID    int64
	Owner int64
}

// TestLogPageAndEach: a filtered log reads newest first, as a page with the total
// and as every row in keyset steps (a step size that does and does not divide the
// rows), and an error from the caller stops the reading.
func TestLogPageAndEach(t *testing.T) {
	ctx := context.Background()
	d, cleanup, err := testenv.NewDatabase(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if _, err := d.Pool.Exec(ctx, `CREATE TABLE entries (id bigint PRIMARY KEY, owner bigint NOT NULL);
		INSERT INTO entries SELECT i, i % 3 FROM generate_series(1, 30) i`); err != nil {
		t.Fatal(err)
	}
	var want []int64 // owner 1's ids, newest first
	for i := int64(30); i >= 1; i-- {
		if i%3 == 1 {
			want = append(want, i)
		}
	}
	for _, chunk := range []int{0, 1, 3, 5, 7} {
		l := db.Log[logRow]{What: "entries", Cols: "e.id, e.owner", From: "FROM entries e WHERE e.owner = $1", ID: "e.id",
			Scan: pgx.RowToStructByPos[logRow], IDOf: func(r logRow) int64 { return r.ID }, Chunk: chunk}
		var got []int64
		if err := l.Each(ctx, d.Pool, []any{1}, func(r logRow) error {
			if r.Owner != 1 {
				t.Fatalf("row %d of owner %d read for owner 1", r.ID, r.Owner)
			}
			got = append(got, r.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("chunk %d: read %v, want %v", chunk, got, want)
		}
		page, total, err := l.Page(ctx, d.Pool, []any{1}, 4, 2)
		if err != nil || total != int64(len(want)) || len(page) != 4 || page[0].ID != want[4] {
			t.Fatalf("page 2 of 4: %v total %d err %v", page, total, err)
		}
		stop := errors.New("stop")
		n := 0
		if err := l.Each(ctx, d.Pool, []any{1}, func(logRow) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Fatalf("a caller's error: %v after %d rows", err, n)
		}
	}
}
