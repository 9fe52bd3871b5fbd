package acctest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The helpers below inspect or steer the sandbox; against a real Unikorn they skip
// the test, so call them only where the check cannot be made otherwise.

// Stats returns the requests the sandbox has served since it started or since
// ResetStats, by route template.
func (e *Environment) Stats(t *testing.T) sandbox.Stats {
	t.Helper()
	e.SkipUnlessSandbox(t)

	stats, err := e.control.Stats(context.Background())
	require.NoError(t, err)

	return stats
}

// ResetStats zeroes the sandbox's request counters.
func (e *Environment) ResetStats(t *testing.T) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.ResetStats(context.Background()))
}

// AddFault makes the sandbox fail the requests the rule matches; it returns the rule's ID.
func (e *Environment) AddFault(t *testing.T, rule sandbox.FaultRule) string {
	t.Helper()
	e.SkipUnlessSandbox(t)

	id, err := e.control.AddFault(context.Background(), rule)
	require.NoError(t, err)

	return id
}

// ClearFaults removes every fault rule.
func (e *Environment) ClearFaults(t *testing.T) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.ClearFaults(context.Background()))
}

// UpdateSettings changes the sandbox's latency and delays while the test runs.
func (e *Environment) UpdateSettings(t *testing.T, settings sandbox.Settings) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.UpdateSettings(context.Background(), settings))
}

// Allocations returns every quota allocation in every project: what a leak check
// compares before and after.
func (e *Environment) Allocations(t *testing.T) []unikorn.Allocation {
	t.Helper()
	e.SkipUnlessSandbox(t)

	allocations, err := e.control.Allocations(context.Background())
	require.NoError(t, err)

	return allocations
}

// FailServer puts a server into provisioning status `error`, as a cloud failure would.
func (e *Environment) FailServer(t *testing.T, serverID string) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.FailServer(context.Background(), serverID))
}

// InstanceServers returns the servers behind an instance as they are: what a check
// that something is gone needs, where a list may still show what was just deleted.
func (e *Environment) InstanceServers(t *testing.T, instanceID string) []unikorn.Server {
	t.Helper()
	e.SkipUnlessSandbox(t)

	servers, err := e.control.InstanceServers(context.Background(), instanceID)
	require.NoError(t, err)

	return servers
}

// LoadBalancers returns every load balancer the sandbox holds, as it is: what a check
// that nothing is left needs, where a list may still show what was just deleted.
func (e *Environment) LoadBalancers(t *testing.T) []unikorn.LoadBalancer {
	t.Helper()
	e.SkipUnlessSandbox(t)

	loadBalancers, err := e.control.LoadBalancers(context.Background())
	require.NoError(t, err)

	return loadBalancers
}

// Servers lists the servers the test's token can see that match q; it works against
// a real Unikorn too.
func (e *Environment) Servers(t *testing.T, q unikorn.ServerQuery) []unikorn.Server {
	t.Helper()

	servers, err := e.Client.ListServers(context.Background(), q)
	require.NoError(t, err)

	return servers
}

// LeftBehind returns what users made that still exists in the sandbox, fixtures left
// out, as it is rather than through the read lag: what a check that a destroy left
// nothing behind compares with none.
func (e *Environment) LeftBehind(t *testing.T) []sandbox.Object {
	t.Helper()
	e.SkipUnlessSandbox(t)

	objects, err := e.control.Objects(context.Background(), false)
	require.NoError(t, err)

	return objects
}

// SetImageSource says what image imports find at a URI from now on, e.g. that the
// import fails.
func (e *Environment) SetImageSource(t *testing.T, source sandbox.ImageSource) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.SetImageSource(context.Background(), source))
}
