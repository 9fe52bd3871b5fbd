package compute_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const (
	serverListRoute = "/api/v2/servers"
	// serverRoute is what a wait alone reads: its instance's server.
	serverRoute = "/api/v2/servers/{serverID}"
)

// provisioning returns a new sandbox with an instance that takes delay to provision.
func provisioning(t *testing.T, delay string) (*env, *compute.Instance) {
	t.Helper()

	e := newEnv(t)
	require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{ProvisionDelay: delay}))

	instance, err := e.service.Create(t.Context(), standardSpec("web"))
	require.NoError(t, err)

	return e, instance
}

// A status read that fails says nothing about the change waited for: the wait reads
// again, so that one bad answer does not fail (and taint) a healthy instance.
func TestAWaitRidesOutFailedReads(t *testing.T) {
	t.Parallel()

	for _, status := range []int{http.StatusInternalServerError, http.StatusServiceUnavailable, 0} {
		e, instance := provisioning(t, "100ms")

		_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: status, Count: 3})
		require.NoError(t, err)

		ready, err := e.service.WaitReady(t.Context(), instance)
		require.NoError(t, err, "status %d", status)
		assert.True(t, ready.Ready())

		require.NoError(t, e.service.Delete(t.Context(), ready.Ref(), ready.AllocationID))
	}
}

// An outage longer than a few reads does not end a wait before its own time: the
// instance may be healthy behind it.
func TestAWaitRidesOutAnOutageUntilItsOwnTimeout(t *testing.T) {
	t.Parallel()

	e, instance := provisioning(t, "100ms")

	// Far more failed reads in a row than a fixed count would allow.
	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: http.StatusServiceUnavailable, Count: 30})
	require.NoError(t, err)

	ready, err := e.service.WaitReady(t.Context(), instance)
	require.NoError(t, err)
	assert.True(t, ready.Ready())
	assert.GreaterOrEqual(t, e.Sandbox.Stats().Routes["GET "+serverRoute], 30)
}

func TestAWaitOnAnAPIThatKeepsFailingEndsAtItsTimeoutNamingTheFailure(t *testing.T) {
	t.Parallel()

	e, instance := provisioning(t, "1h")

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: http.StatusInternalServerError})
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()

	_, err = e.service.WaitReady(ctx, instance)

	var wait *cloud.WaitError
	require.ErrorAs(t, err, &wait)
	assert.Error(t, ctx.Err(), "the wait lasted its whole time")
	assert.Contains(t, err.Error(), "500")
	assert.False(t, wait.Interrupted())
}

// A refusal is an answer: the wait does not read again.
func TestAWaitEndsAtARefusal(t *testing.T) {
	t.Parallel()

	e, instance := provisioning(t, "1h")

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: http.StatusForbidden, Count: 1})
	require.NoError(t, err)
	e.Sandbox.ResetStats()

	_, err = e.service.WaitReady(t.Context(), instance)
	require.True(t, unikorn.IsForbidden(err), "got %v", err)
	assert.Equal(t, 1, e.Sandbox.Stats().Routes["GET "+serverRoute])
}
