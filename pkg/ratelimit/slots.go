package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/chapar/chapar/internal/platform/lease"
)

// Acquire takes one of n concurrent slots of key (shared by every instance) for at
// most hold, so a crashed holder frees its slot by itself. ok is false when all n
// are taken; otherwise release frees the slot.
func (l *Limiter) Acquire(ctx context.Context, key string, n int, hold time.Duration) (rel func(), ok bool, err error) {
	if n <= 0 {
		return func() {}, true, nil
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	for i := range n {
		slot := l.prefix + key + ":" + strconv.Itoa(i)
		taken, err := l.rdb.SetNX(ctx, slot, token, hold).Result()
		if err != nil {
			return nil, false, fmt.Errorf("slot %s: %w", key, err)
		}
		if taken {
			return func() { _ = lease.Drop(context.WithoutCancel(ctx), l.rdb, slot, token) }, true, nil
		}
	}
	return nil, false, nil
}
