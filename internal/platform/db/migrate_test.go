package db_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/internal/testing/testenv"
)

// tables counts the schema's tables and views, less the migrations' own table and
// what an extension owns (PostGIS's spatial_ref_sys and its two views: the
// extension stays installed, see migration 0060).
func tables(t *testing.T, d testenv.Database) int {
	t.Helper()
	var n int
	err := d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM information_schema.tables
		WHERE table_schema = 'public' AND table_name <> 'schema_migrations' AND table_name NOT IN (
			SELECT c.relname FROM pg_depend dep JOIN pg_class c ON c.oid = dep.objid
			WHERE dep.deptype = 'e' AND dep.classid = 'pg_class'::regclass)`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMigrationsUpDownUp(t *testing.T) {
	ctx := context.Background()
	d, cleanup, err := testenv.NewDatabase(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	migs, err := db.Migrations()
	if err != nil || len(migs) == 0 {
		t.Fatalf("migrations: %d %v", len(migs), err)
	}
	n, err := db.MigrateUp(ctx, d.Pool)
	if err != nil || n != len(migs) {
		t.Fatalf("up: %d %v", n, err)
	}
	full := tables(t, d)
	if full == 0 {
		t.Fatal("no tables after up")
	}
	if n, err := db.MigrateUp(ctx, d.Pool); err != nil || n != 0 {
		t.Fatalf("second up applied %d: %v", n, err)
	}
	if n, err := db.MigrateDown(ctx, d.Pool, 0); err != nil || n != len(migs) {
		t.Fatalf("down: %d %v", n, err)
	}
	if left := tables(t, d); left != 0 {
		t.Fatalf("%d tables left after down", left)
	}
	if v, _ := db.Version(ctx, d.Pool); v != 0 {
		t.Fatalf("version after down %d", v)
	}
	if n, err := db.MigrateUp(ctx, d.Pool); err != nil || n != len(migs) {
		t.Fatalf("up again: %d %v", n, err)
	}
	if again := tables(t, d); again != full {
		t.Fatalf("tables %d after up-down-up, want %d", again, full)
	}
	if v, _ := db.Version(ctx, d.Pool); v != migs[len(migs)-1].Version {
		t.Fatalf("version %d", v)
	}
}

func TestConcurrentMigrators(t *testing.T) {
	ctx := context.Background()
	d, cleanup, err := testenv.NewDatabase(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	errs := make(chan error, 3)
	total := make(chan int, 3)
	for range 3 {
		go func() {
			n, err := db.MigrateUp(ctx, d.Pool)
			errs <- err
			total <- n
		}()
	}
	sum := 0
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		sum += <-total
	}
	migs, _ := db.Migrations()
	if sum != len(migs) {
		t.Fatalf("three migrators applied %d migrations, want %d", sum, len(migs))
	}
}
