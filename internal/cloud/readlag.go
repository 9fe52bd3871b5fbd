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

// SeenSettled is when a 404 for an object this process has read (and then deleted),
// created at created, becomes definite. Caches hide only what was created within the
// read lag: a deleted object goes on showing its last version until the cache sees it
// go (a Kubernetes informer's lag, as internal/sandbox/lag.go models it). So a 404 for
// an object that a read has shown, and whose creation lies more than the read lag in
// the past, can only mean it is gone; for a younger one, the 404 is believed once its
// creation is that old, or the read lag has passed from now, whichever comes first.
// The read alone would suffice with one cache, but a cloud with several replicas may
// serve the next read from a cache that has not yet seen the creation.
func (s *Session) SeenSettled(created time.Time) time.Time {
	settled := s.UnseenSettled()
	if created.IsZero() {
		return settled
	}

	if byCreation := created.Add(s.readLag + CreationMargin); byCreation.Before(settled) {
		return byCreation
	}

	return settled
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
