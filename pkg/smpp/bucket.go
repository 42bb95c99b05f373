package smpp

import (
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"
)

// tokenBucket limits submit_sm to a steady rate with a bounded burst (a
// golang.org/x/time/rate limiter), its waiters woken on a grid (WaitGrid).
type tokenBucket struct {
	lim  *rate.Limiter
	tick time.Duration
}

// BucketTick is the grid paced submits wake on (see WaitGrid).
const BucketTick = 10 * time.Millisecond

func newTokenBucket(r float64, burst int) *tokenBucket {
	if r <= 0 {
		return nil
	}
	return &tokenBucket{lim: rate.NewLimiter(rate.Limit(r), burst), tick: GridTick(r, burst)}
}

// wait takes one token (see WaitGrid); a nil bucket never waits.
func (b *tokenBucket) wait(ctx context.Context, stop <-chan struct{}) error {
	if b == nil {
		return nil
	}
	return WaitGrid(ctx, b.lim, b.tick, stop)
}

// GridTick is the grid a limiter of rate r (per second) and burst wakes its
// waiters on: BucketTick, or the burst's length when that is shorter, so that
// no more than the burst ever leaves at once.
func GridTick(r float64, burst int) time.Duration {
	return min(BucketTick, time.Duration(float64(burst)/r*float64(time.Second)))
}

// WaitGrid takes one token of lim, sleeping until it matures and on to the next
// tick of the grid (OnGrid): the tokens that mature within one tick go out
// together, in one wake-up and one write, instead of one each. A paced bind then
// costs the gateway, the carrier and everything downstream a fraction of the
// system calls at the same rate: a token is never used before it matures. When
// ctx or stop ends the wait first, the token is given back and the cause
// reported (ErrClosed for stop).
func WaitGrid(ctx context.Context, lim *rate.Limiter, tick time.Duration, stop <-chan struct{}) error {
	now := time.Now()
	r := lim.ReserveN(now, 1)
	if !r.OK() {
		return errors.New("smpp: rate limiter with a burst below one")
	}
	d := r.DelayFrom(now)
	if d == 0 {
		return nil
	}
	t := time.NewTimer(OnGrid(now, d, tick))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		r.Cancel()
		return ctx.Err()
	case <-stop:
		r.Cancel()
		return ErrClosed
	}
}

// OnGrid lengthens a wait of d from now to end on the next multiple of tick
// (of Unix time), so that paced senders waking on one grid go out together. A
// tick of 0 leaves d as is.
func OnGrid(now time.Time, d, tick time.Duration) time.Duration {
	if tick <= 0 {
		return d
	}
	at := now.Add(d).UnixNano()
	return d + time.Duration((int64(tick)-at%int64(tick))%int64(tick))
}
