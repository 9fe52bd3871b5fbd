package cloudtest

import (
	"sync"
	"time"
)

// Clock is a clock a test steps by hand (cloud.WithClock(clock.Now)): what a read's
// age decides is then shown exactly at its bounds, however slowly the machine runs the
// test, and without waiting for the read to grow old.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads the machine's time until stepped.
func NewClock() *Clock {
	return &Clock{now: time.Now()}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()

	return c.now
}

// Step moves the clock on by d.
func (c *Clock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()

	c.now = c.now.Add(d)
}
