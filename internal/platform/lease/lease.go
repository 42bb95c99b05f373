// Package lease holds leases in Redis: a key that one process holds at a time,
// with its token as the value and a time to live, so that a holder that dies
// frees it by itself. The gateways' bind leases, the rate limiter's slots and the
// workers' Lead share these scripts.
package lease

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lead is a lease that one process of a fleet holds at a time, for the periodic
// work that one process does for all (the workers' sweeper, receipt retries,
// counter folds, due schedules): with N workers polling for it, every poll is
// paid N times for the same result (the 3-pair test bed's idle cost fell from
// 0.15–0.17 to 0.09–0.11 cores with it). The work it guards must stay safe to run
// twice, since a lease can change hands mid-run; Lead only saves the repeats.
type Lead struct {
	RDB   redis.UniversalClient
	Key   string
	Token string        // this process's name, unique in the fleet
	TTL   time.Duration // DefaultLeadTTL when 0

	mu    sync.Mutex
	until time.Time // the lease is ours until then; zero when it is not
	next  time.Time // when a follower asks again
}

// DefaultLeadTTL is a lease's life: a dead lead's work waits at most this long.
const DefaultLeadTTL = 3 * time.Second

var keep = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
`)

// Keep renews key for ttl if token holds it, or takes it if nobody does (a lease
// lost with a Redis restart is taken back by its holder); false when another
// token holds it.
func Keep(ctx context.Context, rdb redis.Scripter, key, token string, ttl time.Duration) (bool, error) {
	n, err := keep.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Int()
	return n == 1, err
}

var drop = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// Drop deletes key if token holds it.
func Drop(ctx context.Context, rdb redis.Scripter, key, token string) error {
	return drop.Run(ctx, rdb, []string{key}, token).Err()
}

// Held reports whether this process holds the lease now, taking or renewing it
// in one round trip when a third of its life is left (a follower asks again
// after a third of TTL). A Redis error counts as not held; a nil Lead (no fleet)
// is always held.
func (l *Lead) Held(ctx context.Context) bool {
	if l == nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ttl := l.TTL
	if ttl <= 0 {
		ttl = DefaultLeadTTL
	}
	now := time.Now()
	if now.Before(l.until.Add(-ttl / 3)) {
		return true
	}
	if now.Before(l.next) {
		return false
	}
	ok, err := Keep(ctx, l.RDB, l.Key, l.Token, ttl)
	l.until, l.next = time.Time{}, now.Add(ttl/3)
	if err == nil && ok {
		l.until = now.Add(ttl) // measured from before the call: never later than Redis's
	}
	return !l.until.IsZero()
}

// FollowerPace is how many times longer than the lead a follower waits between
// two polls of a shared outbox that found nothing (Pace).
const FollowerPace = 10

// Pace is the wait after an empty poll of work any process of the fleet may take
// (the webhook outbox, the secretaries' replies): every on the lead, FollowerPace
// times every on the others. The lead keeps the latency of an idle fleet's first
// item whatever the fleet's size, and the followers' polls stop growing with it;
// a follower that finds work keeps taking it at once, so busy work still spreads.
// A nil Lead paces every.
func (l *Lead) Pace(ctx context.Context, every time.Duration) time.Duration {
	if l.Held(ctx) {
		return every
	}
	return every * FollowerPace
}

// Release gives the lease up if this process holds it (on a clean stop), so the
// next lead need not wait for TTL.
func (l *Lead) Release(ctx context.Context) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.until.IsZero() {
		_ = Drop(ctx, l.RDB, l.Key, l.Token)
	}
	l.until = time.Time{}
}
