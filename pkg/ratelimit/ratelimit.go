// Package ratelimit implements fixed-window request limits and concurrency slots in
// Redis, shared by every API instance (login, OTP send and confirm, send, price),
// and failure counters with lock-outs (login and password-reset abuse).
package ratelimit

import (
	"context"
	"errors"
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
	n, ttl, err := l.Hit(ctx, key, window)
	if err != nil {
		return false, 0, err
	}
	if n > int64(limit) {
		return false, ttl, nil
	}
	return true, 0, nil
}

// Hit records one hit on key and returns the hits in the current window and the time
// left of it.
func (l *Limiter) Hit(ctx context.Context, key string, window time.Duration) (n int64, left time.Duration, err error) {
	res, err := incr.Run(ctx, l.rdb, []string{l.prefix + key}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return 0, 0, fmt.Errorf("rate limit %s: %w", key, err)
	}
	return res[0], time.Duration(res[1]) * time.Millisecond, nil
}

// Peek reports whether key is still within limit without recording a hit. It is for
// limits that count only failures: check before the attempt, Allow after a failure.
func (l *Limiter) Peek(ctx context.Context, key string, limit int) (ok bool, retryAfter time.Duration, err error) {
	if limit <= 0 {
		return true, 0, nil
	}
	pipe := l.rdb.Pipeline()
	get := pipe.Get(ctx, l.prefix+key)
	ttl := pipe.PTTL(ctx, l.prefix+key)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return false, 0, fmt.Errorf("rate limit peek %s: %w", key, err)
	}
	n, _ := get.Int64()
	if n >= int64(limit) {
		return false, max(ttl.Val(), time.Second), nil
	}
	return true, 0, nil
}

// Block shuts key for d (a lock-out); Blocked reports how long it is still shut.
func (l *Limiter) Block(ctx context.Context, key string, d time.Duration) error {
	if err := l.rdb.Set(ctx, l.prefix+key, 1, d).Err(); err != nil {
		return fmt.Errorf("rate limit block %s: %w", key, err)
	}
	return nil
}

// Blocked reports how long key stays shut by Block (0 when it is open).
func (l *Limiter) Blocked(ctx context.Context, key string) (time.Duration, error) {
	d, err := l.rdb.PTTL(ctx, l.prefix+key).Result()
	if err != nil {
		return 0, fmt.Errorf("rate limit blocked %s: %w", key, err)
	}
	return max(d, 0), nil
}

// Reset forgets the hits on key.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if err := l.rdb.Del(ctx, l.prefix+key).Err(); err != nil {
		return fmt.Errorf("rate limit reset %s: %w", key, err)
	}
	return nil
}
