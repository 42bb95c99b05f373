package jobs

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lead is a lease in Redis that one process of a fleet holds at a time, for the
// periodic work that one process does for all (the workers' receipt retries,
// counter folds, due schedules): with N workers polling for it, each poll would
// cost N times over for the same result — on the 3-pair test bed, a third of a
// worker's rise in CPU per recipient over one pair. The work it guards must stay
// safe to run twice (a lease can change hands mid-run); Lead only saves the
// repeats. A holder that dies frees it after TTL.
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

var takeLead = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
`)

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
	ok, err := takeLead.Run(ctx, l.RDB, []string{l.Key}, l.Token, ttl.Milliseconds()).Int()
	l.until, l.next = time.Time{}, now.Add(ttl/3)
	if err == nil && ok == 1 {
		l.until = now.Add(ttl) // measured from before the call: never later than Redis's
	}
	return !l.until.IsZero()
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
		_ = releaseLead.Run(ctx, l.RDB, []string{l.Key}, l.Token).Err()
	}
	l.until = time.Time{}
}

var releaseLead = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)
