package send

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// txAttempts is how many times a control transaction is tried when PostgreSQL
// aborts it as a deadlock's victim or a serialization failure.
const txAttempts = 3

// retryAborted runs tx again (after a short pause) when PostgreSQL aborted it as
// a deadlock's victim (40P01) or a serialization failure (40001): the aborted
// transaction left nothing behind, and the user's stop must not fail for a
// gateway's or the sweeper's transaction that took the same rows at that moment.
func retryAborted(ctx context.Context, tx func() error) error {
	var err error
	for attempt := 1; attempt <= txAttempts; attempt++ {
		if err = tx(); !aborted(err) || attempt == txAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt) * 20 * time.Millisecond):
		}
	}
	return err
}

// aborted reports whether err is PostgreSQL aborting a transaction that may
// simply be tried again.
func aborted(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}
