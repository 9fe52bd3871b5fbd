package cloud

import (
	"context"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Unsettled reports whether a read that began at began may have been answered by a
// cache that had not yet caught up with a write, when the caches can hide that write
// no longer from settled on (UnseenSettled, SeenSettled). A cache answers with what it
// held at some moment of the request, so what counts is when the read began, not when
// its answer came: a slow answer to a read sent before settled is no later news. A
// read's 404, its list without the object, or its older version proves something
// only when the read was not unsettled.
func Unsettled(began, settled time.Time) bool {
	return began.Before(settled)
}

// PastReadLag runs read again while it answers 404, until the read lag has passed:
// region's and identity's caches may not show a recent write yet.
func (s *Session) PastReadLag(ctx context.Context, read func(context.Context) error) error {
	return s.PastReadLagUntil(ctx, s.UnseenSettled(), read)
}

// UnseenSettled is when a 404 for an object this process has not read becomes
// definite: once the read lag has passed from now, as nothing is known of its history.
func (s *Session) UnseenSettled() time.Time {
	return time.Now().Add(s.readLag)
}

// CreationMargin covers what lies between an object's creationTime and the moment the
// caches began to trail its creation: the time is kept to the whole second, and the
// cloud's clock may differ from ours by a little.
const CreationMargin = 2 * time.Second

// Creation is what is known of when an object came to be, to tell a definite 404 for
// it from one a cache may still give (SeenSettled). Either may be zero, unknown.
type Creation struct {
	// Time is the cloud's creationTime: whole seconds, on the cloud's clock.
	Time time.Time
	// Answered is when this provider saw the answer to its create, on this process's
	// clock: the object existed by then, whatever the cloud's clock says. For anything
	// the provider made it is the nearer bound of the two, needing no margin for
	// whole seconds or for the cloud's clock; whoever carries it from the process that
	// made the object must carry it by a clock that no one sets (private state keeps
	// it by the machine's time since boot, and forgets it on another machine or boot).
	Answered time.Time
}

// answered is Answered when it can be the creation of the object whose creationTime
// is Time: the answer cannot precede the creation by more than the margin covers.
// An object of the same ID made since (IDs derive from names) is younger than the
// answer, and must be settled by its own creationTime.
func (c Creation) answered() time.Time {
	if c.Time.IsZero() || !c.Time.After(c.Answered.Add(CreationMargin)) {
		return c.Answered
	}

	return time.Time{}
}

// SeenSettled is when a 404 for an object this process has read (and then deleted),
// created as created says, becomes definite. Caches hide only what was created within
// the read lag: a deleted object goes on showing its last version until the cache
// sees it go (a Kubernetes informer's lag, as internal/sandbox/core/lag.go models it). So
// a 404 for an object that a read has shown, and that existed more than the read lag
// ago, can only mean it is gone; for a younger one, the 404 is believed once it is
// that old, or the read lag has passed from now, whichever comes first. The read
// alone would suffice with one cache, but a cloud with several replicas may serve the
// next read from a cache that has not yet seen the creation.
func (s *Session) SeenSettled(created Creation) time.Time {
	settled := s.UnseenSettled()

	if !created.Time.IsZero() {
		settled = earliest(settled, created.Time.Add(s.readLag+CreationMargin))
	}

	if answered := created.answered(); !answered.IsZero() {
		settled = earliest(settled, answered.Add(s.readLag))
	}

	return settled
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}

	return a
}

// Miss is a 404 a read has already given, and when that read was sent.
type Miss struct {
	Err  error
	Sent time.Time
}

// PastReadLagAfter is PastReadLagUntil after a read that has already answered 404
// (miss): that answer is judged first, by when its read was sent, as one of
// PastReadLagUntil's own reads would be, not by when it is looked at.
func (s *Session) PastReadLagAfter(ctx context.Context, settled time.Time, miss Miss, read func(context.Context) error) error {
	if !Unsettled(miss.Sent, settled) {
		return miss.Err
	}

	if err := Sleep(ctx, min(s.poll.Max, time.Until(settled))); err != nil {
		return err
	}

	return s.PastReadLagUntil(ctx, settled, read)
}

// PastReadLagUntil runs read again while it answers 404, until a read that began at
// settled or later has answered.
func (s *Session) PastReadLagUntil(ctx context.Context, settled time.Time, read func(context.Context) error) error {
	for {
		began := time.Now()

		err := read(ctx)
		if !unikorn.IsNotFound(err) || !Unsettled(began, settled) {
			return err
		}

		if err := Sleep(ctx, min(s.poll.Max, time.Until(settled))); err != nil {
			return err
		}
	}
}
