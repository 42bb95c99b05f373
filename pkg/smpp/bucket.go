package smpp

import (
	"context"
	"sync"
	"time"
)

// tokenBucket limits submit_sm to a steady rate with a bounded burst. Waiters
// reserve a token (the balance may go negative) and sleep until it matures, so
// concurrent submitters are served in reservation order.
type tokenBucket struct {
	mu     sync.Mutex
	rate   float64 // tokens per second
	burst  float64
	tokens float64
	last   time.Time
}

func newTokenBucket(rate float64, burst int) *tokenBucket {
	if rate <= 0 {
		return nil
	}
	return &tokenBucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: time.Now()}
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
	t := time.NewTimer(time.Duration(deficit / b.rate * float64(time.Second)))
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

func (b *tokenBucket) refund() {
	b.mu.Lock()
	b.tokens = min(b.burst, b.tokens+1)
	b.mu.Unlock()
}
