package phonebook

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pipedChunk is a chunk stored in its own transaction beside the one before it
// (storeBeside).
type pipedChunk struct {
	chunk sortedChunk
	done  chan struct{}
	err   error
	state Import // the import's figures once this chunk committed
}

// errBeforeFailed: the chunk before a piped chunk did not commit, so neither may it.
var errBeforeFailed = errors.New("the chunk before did not commit")

// storeBeside stores a chunk in its own transaction while prev, the chunk before
// it (nil for none), may still be storing: the two COPYs run side by side on two
// PostgreSQL backends, and this chunk locks the import, checks the cursor and
// commits only once prev has committed, so chunks still commit in file order.
// Only for a chunk that names no new tag, while the run trusts its plan
// (!p.probe); anything surprising (a known number, a changed phonebook, a lock
// time-out) fails it with errProbe, and settle stores it again the careful way.
func (s *Service) storeBeside(ctx context.Context, im *Import, p *importPlan, sc sortedChunk, prev *pipedChunk) *pipedChunk {
	f := &pipedChunk{chunk: sc, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		c := chunkWork{im: im, p: p, rows: sc.rows, bad: sc.bad, last: sc.last, size: sc.size}
		f.err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return copyBeside(ctx, tx, &c, prev, s.pipeLockWait) })
		if f.err == nil {
			c.account()
			f.state = *im
		}
	}()
	return f
}

// copyBeside is a piped chunk's transaction (storeBeside).
func copyBeside(ctx context.Context, tx pgx.Tx, c *chunkWork, prev *pipedChunk, lockWait string) error {
	if err := commitLater(ctx, tx, lockWait); err != nil {
		return err
	}
	if err := c.copy(ctx, tx, c.p.fresh(c.rows)); err != nil {
		return err
	}
	if prev != nil {
		select {
		case <-prev.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if prev.err != nil {
			return errBeforeFailed
		}
	}
	members, err := lockImport(ctx, tx, c.im)
	if lockTimedOut(err) || err == nil && members != c.p.expect {
		return errProbe // someone else is writing to the phonebook: ask the database
	}
	if err != nil {
		return err
	}
	return c.finish(ctx, tx, members)
}

// lockTimedOut reports whether err is PostgreSQL's lock_not_available.
func lockTimedOut(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "55P03"
}

// settle waits for the piped chunk f, with next piped after it (or nil), and
// returns what is still in flight. A chunk that met something its plan did not
// expect is stored again the careful way, and so is next, which cannot have
// committed before it. done is false when the import is gone or another run
// moved on.
func (s *Service) settle(ctx context.Context, im *Import, p *importPlan, f, next *pipedChunk) (inFlight *pipedChunk, done bool, err error) {
	<-f.done
	if f.err == nil {
		s.publish(ctx, f.state)
		return next, true, nil
	}
	if next != nil {
		<-next.done
	}
	if errors.Is(f.err, errStale) {
		return nil, false, nil
	}
	if !errors.Is(f.err, errProbe) {
		return nil, false, f.err
	}
	p.probe = true
	for _, c := range []*pipedChunk{f, next} {
		if c == nil {
			continue
		}
		if done, err := s.importSorted(ctx, im, p, c.chunk); !done || err != nil {
			return nil, done, err
		}
		s.publish(ctx, *im)
	}
	return nil, true, nil
}
