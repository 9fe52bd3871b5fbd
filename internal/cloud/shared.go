package cloud

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// DefaultSharedTTL bounds how stale a shared read may be: what instances stand on (a
// network, its security groups, an SSH certificate authority, the catalogue) changes
// on a scale of days, and a reference it no longer satisfies is refused by the cloud
// anyway, after which the caller forgets what it read (see Session.Forget).
const DefaultSharedTTL = 5 * time.Minute

// WithSharedTTL replaces DefaultSharedTTL.
func WithSharedTTL(ttl time.Duration) Option {
	return func(s *Session) { s.shared.ttl = ttl }
}

// sharedReads keeps what many callers of one provider process read alike, by key:
// the checks of every instance of a run read the same network, security groups and
// SSH certificate authority. Concurrent misses for one key share a single request.
type sharedReads struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]sharedEntry
	flight  singleflight.Group
}

// sharedEntry is a value and when the read that produced it began; a forgotten entry
// holds no value, only the moment before which no read may be kept.
type sharedEntry struct {
	value     any
	at        time.Time
	forgotten bool
}

func newSharedReads() *sharedReads {
	return &sharedReads{ttl: DefaultSharedTTL, now: time.Now, entries: map[string]sharedEntry{}}
}

// Shared returns the value under key, as read by a request that began at notBefore or
// later, reading it with load when the session holds none (or an older or expired
// one). Concurrent callers share one load, which runs detached from any one caller's
// cancellation (the client's own timeouts bound it): a caller that gives up stops
// waiting, but does not fail the others. A failed load is not kept, so an object
// found missing is asked for again by the next caller: a miss is never remembered.
// It also returns when the read it answers with began.
func Shared[T any](ctx context.Context, s *Session, key string, notBefore time.Time, load func(context.Context) (T, error)) (T, time.Time, error) {
	var zero T

	for {
		entry, ok := s.shared.fresh(key, notBefore)
		if ok {
			return entry.value.(T), entry.at, nil //nolint:forcetypeassert // one key, one type
		}

		// No read that began before the object was forgotten may answer.
		if entry.forgotten && entry.at.After(notBefore) {
			notBefore = entry.at
		}

		entry, err := s.shared.load(ctx, key, notBefore, func(ctx context.Context) (any, error) { return load(ctx) })
		if err != nil {
			return zero, time.Time{}, err
		}

		// A load that began before notBefore was joined, not started: read again.
		if !entry.at.Before(notBefore) {
			return entry.value.(T), entry.at, nil //nolint:forcetypeassert // see above
		}
	}
}

// remember keeps value under key as a read that began at began showed it.
func (s *Session) remember(key string, value any, began time.Time) {
	s.shared.store(key, sharedEntry{value: value, at: began})
}

// Forget drops what the session holds under key, and keeps a read already on its way
// from bringing it back: this process is changing the object, or the cloud refused
// what it was read for.
func (s *Session) Forget(key string) {
	s.shared.store(key, sharedEntry{at: s.shared.now(), forgotten: true})
}

// kept returns what the session keeps under key, however old: for what never changes
// (an object's creation time), any read of it will do.
func (c *sharedReads) kept(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()

	entry, ok := c.entries[key]

	return entry.value, ok && !entry.forgotten
}

// fresh returns the entry under key when it may answer a read that must not begin
// before notBefore.
func (c *sharedReads) fresh(key string, notBefore time.Time) (sharedEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()

	entry, ok := c.entries[key]

	return entry, ok && !entry.forgotten && c.now().Sub(entry.at) < c.ttl && !entry.at.Before(notBefore)
}

// store keeps entry unless what is there came from a later moment: a read that began
// before a write (or a Forget) must not overwrite what the write left.
func (c *sharedReads) store(key string, entry sharedEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()

	if current, ok := c.entries[key]; ok && current.at.After(entry.at) {
		return
	}

	c.entries[key] = entry
}

// load runs load once for every caller that asks while it runs, unless a load that
// ended just before it began left what it needs.
func (c *sharedReads) load(ctx context.Context, key string, notBefore time.Time, load func(context.Context) (any, error)) (sharedEntry, error) {
	shared := context.WithoutCancel(ctx)

	results := c.flight.DoChan(key, func() (any, error) {
		if entry, ok := c.fresh(key, notBefore); ok {
			return entry, nil
		}

		began := c.now()

		value, err := load(shared)
		if err != nil {
			return nil, err
		}

		entry := sharedEntry{value: value, at: began}
		c.store(key, entry)

		return entry, nil
	})

	select {
	case <-ctx.Done():
		return sharedEntry{}, context.Cause(ctx)
	case result := <-results:
		if result.Err != nil {
			return sharedEntry{}, result.Err
		}

		return result.Val.(sharedEntry), nil //nolint:forcetypeassert // stored above
	}
}
