package cloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// WaitForNow checks at once, where WaitFor would first wait a whole interval, and
// treats that first check's failures as the wait treats its own: a read that failed
// without an answer is ridden out, anything else ends it at once.
func TestAWaitForNowChecksAtOnce(t *testing.T) {
	t.Parallel()

	const interval = 400 * time.Millisecond

	lost := &unikorn.APIError{StatusCode: http.StatusBadGateway, Method: http.MethodPut, Path: "/things/x"}
	refused := &unikorn.APIError{StatusCode: http.StatusForbidden, Method: http.MethodPut, Path: "/things/x"}
	answer := errors.New("the thing failed")
	throttled := &unikorn.APIError{StatusCode: http.StatusTooManyRequests, Method: http.MethodPut, Path: "/things/x"}
	unconfigured := fmt.Errorf("calling identity: %w", unikorn.ErrNoIdentityEndpoint)

	for name, test := range map[string]struct {
		first      func() (bool, error)
		wantChecks int
		want       error
	}{
		"done at once":                         {first: func() (bool, error) { return true, nil }, wantChecks: 1},
		"a lost answer is asked again":         {first: func() (bool, error) { return false, ReadFailed(lost) }, wantChecks: 2},
		"not yet is asked again":               {first: func() (bool, error) { return false, nil }, wantChecks: 2},
		"too many requests is asked again":     {first: func() (bool, error) { return false, ReadFailed(throttled) }, wantChecks: 2},
		"an unconfigured client ends it":       {first: func() (bool, error) { return false, ReadFailed(unconfigured) }, wantChecks: 1, want: unikorn.ErrNoIdentityEndpoint},
		"a lost answer is no done":             {first: func() (bool, error) { return true, ReadFailed(lost) }, wantChecks: 2},
		"a refused read ends it, unwrapped":    {first: func() (bool, error) { return false, ReadFailed(refused) }, wantChecks: 1, want: refused},
		"an answer ends it, as the check said": {first: func() (bool, error) { return false, answer }, wantChecks: 1, want: answer},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			synctest.Test(t, func(t *testing.T) {
				session := steadySession(interval, 0)
				start := time.Now()

				var checks []time.Duration

				err := session.WaitForNow(t.Context(), "a thing", func(context.Context) (bool, error) {
					checks = append(checks, time.Since(start))
					if len(checks) == 1 {
						return test.first()
					}

					return true, nil
				})

				if test.want != nil {
					require.ErrorIs(t, err, test.want)
					assert.NotErrorAs(t, err, new(*readError), "the wait's caller sees the failure itself")
				} else {
					require.NoError(t, err)
				}

				require.Len(t, checks, test.wantChecks)
				assert.Less(t, checks[0], interval/2, "the first check is at once")

				if test.wantChecks > 1 {
					assert.GreaterOrEqual(t, checks[1], interval, "the next is a wait's first, a whole interval in")
				}
			})
		})
	}
}

// TestAWaitForNowThatRunsOutSaysWhatItsFirstReadMet: a wait whose time runs out before
// its next read ends with the failure its first read met, as it would had a later read
// met it, so that the user learns why it never saw the change.
func TestAWaitForNowThatRunsOutSaysWhatItsFirstReadMet(t *testing.T) {
	t.Parallel()

	lost := &unikorn.APIError{StatusCode: http.StatusBadGateway, Method: http.MethodPut, Path: "/things/x"}
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	t.Cleanup(cancel)

	checks := 0
	err := steadySession(time.Second, 0).WaitForNow(ctx, "a thing", func(context.Context) (bool, error) {
		checks++

		return false, ReadFailed(lost)
	})

	var waitErr *WaitError
	require.ErrorAs(t, err, &waitErr)
	assert.Equal(t, 1, checks, "the time ran out before the wait's first tick")
	assert.Equal(t, lost, waitErr.LastFailure)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "the last read failed: ")
}
