package compute_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// computeOver returns the compute back end as an ordinary project user has it: the
// user's token, compute's endpoint and no identity endpoint, its requests going
// through transport (the default one when nil).
func (e *env) computeOver(t *testing.T, transport http.RoundTripper) *compute.ComputeInstances {
	t.Helper()

	return compute.NewComputeInstances(compute.NewService(e.NewSession(e.NewComputeClient(t, sandbox.DefaultToken, transport), testReadLag)))
}

// readyOn creates an instance named name through instances and waits until it is ready.
func readyOn(t *testing.T, instances compute.Instances, name string) *compute.Instance {
	t.Helper()

	created, err := instances.Create(t.Context(), standardSpec(name))
	require.NoError(t, err)

	ready, err := instances.WaitReady(t.Context(), created)
	require.NoError(t, err)

	return ready
}

// serviceRequests counts the requests the caller sent to the service APIs a user may
// not call: region's servers and identity's allocations.
func (e *env) serviceRequests() int {
	count := 0

	for route, n := range e.Sandbox.Stats().Routes {
		if strings.Contains(route, " /api/v2/servers") || strings.Contains(route, "/allocations") {
			count += n
		}
	}

	return count
}

// An ordinary user's instance, from create to delete, through compute alone: the
// user's token never reaches a service API, compute's saga charges and releases the
// quota, and nothing is left behind.
func TestComputeInstanceLifecycleAsAUser(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := e.computeOver(t, nil)
	ctx := t.Context()

	spec := standardSpec("web")
	spec.Tags = map[string]string{"team": "web"}

	location, err := instances.Validate(ctx, spec)
	require.NoError(t, err)
	assert.Equal(t, sandbox.RegionID, location.RegionID)

	created, err := instances.Create(ctx, spec)
	require.NoError(t, err)
	assert.Empty(t, created.Handle, "compute keeps the quota itself")

	ready, err := instances.WaitReady(ctx, created)
	require.NoError(t, err)
	assert.True(t, ready.Ready())
	assert.NotEmpty(t, ready.PrivateIP)
	assert.Len(t, e.allocationsFor(ready.ID), 1, "compute charged the quota")

	looked, err := instances.Lookup(ctx, compute.Ref{NetworkID: sandbox.NetworkDefaultID}, "web")
	require.NoError(t, err)
	assert.Equal(t, ready.ID, looked.ID)

	spec.Tags = map[string]string{"team": "platform"}
	spec.Description = "moved"
	updated, err := instances.Update(ctx, ready.Ref(), spec)
	require.NoError(t, err)
	assert.Equal(t, spec.Tags, updated.Spec.Tags)
	assert.Equal(t, "moved", updated.Spec.Description)

	listing, err := instances.List(ctx, compute.ListQuery{Tags: map[string]string{"team": "platform"}})
	require.NoError(t, err)
	require.Len(t, listing.Instances, 1)
	assert.Equal(t, ready.ID, listing.Instances[0].ID)

	stopped, err := instances.Power(ctx, ready.Ref(), compute.PowerStop, func(string) {})
	require.NoError(t, err)
	assert.Equal(t, compute.PowerStopped, stopped.PowerState)

	_, err = instances.Power(ctx, ready.Ref(), compute.PowerStart, func(string) {})
	require.NoError(t, err)

	image, err := instances.Snapshot(ctx, ready.Ref(), compute.SnapshotRequest{Name: "web-backup"}, func(string) {})
	require.NoError(t, err)
	assert.Equal(t, unikorn.ImageReady, image.Status)

	key, err := instances.SSHKey(ctx, ready.Ref())
	require.NoError(t, err)
	assert.Contains(t, key, "PRIVATE KEY")

	require.NoError(t, instances.Delete(ctx, ready, ""))

	assert.Zero(t, e.serviceRequests(), "a user's token never reaches a service API")
	assert.Empty(t, e.servers(t), "compute deleted the server")
	assert.Empty(t, e.allocationsFor(ready.ID), "and released the quota")

	_, err = instances.Get(ctx, ready.Ref())
	require.ErrorIs(t, err, compute.ErrNotFound)
}

// Terraform refreshes an instance before it destroys it, so state holds its flavor and
// creation time: the delete goes out at once, and only the wait for it reads.
func TestComputeDeleteOfAnInstanceSeenBeforeReadsOnlyToWait(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := e.computeOver(t, nil)

	ready := readyOn(t, instances, "web")

	e.Sandbox.ResetStats()

	seen := compute.Seen(ready.Ref(), ready.Spec.FlavorID, ready.CreationTime)
	require.NoError(t, instances.Delete(t.Context(), seen, ""))

	routes := e.Sandbox.Stats().Routes
	assert.Equal(t, 1, routes["DELETE /compute/api/v2/instances/{instanceID}"])
	assert.Zero(t, routes["GET /compute/api/v2/instances"], "no list looks the instance up before its delete")
	assert.Positive(t, routes["GET /compute/api/v2/instances/{instanceID}"], "the wait reads it until it is gone")

	_, err := instances.Get(t.Context(), ready.Ref())
	require.ErrorIs(t, err, compute.ErrNotFound)
	assert.Empty(t, e.allocationsFor(ready.ID), "compute released the quota")
}

// A deletion waited for alone reads its instance by ID: compute answers one instance
// as well as a list. The 404 of such a read is a direct read's answer, so for an
// instance older than the read lag it ends the wait, with no second read to confirm it.
func TestComputeDeletionSeenGoneByItsOwnReadAsksOnce(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ready := readyOn(t, e.computeOver(t, nil), "web")

	reads := &notFoundReads{next: http.DefaultTransport, path: sandbox.ComputePrefix + "/api/v2/instances/"}
	old := compute.Seen(ready.Ref(), ready.Spec.FlavorID, ready.CreationTime.Add(-time.Hour))
	require.NoError(t, e.computeOver(t, reads).Delete(t.Context(), old, ""))

	assert.Equal(t, 1, reads.count(), "one 404 says an old instance is gone")

	_, err := e.computeOver(t, nil).Get(t.Context(), ready.Ref())
	require.ErrorIs(t, err, compute.ErrNotFound)
}

// Deletions poll through the network's shared list, one request per tick for all of
// them, while it shows the instances; each reads itself only to confirm a miss. Three
// deletions at once cost far fewer reads than three deletions one after another.
func TestComputeDeletionsPollThroughTheSharedList(t *testing.T) {
	t.Parallel()

	inBubble(t, func(t *testing.T, e *env) {
		instances := e.computeOver(t, nil)

		names := []string{"web-1", "web-2", "web-3", "web-4"}
		seen := make([]*compute.Instance, len(names))

		for i, name := range names {
			ready := readyOn(t, instances, name)
			seen[i] = compute.Seen(ready.Ref(), ready.Spec.FlavorID, ready.CreationTime)
		}

		// Long enough for tens of poll ticks.
		require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{DeprovisionDelay: "300ms"}))

		reads := func() int {
			routes := e.Sandbox.Stats().Routes

			return routes["GET /compute/api/v2/instances"] + routes["GET /compute/api/v2/instances/{instanceID}"]
		}

		// Each back end below is new, so that neither has learnt when a deletion is done.
		e.Sandbox.ResetStats()
		require.NoError(t, e.computeOver(t, nil).Delete(t.Context(), seen[0], ""))

		alone := reads()

		e.Sandbox.ResetStats()

		together := e.computeOver(t, nil)

		var deletions sync.WaitGroup

		for _, instance := range seen[1:] {
			deletions.Go(func() { assert.NoError(t, together.Delete(t.Context(), instance, "")) })
		}

		deletions.Wait()

		assert.Positive(t, e.Sandbox.Stats().Routes["GET /compute/api/v2/instances"], "the ticks list the network")
		assert.Less(t, reads(), 2*alone, "three deletions share their ticks' reads (one alone read %d times)", alone)

		for _, instance := range seen {
			_, err := instances.Get(t.Context(), instance.Ref())
			require.ErrorIs(t, err, compute.ErrNotFound)
		}
	})
}

// The delete of an instance already gone answers 404. For an instance older than the
// read lag that is the end of it; for a younger one, whose 404 a cache may have given,
// the instance is read until its 404 is believed.
func TestComputeDeleteOfAnInstanceAlreadyGone(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := e.computeOver(t, nil)

	ready := readyOn(t, instances, "web")
	require.NoError(t, instances.Delete(t.Context(), ready, ""))

	e.Sandbox.ResetStats()
	require.NoError(t, instances.Delete(t.Context(), compute.Seen(ready.Ref(), ready.Spec.FlavorID, time.Now().Add(-time.Hour)), ""))
	assert.Equal(t, 1, e.Sandbox.Stats().Total, "an old instance's 404 is believed at once")

	e.Sandbox.ResetStats()
	started := time.Now()
	require.NoError(t, instances.Delete(t.Context(), compute.Seen(ready.Ref(), ready.Spec.FlavorID, time.Now()), ""))
	assert.Greater(t, e.Sandbox.Stats().Total, 1, "a young instance's 404 is checked by reads")
	assert.GreaterOrEqual(t, time.Since(started), testReadLag, "until the read lag has passed")
}

// The answer to the create is lost: the instance is looked for by its derived ID, past
// a read that misses it, and adopted; the create is never sent again.
func TestComputeLostCreateAnswerIsAdopted(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost, losePath: sandbox.ComputePrefix + "/api/v2/instances"}
	instances := e.computeOver(t, network)

	created, err := instances.Create(t.Context(), standardSpec("web"))
	require.NoError(t, err)

	_, err = instances.WaitReady(t.Context(), created)
	require.NoError(t, err)
	assert.Len(t, e.servers(t), 1)
	assert.Len(t, e.allocationsFor(created.ID), 1)
	assert.Equal(t, 1, e.Sandbox.Stats().Routes["POST "+sandbox.ComputePrefix+"/api/v2/instances"], "a create is never repeated")
}

// The create's answer is lost and the instance cannot be read back either: its fate
// is unknown, so it is returned to be tracked, with an error that says so.
func TestComputeCreateOfUnknownFateIsReturnedToBeTracked(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost, losePath: sandbox.ComputePrefix + "/api/v2/instances"}
	instances := e.computeOver(t, network)

	// Every read of the instance after the lost answer is refused.
	id, err := unikorn.DeriveServerID(sandbox.NetworkDefaultID, "web")
	require.NoError(t, err)
	for _, route := range []string{"/api/v2/instances/{instanceID}", "/api/v2/instances"} {
		_, err = e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: sandbox.ComputePrefix + route, Status: http.StatusBadRequest})
		require.NoError(t, err)
	}

	created, err := instances.Create(t.Context(), standardSpec("web"))

	var compensation *compute.CompensationError
	require.ErrorAs(t, err, &compensation)
	require.NotNil(t, created, "an instance that may exist is tracked")
	assert.Equal(t, id, created.ID)
	assert.Equal(t, sandbox.NetworkDefaultID, created.Spec.NetworkID)
}

// A lost update answer whose update landed is waited for, not reported.
func TestComputeLostUpdateAnswerIsWaitedFor(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := e.computeOver(t, nil)
	ready := readyOn(t, instances, "web")

	network := &harshNetwork{lose: cloudtest.Retry.MaxAttempts, loseMethod: http.MethodPut, losePath: sandbox.ComputePrefix + "/api/v2/instances/"}
	lossy := e.computeOver(t, network)

	spec := standardSpec("web")
	spec.Description = "landed"
	updated, err := lossy.Update(t.Context(), ready.Ref(), spec)
	require.NoError(t, err)
	assert.Equal(t, "landed", updated.Spec.Description)
}

// Compute refuses an instance over quota with 403: nothing is created, and the error
// is the quota's.
func TestComputeQuotaRefusalCreatesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	e.setQuota(t, compute.QuotaServers, 0)

	_, err := e.computeOver(t, nil).Create(t.Context(), standardSpec("web"))

	var quota *compute.QuotaError
	require.ErrorAs(t, err, &quota)
	assert.False(t, quota.Charged)
	assert.Empty(t, e.servers(t))
	assert.Zero(t, e.instanceAllocations())
}

// A name taken on the network is the instance whose ID it derives.
func TestComputeDuplicateNameNamesTheExistingInstance(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := e.computeOver(t, nil)
	created, err := instances.Create(t.Context(), standardSpec("web"))
	require.NoError(t, err)

	_, err = instances.Create(t.Context(), standardSpec("web"))

	var taken *compute.NameTakenError
	require.ErrorAs(t, err, &taken)
	assert.Equal(t, created.ID, taken.InstanceID)
	assert.Len(t, e.allocationsFor(created.ID), 1, "the refused create charged nothing")
	assert.False(t, errors.Is(err, compute.ErrNotFound))
}
