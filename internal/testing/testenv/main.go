package testenv

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// Shared are the stores a package's tests share for one run (Main).
type Shared struct {
	DB    Database
	Redis Redis // zero unless asked for
}

// Main runs a package's tests and exits (call it as TestMain's only statement) on
// one migrated database, and one Redis database when withRedis is set, made for
// the run and removed after it: the domain tests of a package pay for one
// migration, not one per test. The stores are in *into while the tests run; tests
// keep apart by creating accounts of their own.
func Main(m *testing.M, withRedis bool, into *Shared) {
	os.Exit(runShared(m, withRedis, into))
}

func runShared(m *testing.M, withRedis bool, into *Shared) int {
	ctx := context.Background()
	d, drop, err := NewDatabase(ctx, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	defer drop()
	into.DB = d
	if withRedis {
		r, release, err := NewRedis(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testenv:", err)
			return 1
		}
		defer release()
		into.Redis = r
	}
	return m.Run()
}
