package testenv

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// Shared are the stores a package's tests share for one run (RunShared).
type Shared struct {
	DB    Database
	Redis Redis // zero unless asked for
}

// RunShared runs a package's tests (call it from TestMain: os.Exit(RunShared(...)))
// on one migrated database, and one Redis database when withRedis is set, made for
// the run and removed after it: the domain tests of a package pay for one
// migration, not one per test. use is given the stores before the tests run; tests
// keep apart by creating accounts of their own.
func RunShared(m *testing.M, withRedis bool, use func(Shared)) int {
	ctx := context.Background()
	var s Shared
	d, drop, err := NewDatabase(ctx, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	defer drop()
	s.DB = d
	if withRedis {
		r, release, err := NewRedis(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testenv:", err)
			return 1
		}
		defer release()
		s.Redis = r
	}
	use(s)
	return m.Run()
}
