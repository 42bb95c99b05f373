package smpp

import (
	"context"
	"sync"
	"time"
)

// tokenBucket limits submit_sm to a steady rate with a bounded burst. Waiters
// reserve a token (the balance may go negative) and sleep until it matures.
//
// Waiters wake on a grid of tick (BucketTick, or less when the burst is
// shorter): the tokens that mature within one tick go out together, in one
// write and one wake-up, instead of one each. A paced bind then costs the
// gateway, the carrier and everything downstream a fraction of the system
// calls, and the rate is the same: a token is never used before it matures, and
// at most a tick's worth (never more than the burst) leaves at once.
type tokenBucket struct {
	mu     sync.Mutex
	rate   float64 // tokens per second
	burst  float64
	tokens float64
	last   time.Time
	tick   time.Duration
}

// BucketTick is the grid paced submits wake on (see tokenBucket and OnGrid).
const BucketTick = 10 * time.Millisecond

func newTokenBucket(rate float64, burst int) *tokenBucket {
	if rate <= 0 {
		return nil
	}
	tick := min(BucketTick, time.Duration(float64(burst)/rate*float64(time.Second)))
	return &tokenBucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: time.Now(), tick: tick}
}

// wait takes one token, sleeping until it is available. When ctx or stop ends
// the wait first, the reservation is returned and the cause reported.
func (b *tokenBucket) wait(ctx context.Context, stop <-chan struct{}) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	now := time.Now()
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	b.tokens--
	deficit := -b.tokens
	b.mu.Unlock()
	if deficit <= 0 {
		return nil
	}
	t := time.NewTimer(b.untilTick(now, deficit))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		b.refund()
		return ctx.Err()
	case <-stop:
		b.refund()
		return ErrClosed
	}
}

// untilTick is how long from now until the first tick of the grid at or after
// the moment a deficit of tokens has matured.
func (b *tokenBucket) untilTick(now time.Time, deficit float64) time.Duration {
	return OnGrid(now, time.Duration(deficit/b.rate*float64(time.Second)), b.tick)
}

// OnGrid lengthens a wait of d from now to end on the next multiple of tick
// (of Unix time): paced senders that wake on one grid go out together, in one
// wake-up and one write, instead of one at a time. A tick of 0 leaves d as is.
func OnGrid(now time.Time, d, tick time.Duration) time.Duration {
	if tick <= 0 {
		return d
	}
	at := now.Add(d).UnixNano()
	return d + time.Duration((int64(tick)-at%int64(tick))%int64(tick))
}

func (b *tokenBucket) refund() {
	b.mu.Lock()
	b.tokens = min(b.burst, b.tokens+1)
	b.mu.Unlock()
}
