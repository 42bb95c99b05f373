package testenv

import (
	"sync"
	"time"
)

// Clock is a clock a test sets, safe to read from the services' goroutines.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads t until it is set.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time (a service's Now or SetClock takes it).
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
