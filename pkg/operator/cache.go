package operator

import (
	"context"
	"sync"
	"time"
)

// DefaultCacheTTL is how long a Cache keeps an account's table: a change to the
// prefixes or tariffs reaches every send accepted after at most this long.
const DefaultCacheTTL = 5 * time.Second

// cacheMax bounds the accounts a Cache holds; past it the cache starts over.
const cacheMax = 10_000

// Cache keeps each account's Table for a short time, so that accepting a send does
// not read the prefix and tariff tables again every time. Tables are read-only
// once loaded and shared between goroutines. The zero value is not usable: call
// NewCache. Keep one per service (per database).
type Cache struct {
	ttl     time.Duration
	now     func() time.Time
	mu      sync.Mutex
	entries map[int64]cached
}

type cached struct {
	tbl *Table
	at  time.Time
}

// NewCache returns a cache keeping tables for ttl (DefaultCacheTTL when <= 0).
func NewCache(ttl time.Duration) *Cache {
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	return &Cache{ttl: ttl, now: time.Now, entries: map[int64]cached{}}
}

// Load returns the account's table, read through q (Load) when the cached one is
// missing or older than the TTL. Concurrent misses may each read the database;
// the last one read is kept.
func (c *Cache) Load(ctx context.Context, q Querier, accountID int64) (*Table, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[accountID]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < c.ttl {
		return e.tbl, nil
	}
	tbl, err := Load(ctx, q, accountID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.entries) >= cacheMax {
		clear(c.entries)
	}
	c.entries[accountID] = cached{tbl: tbl, at: now}
	c.mu.Unlock()
	return tbl, nil
}

// Forget drops every cached table: the next Load of each account reads the
// database (after a change made through this process, for example).
func (c *Cache) Forget() {
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}
