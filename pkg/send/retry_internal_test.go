package send

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// A transaction PostgreSQL aborted as a deadlock's victim or a serialization
// failure is tried again, up to txAttempts in all; any other error is returned
// at once.
func TestRetryAborted(t *testing.T) {
	for _, c := range []struct {
		name  string
		fails int
		err   error
		calls int
		ok    bool
	}{
		{"deadlock once", 1, &pgconn.PgError{Code: "40P01"}, 2, true},
		{"serialization, wrapped", 2, fmt.Errorf("stop recipients: %w", &pgconn.PgError{Code: "40001"}), 3, true},
		{"deadlock every time", 9, &pgconn.PgError{Code: "40P01"}, txAttempts, false},
		{"another error", 9, &pgconn.PgError{Code: "23505"}, 1, false},
		{"not PostgreSQL", 9, errors.New("boom"), 1, false},
	} {
		calls := 0
		err := retryAborted(context.Background(), func() error {
			calls++
			if calls <= c.fails {
				return c.err
			}
			return nil
		})
		if calls != c.calls || (err == nil) != c.ok {
			t.Errorf("%s: %d calls, err %v; want %d calls, ok %v", c.name, calls, err, c.calls, c.ok)
		}
	}
}
