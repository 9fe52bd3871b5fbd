package cloud

import (
	"context"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// SendUpdate sends an update, a PUT of the whole object, until the cloud takes it.
// Such a PUT replaces what it names, so sending it again is safe whatever an earlier
// one did. Region and identity patch under an optimistic lock that carries the version
// their cache read, so an update that races the object's controller loses the lock
// and writes nothing: identity and region's load balancers answer 409, region's other
// kinds 500 (an error it does not translate). A conflict is sent again on the next
// tick of a wait, as is a failure that is no answer (a 5xx, a dropped connection); a
// refusal ends it, and the wait's time bounds it.
func (s *Session) SendUpdate(ctx context.Context, what string, send func(context.Context) error) error {
	return s.WaitForNow(ctx, what+" to take the update", func(ctx context.Context) (bool, error) {
		err := send(ctx)

		switch {
		case err == nil:
			return true, nil
		case unikorn.IsConflict(err):
			return false, nil
		}

		return false, ReadFailed(err)
	})
}
