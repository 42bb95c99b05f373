// Package periodic is the loop of the product's background jobs: call a
// function after a first delay, then again a period after each call returns,
// until the context ends.
package periodic

import (
	"context"
	"time"
)

// Every calls f after first, then every period after the previous call
// returned, until ctx ends. A call never overlaps the next.
func Every(ctx context.Context, first, every time.Duration, f func(context.Context)) {
	t := time.NewTimer(first)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		f(ctx)
		t.Reset(every)
	}
}
