package cloud

import (
	"context"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Resend sends a write that carries the whole of what it asks (a PUT of a whole
// spec, safe to repeat) until the cloud takes it, refuses it, or the read lag has
// passed. A service that patches the version its cache holds conflicts while the cache
// trails the object (region's file storage and the Kubernetes service's clusters
// answer 500 then, region's load balancers 409), so a failure that is no refusal is
// sent again until the cache has caught up. It returns the last failure, for Landed
// to judge when it is no refusal.
func (s *Session) Resend(ctx context.Context, send func(context.Context) error) error {
	patient := s.UnseenSettled()

	for {
		began := time.Now()

		err := send(ctx)
		if err == nil || (IsClientError(err) && !unikorn.IsConflict(err)) || !Unsettled(began, patient) {
			return err
		}

		if Sleep(ctx, s.poll.Max) != nil {
			return err
		}
	}
}

// Landed reports whether a write whose answer was lost took effect: whether a read
// shows it (shows reports so) before the read lag has passed. A failed read shows
// nothing.
func (s *Session) Landed(ctx context.Context, shows func(context.Context) bool) bool {
	settled := s.UnseenSettled()

	for {
		began := time.Now()

		if shows(ctx) {
			return true
		}

		if !Unsettled(began, settled) || Sleep(ctx, min(s.poll.Max, time.Until(settled))) != nil {
			return false
		}
	}
}
