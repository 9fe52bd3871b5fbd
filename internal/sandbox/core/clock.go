package core

import (
	"sync"
	"time"
)

// ManualClock is a clock that moves only when told, for Options.Now: lifecycles then
// advance exactly as far as a test or a benchmark says.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock is a clock standing at now.
func NewManualClock(now time.Time) *ManualClock {
	return &ManualClock{now: now}
}

// Now is the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()

	return c.now
}

// Advance moves the clock on.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()

	c.now = c.now.Add(d)
}

// Set puts the clock at now.
func (c *ManualClock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()

	c.now = now
}
