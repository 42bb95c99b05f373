// Package ratelimit implements fixed-window request limits and concurrency slots in
// Redis, shared by every API instance (login, OTP send and confirm, send, price).
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Limiter counts hits per key in Redis.
type Limiter struct {
	rdb    redis.UniversalClient
	prefix string
}

// New returns a limiter whose keys start with prefix.
func New(rdb redis.UniversalClient, prefix string) *Limiter {
	return &Limiter{rdb: rdb, prefix: prefix}
}

var incr = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`)

// Allow records one hit on key and reports whether it is within limit per window. When
// it is not, retryAfter says how long until the window resets.
func (l *Limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error) {
	if limit <= 0 {
		return true, 0, nil
	}
	res, err := incr.Run(ctx, l.rdb, []string{l.prefix + key}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	if res[0] > int64(limit) {
		return false, time.Duration(res[1]) * time.Millisecond, nil
	}
	return true, 0, nil
}
