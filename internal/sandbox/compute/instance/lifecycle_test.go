package instance_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestDeleteRemovesTheServerThenReleasesTheAllocation(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	id := h.running(t)

	// While region will not delete the server, the instance and its allocation stay.
	_, err := h.sb.AddFault(sandbox.FaultRule{Method: http.MethodDelete, Route: "/api/v2/servers/{serverID}", Status: http.StatusInternalServerError})
	require.NoError(t, err)

	require.NoError(t, h.user.DeleteInstance(ctx, id))
	require.NoError(t, h.user.DeleteInstance(ctx, id), "deleting again is 202 again")

	_, err = h.user.UpdateInstance(ctx, id, unikorn.InstanceUpdate{Metadata: unikorn.WriteMetadata{Name: "web"}, Spec: newCreate("web").Spec.InstanceSpec})
	require.True(t, unikorn.IsBadRequest(err), "got %v", err)

	in, err := h.user.GetInstance(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, in.Metadata.ProvisioningStatus)
	assert.NotNil(t, in.Metadata.DeletionTime)
	assert.Len(t, h.backing(t, id), 1)
	assert.Equal(t, 1, h.allocationsFor(id))

	// Once region says the server is gone, the allocation goes and so does the instance.
	h.sb.ClearFaults()

	for range 3 {
		if _, err = h.user.GetInstance(ctx, id); err != nil {
			break
		}
	}

	require.True(t, unikorn.IsNotFound(err), "got %v", err)
	assert.Empty(t, h.backing(t, id))
	assert.Zero(t, h.allocationsFor(id))
}

func TestServerDeletedBehindComputesBackIsRecreated(t *testing.T) {
	inBubble(t, func(t *testing.T, h *harness) {
		ctx := t.Context()

		id := h.running(t)

		// The new server takes a second to provision, on the bubble's clock: the read
		// below comes within it, however the controller's passes and the read fall.
		require.NoError(t, h.sb.UpdateSettings(sandbox.Settings{ProvisionDelay: "1s"}))

		servers := h.backing(t, id)
		require.Len(t, servers, 1)
		require.NoError(t, h.service.DeleteServer(ctx, servers[0].Metadata.ID))

		in, err := h.user.GetInstance(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, unikorn.ProvisioningProvisioning, in.Metadata.ProvisioningStatus)

		time.Sleep(time.Second)
		h.settle(t, id)
		assert.Len(t, h.backing(t, id), 1)
		assert.Equal(t, 2, h.sb.Stats().Internal["POST /api/v2/servers"])
	})
}

func TestVerbs(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	id := h.running(t)

	require.NoError(t, h.user.StopInstance(ctx, id))
	in, err := h.user.GetInstance(ctx, id)
	require.NoError(t, err)
	assert.Contains(t, []string{unikorn.PowerStopping, unikorn.PowerStopped}, in.Status.PowerState)

	// Region's refusal (it is already stopped or stopping) is compute's 500.
	_, err = h.sb.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/servers/{serverID}/stop", Status: http.StatusBadRequest, Count: 1})
	require.NoError(t, err)
	requireServerError(t, h.user.StopInstance(ctx, id))

	image, err := h.user.SnapshotInstance(ctx, id, unikorn.InstanceSnapshotCreate{Metadata: unikorn.WriteMetadata{
		Name: "snap", Tags: unikorn.Tags{{Name: "compute.unikorn-cloud.org:instance-id", Value: "forged"}},
	}})
	require.NoError(t, err)
	provenance, _ := image.Metadata.Tags.Get("compute.unikorn-cloud.org:instance-id")
	assert.Equal(t, id, provenance, "compute alone says which instance an image came from")

	// A second server carrying the reserved tag leaves compute unable to choose.
	_, err = h.service.CreateServer(ctx, unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: "impostor", Tags: unikorn.Tags{{Name: instance.InstanceTag, Value: id}}},
		Spec:     unikorn.ServerCreateSpec{ServerSpec: unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID}, NetworkID: sandbox.NetworkDefaultID},
	})
	require.NoError(t, err)
	requireServerError(t, h.user.StartInstance(ctx, id))

	_, err = h.user.GetInstanceSSHKey(ctx, id)
	requireServerError(t, err)
}

func TestVerbWithoutServerIs500(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	// Region refuses every server create, so the instance never gets one.
	_, err := h.sb.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Status: http.StatusInternalServerError})
	require.NoError(t, err)

	created, err := h.user.CreateInstance(ctx, newCreate("web"))
	require.NoError(t, err)

	requireServerError(t, h.user.RebootInstance(ctx, created.Metadata.ID, true))
	assert.Empty(t, h.backing(t, created.Metadata.ID))
}

func requireServerError(t *testing.T, err error) {
	t.Helper()

	var apiErr *unikorn.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	assert.Equal(t, unikorn.ErrorServerError, apiErr.Code)
}

func TestFaultRulesReachComputeRoutes(t *testing.T) {
	h := newHarness(t)

	_, err := h.sb.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: sandbox.ComputePrefix + "/api/v2/instances", Status: http.StatusServiceUnavailable})
	require.NoError(t, err)

	_, err = h.user.CreateInstance(t.Context(), newCreate("web"))

	var apiErr *unikorn.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.Zero(t, h.computeAllocations())
}

func TestCatalogueAndVersion(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	version, err := h.user.GetComputeVersion(ctx)
	require.NoError(t, err)
	assert.Equal(t, instance.Version, version.Version)

	regions, err := h.user.ListComputeRegions(ctx, sandbox.OrganizationID)
	require.NoError(t, err)

	for _, r := range regions {
		assert.NotEqual(t, "kubernetes", r.Spec.Type)
	}

	// Compute offers the region's images less its Kubernetes node images, which region
	// lists to the same user.
	images, err := h.user.ListComputeImages(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	assert.Equal(t, []string{"debian-12-amd64", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64", "ubuntu-24.04-metal"},
		sandboxtest.ImageNames(images))

	regionImages, err := h.user.ListImages(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	assert.Subset(t, sandboxtest.ImageNames(regionImages),
		[]string{"ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-kubernetes-v1.31.0-arm64"})

	_, err = h.client(sandbox.OutsiderToken).ListComputeFlavors(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.True(t, unikorn.IsForbidden(err), "got %v", err)
}

func TestInstancesSurviveARestart(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")

	first := newHarnessAt(t, statePath)
	created, err := first.user.CreateInstance(t.Context(), newCreate("web"))
	require.NoError(t, err)
	first.settle(t, created.Metadata.ID)
	require.NoError(t, first.sb.Close())

	second := newHarnessAt(t, statePath)
	in := second.settle(t, created.Metadata.ID)
	assert.Equal(t, "web", in.Metadata.Name)
	assert.Len(t, second.backing(t, created.Metadata.ID), 1, "the restarted controller finds the server it made")
	assert.Zero(t, second.sb.Stats().Internal["POST /api/v2/servers"])
}

func TestAllocationRefusedCreatesNothing(t *testing.T) {
	h := newHarness(t)

	_, err := h.sb.AddFault(sandbox.FaultRule{
		Method: http.MethodPost, Route: "/api/v1/organizations/{organizationID}/projects/{projectID}/allocations", Status: http.StatusInternalServerError,
	})
	require.NoError(t, err)

	_, err = h.user.CreateInstance(t.Context(), newCreate("web"))
	requireServerError(t, err)

	listed, err := h.user.ListInstances(t.Context(), unikorn.InstanceQuery{})
	require.NoError(t, err)
	assert.Empty(t, listed)
	assert.Zero(t, h.sb.Stats().Internal["POST /api/v2/servers"])
}

func TestServerChangedBehindComputesBackIsPutBack(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	id := h.running(t)
	server := h.backing(t, id)[0]

	_, err := h.service.UpdateServer(ctx, server.Metadata.ID, unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: server.Metadata.Name, Tags: unikorn.Tags{{Name: instance.InstanceTag, Value: id}, {Name: "team", Value: "rogue"}}},
		Spec:     server.Spec,
	})
	require.NoError(t, err)

	h.settle(t, id)
	assert.Equal(t, "web", tagOf(h.backing(t, id)[0], "team"))
}

// Compute's handlers read its instances through an informer cache, as region's read
// servers: with read lag on, a read just after a write may miss it.
func TestReadsTrailComputesOwnWrites(t *testing.T) {
	inBubble(t, func(t *testing.T, h *harness) {
		id := h.running(t)

		// An hour of lag, seeded: every write below lags for far longer than the test.
		seed := uint64(7)
		require.NoError(t, h.sb.UpdateSettings(sandbox.Settings{ReadLag: "1h", Seed: &seed}))

		created, err := h.user.CreateInstance(t.Context(), newCreate("db"))
		require.NoError(t, err)

		_, err = h.user.GetInstance(t.Context(), created.Metadata.ID)
		assert.True(t, unikorn.IsNotFound(err), "a read just after the create misses the instance: %v", err)

		listed, err := h.user.ListInstances(t.Context(), unikorn.InstanceQuery{})
		require.NoError(t, err)
		require.Len(t, listed, 1, "the list misses it too")
		assert.Equal(t, id, listed[0].Metadata.ID)

		// The create acted on the records, not the cache: the name is taken.
		_, err = h.user.CreateInstance(t.Context(), newCreate("db"))
		assert.True(t, unikorn.IsConflict(err), "a second create of the name is refused: %v", err)

		require.NoError(t, h.user.DeleteInstance(t.Context(), id))

		seen, err := h.user.GetInstance(t.Context(), id)
		require.NoError(t, err)
		assert.Nil(t, seen.Metadata.DeletionTime, "a read just after the delete shows the instance as it was")
		assert.Equal(t, unikorn.ProvisioningProvisioned, seen.Metadata.ProvisioningStatus)

		// The delete went ahead all the same: the hidden server is going.
		require.Eventually(t, func() bool {
			servers, err := h.sb.InstanceServers(id)

			return err == nil && len(servers) == 0
		}, 5*time.Second, 10*time.Millisecond, "compute deletes the server behind the instance it was told to delete")
	})
}

// The controller's pass at the start of a read changes the instance (its server came
// up, say); the cache trails that change too, so the read sees no more than the next
// one does: an instance read as provisioned never reads as provisioning again.
func TestReadsThroughTheCacheNeverGoBack(t *testing.T) {
	rank := map[string]int{
		unikorn.ProvisioningPending:      1,
		unikorn.ProvisioningProvisioning: 2,
		unikorn.ProvisioningProvisioned:  3,
	}

	synctest.Test(t, func(t *testing.T) {
		for seed := uint64(1); seed <= 4; seed++ {
			h := newBubbleHarness(t)
			require.NoError(t, h.sb.UpdateSettings(sandbox.Settings{ReadLag: "400ms", ProvisionDelay: "50ms", Seed: &seed}))

			created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
			require.NoError(t, err)

			seen := 0

			for start := time.Now(); time.Since(start) < time.Second; time.Sleep(5 * time.Millisecond) {
				in, err := h.user.GetInstance(t.Context(), created.Metadata.ID)
				if unikorn.IsNotFound(err) {
					require.Zero(t, seen, "seed %d: an instance read once is not missed again", seed)

					continue
				}

				require.NoError(t, err)

				now := rank[in.Metadata.ProvisioningStatus]
				require.GreaterOrEqual(t, now, seen, "seed %d: read as %s after a later status", seed, in.Metadata.ProvisioningStatus)
				seen = now
			}

			assert.Equal(t, rank[unikorn.ProvisioningProvisioned], seen, "seed %d: provisioned within the lag and the delay", seed)
		}
	})
}
