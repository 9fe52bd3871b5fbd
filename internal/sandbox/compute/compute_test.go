package compute_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

type harness struct {
	sb      *sandbox.Sandbox
	user    *unikorn.Client
	service *unikorn.Client
	client  func(token string) *unikorn.Client
}

// newHarness starts a sandbox whose transitions settle on the next request, so each
// request of a test sees the controller's previous step done.
func newHarness(t *testing.T) *harness {
	t.Helper()

	return newHarnessAt(t, "")
}

// newHarnessAt is newHarness with the world kept at statePath.
func newHarnessAt(t *testing.T, statePath string) *harness {
	t.Helper()

	opts := sandbox.DefaultOptions()
	opts.ProvisionDelay, opts.DeprovisionDelay = 0, 0
	opts.StatePath = statePath

	sb, err := sandbox.New(opts)
	require.NoError(t, err)

	server := httptest.NewServer(sb)
	t.Cleanup(func() {
		server.Close()
		require.NoError(t, sb.Close())
	})

	client := func(token string) *unikorn.Client {
		c, err := unikorn.NewClient(unikorn.Config{
			Endpoints: services.InSandbox(server.URL),
			Token:     token,
			Retry:     unikorn.RetryPolicy{MaxAttempts: 1},
		})
		require.NoError(t, err)

		return c
	}

	return &harness{sb: sb, user: client(sandbox.DefaultToken), service: client(sandbox.ServiceToken), client: client}
}

func newCreate(name string) unikorn.InstanceCreate {
	return unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Tags: unikorn.Tags{{Name: "team", Value: "web"}}},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec: unikorn.InstanceSpec{
				FlavorID:   sandbox.FlavorStandardID,
				ImageID:    sandbox.ImageUbuntuID,
				Networking: &unikorn.ServerNetworking{SecurityGroups: []string{sandbox.SecurityGroupAllowSSHID}},
			},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      sandbox.NetworkDefaultID,
		},
	}
}

// backing lists the hidden servers behind an instance, as compute's own account sees them.
func (h *harness) backing(t *testing.T, id string) []unikorn.Server {
	t.Helper()

	servers, err := h.service.ListServers(t.Context(), unikorn.ServerQuery{Tags: unikorn.Tags{{Name: compute.InstanceTag, Value: id}}})
	require.NoError(t, err)

	return servers
}

func (h *harness) allocationsFor(id string) int {
	return h.countAllocations(func(a unikorn.Allocation) bool { return a.Spec.ID == id })
}

func (h *harness) computeAllocations() int {
	return h.countAllocations(func(unikorn.Allocation) bool { return true })
}

func (h *harness) countAllocations(match func(unikorn.Allocation) bool) int {
	n := 0

	for _, a := range h.sb.Allocations() {
		if a.Spec.Kind == compute.AllocationKind && match(a) {
			n++
		}
	}

	return n
}

// settle reads the instance until the controller has it provisioned.
func (h *harness) settle(t *testing.T, id string) *unikorn.Instance {
	t.Helper()

	for range 5 {
		in, err := h.user.GetInstance(t.Context(), id)
		require.NoError(t, err)

		if in.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned {
			return in
		}
	}

	require.FailNow(t, "the instance never became provisioned")

	return nil
}

// running creates the instance "web" and waits until it runs.
func (h *harness) running(t *testing.T) string {
	t.Helper()

	created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
	require.NoError(t, err)

	return h.settle(t, created.Metadata.ID).Metadata.ID
}

func TestCreateChargesQuotaThenBuildsTheHiddenServer(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	created, err := h.user.CreateInstance(ctx, newCreate("web"))
	require.NoError(t, err)

	wantID, err := unikorn.DeriveServerID(sandbox.NetworkDefaultID, "web")
	require.NoError(t, err)
	assert.Equal(t, wantID, created.Metadata.ID, "the ID is region's server ID for the name on the network")
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.Empty(t, created.Status.PowerState)
	assert.Equal(t, sandbox.RegionID, created.Status.RegionID)
	assert.Equal(t, 1, h.allocationsFor(wantID))

	in := h.settle(t, wantID)
	assert.Equal(t, unikorn.PowerRunning, in.Status.PowerState)
	assert.NotEmpty(t, in.Status.PrivateIP)
	assert.NotEmpty(t, in.Status.MACAddress)
	assert.Equal(t, unikorn.HealthHealthy, in.Metadata.HealthStatus)

	servers := h.backing(t, wantID)
	require.Len(t, servers, 1)

	admin, err := h.sb.InstanceServers(wantID)
	require.NoError(t, err)
	assert.Equal(t, servers, admin)
	assert.Equal(t, unikorn.Tags{{Name: "team", Value: "web"}, {Name: compute.InstanceTag, Value: wantID}}, servers[0].Metadata.Tags)

	// The caller's requests and compute's own calls are counted apart.
	stats := h.sb.Stats()
	assert.Zero(t, stats.Routes["POST /api/v2/servers"])
	assert.Equal(t, 1, stats.Internal["POST /api/v2/servers"])
	assert.Equal(t, 1, stats.Routes["POST /compute/api/v2/instances"])
	assert.Equal(t, 1, stats.Internal["POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations"])

	listed, err := h.user.ListInstances(ctx, unikorn.InstanceQuery{Tags: unikorn.Tags{{Name: "team", Value: "web"}}, NetworkIDs: []string{sandbox.NetworkDefaultID}})
	require.NoError(t, err)
	require.Len(t, listed, 1)

	listed, err = h.user.ListInstances(ctx, unikorn.InstanceQuery{Tags: unikorn.Tags{{Name: "team", Value: "db"}}})
	require.NoError(t, err)
	assert.Empty(t, listed)

	listed, err = h.client(sandbox.ForeignToken).ListInstances(ctx, unikorn.InstanceQuery{})
	require.NoError(t, err)
	assert.Empty(t, listed, "lists drop what the caller may not read")
}

func TestControllerActsOnAWriteWithoutWaitingForAnotherRequest(t *testing.T) {
	h := newHarness(t)

	created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
	require.NoError(t, err)

	// Only the administrator's view is read: no request reaches compute after the create.
	require.Eventually(t, func() bool {
		servers, err := h.sb.InstanceServers(created.Metadata.ID)

		return err == nil && len(servers) == 1
	}, 5*time.Second, 10*time.Millisecond, "compute's controller creates the hidden server once the create has answered")
}

// Compute's controller watches region's servers, as the real one's reverse watch does:
// once region's cache shows a server provisioned, compute takes it up with no request
// made, and its own cache trails the instance's change from then. A read once both
// lags have run out shows the instance provisioned; had the controller waited for that
// read to take the change up, compute's cache would still hide it.
func TestControllerActsOnRegionsChangesWithoutARequest(t *testing.T) {
	h := newHarness(t)

	const delay, lag = 200 * time.Millisecond, 200 * time.Millisecond

	seed := uint64(3)
	require.NoError(t, h.sb.UpdateSettings(sandbox.Settings{ReadLag: lag.String(), ProvisionDelay: delay.String(), Seed: &seed}))

	created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
	require.NoError(t, err)

	// Region's cache shows the server provisioned within a lag of the provisioning's
	// end, compute's the instance within a lag of that; the rest is slack for timers.
	time.Sleep(delay + 2*lag + 500*time.Millisecond)

	in, err := h.user.GetInstance(t.Context(), created.Metadata.ID)
	require.NoError(t, err)
	assert.Equal(t, unikorn.ProvisioningProvisioned, in.Metadata.ProvisioningStatus,
		"compute took the server's provisioning up when region's cache showed it")
}

func TestCreateRefusals(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	cases := map[string]struct {
		token  string
		change func(*unikorn.InstanceCreate)
		status int
		text   string
	}{
		"unknown flavor":                 {change: func(c *unikorn.InstanceCreate) { c.Spec.FlavorID = "f0000000-0000-4000-8000-000000000000" }, status: 400, text: "requested flavor/image does not exist or is not accessible"},
		"unknown image":                  {change: func(c *unikorn.InstanceCreate) { c.Spec.ImageID = "f0000000-0000-4000-8000-000000000000" }, status: 400, text: "requested flavor/image does not exist or is not accessible"},
		"architecture":                   {change: func(c *unikorn.InstanceCreate) { c.Spec.FlavorID = sandbox.FlavorArmID }, status: 400, text: "architectures differ"},
		"virtualization":                 {change: func(c *unikorn.InstanceCreate) { c.Spec.FlavorID = sandbox.FlavorMetalID }, status: 400},
		"member of another organization": {token: sandbox.ForeignToken, status: 403},
		"missing network":                {change: func(c *unikorn.InstanceCreate) { c.Spec.NetworkID = "f0000000-0000-4000-8000-000000000000" }, status: 404},
		"missing security group": {change: func(c *unikorn.InstanceCreate) {
			c.Spec.Networking.SecurityGroups = []string{"f0000000-0000-4000-8000-000000000000"}
		}, status: 404},
		"CA of another project": {change: func(c *unikorn.InstanceCreate) { c.Spec.SSHCertificateAuthorityID = sandbox.OtherSSHCAID }, status: 422},
		"user data not cloud-init": {change: func(c *unikorn.InstanceCreate) {
			c.Spec.SSHCertificateAuthorityID = sandbox.SSHCAID
			c.Spec.UserData = base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\n"))
		}, status: 422},
		"outsider":      {token: sandbox.OutsiderToken, status: 403},
		"unknown token": {token: "nobody", status: 401},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			create := newCreate("refused")
			if tc.change != nil {
				tc.change(&create)
			}

			client := h.user
			if tc.token != "" {
				client = h.client(tc.token)
			}

			_, err := client.CreateInstance(ctx, create)

			var apiErr *unikorn.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.status, apiErr.StatusCode)
			assert.Contains(t, apiErr.Description, tc.text)
		})
	}

	listed, err := h.user.ListInstances(ctx, unikorn.InstanceQuery{})
	require.NoError(t, err)
	assert.Empty(t, listed)
	assert.Zero(t, h.computeAllocations(), "no refusal leaves quota charged")

	// A CA of the project with cloud-config user data is accepted.
	create := newCreate("with-ca")
	create.Spec.SSHCertificateAuthorityID = sandbox.SSHCAID
	create.Spec.UserData = base64.StdEncoding.EncodeToString([]byte("#cloud-config\n"))
	_, err = h.user.CreateInstance(ctx, create)
	require.NoError(t, err)
}

func TestDuplicateNameIs409AndReleasesTheCharge(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	created, err := h.user.CreateInstance(ctx, newCreate("web"))
	require.NoError(t, err)

	_, err = h.user.CreateInstance(ctx, newCreate("web"))
	require.True(t, unikorn.IsConflict(err), "got %v", err)
	assert.Equal(t, 1, h.allocationsFor(created.Metadata.ID), "the duplicate's allocation is undone")
	assert.Equal(t, 2, h.sb.Stats().Internal["POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations"])
	assert.Equal(t, 1, h.sb.Stats().Internal["DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}"])
}

func TestOverQuotaCreatesNothing(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	create := newCreate("gpu")
	create.Spec.FlavorID, create.Spec.ImageID = sandbox.FlavorGPUID, sandbox.ImageUbuntuGPUID

	// The fixture organization may hold 2 GPUs and the GPU flavor has one.
	for _, name := range []string{"gpu-1", "gpu-2"} {
		create.Metadata.Name = name
		_, err := h.user.CreateInstance(ctx, create)
		require.NoError(t, err)
	}

	create.Metadata.Name = "gpu-3"
	_, err := h.user.CreateInstance(ctx, create)
	require.True(t, unikorn.IsForbidden(err), "got %v", err)

	listed, err := h.user.ListInstances(ctx, unikorn.InstanceQuery{})
	require.NoError(t, err)
	assert.Len(t, listed, 2)
	assert.Equal(t, 2, h.computeAllocations())
}

func TestUpdate(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	id := h.running(t)

	update := unikorn.InstanceUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: newCreate("web").Spec.InstanceSpec}
	_, err := h.user.UpdateInstance(ctx, id, update)
	require.True(t, unikorn.IsUnprocessable(err), "got %v", err)

	// Tags reach the server in place; no rebuild.
	update.Metadata = unikorn.WriteMetadata{Name: "web", Description: "front", Tags: unikorn.Tags{{Name: "team", Value: "edge"}}}
	updated, err := h.user.UpdateInstance(ctx, id, update)
	require.NoError(t, err)
	assert.Equal(t, "front", updated.Metadata.Description)
	h.settle(t, id)
	assert.Equal(t, "edge", tagOf(h.backing(t, id)[0], "team"))
	assert.Zero(t, h.sb.Stats().Internal["DELETE /api/v2/servers/{serverID}"])

	// A new flavor rebuilds the server.
	update.Spec.FlavorID = sandbox.FlavorTinyID
	update.Spec.ImageID = sandbox.ImageDebianID
	_, err = h.user.UpdateInstance(ctx, id, update)
	require.NoError(t, err)

	after := h.settle(t, id)
	assert.Equal(t, sandbox.FlavorTinyID, after.Spec.FlavorID)

	servers := h.backing(t, id)
	require.Len(t, servers, 1)
	assert.Equal(t, sandbox.FlavorTinyID, servers[0].Spec.FlavorID)
	assert.Equal(t, 1, h.sb.Stats().Internal["DELETE /api/v2/servers/{serverID}"])
	assert.Equal(t, 2, h.sb.Stats().Internal["POST /api/v2/servers"])

	// An incompatible flavor is refused and leaves the instance alone.
	update.Spec.FlavorID = sandbox.FlavorArmID
	_, err = h.user.UpdateInstance(ctx, id, update)
	require.True(t, unikorn.IsBadRequest(err), "got %v", err)
}

func tagOf(server unikorn.Server, name string) string {
	value, _ := server.Metadata.Tags.Get(name)

	return value
}

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
	h := newHarness(t)
	ctx := t.Context()

	id := h.running(t)

	servers := h.backing(t, id)
	require.Len(t, servers, 1)
	require.NoError(t, h.service.DeleteServer(ctx, servers[0].Metadata.ID))

	in, err := h.user.GetInstance(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, unikorn.ProvisioningProvisioning, in.Metadata.ProvisioningStatus)

	h.settle(t, id)
	assert.Len(t, h.backing(t, id), 1)
	assert.Equal(t, 2, h.sb.Stats().Internal["POST /api/v2/servers"])
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
		Metadata: unikorn.WriteMetadata{Name: "impostor", Tags: unikorn.Tags{{Name: compute.InstanceTag, Value: id}}},
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
	assert.Equal(t, compute.Version, version.Version)

	regions, err := h.user.ListComputeRegions(ctx, sandbox.OrganizationID)
	require.NoError(t, err)

	for _, r := range regions {
		assert.NotEqual(t, "kubernetes", r.Spec.Type)
	}

	images, err := h.user.ListComputeImages(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)

	for _, i := range images {
		assert.Empty(t, i.Spec.SoftwareVersions)
	}

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
		Metadata: unikorn.WriteMetadata{Name: server.Metadata.Name, Tags: unikorn.Tags{{Name: compute.InstanceTag, Value: id}, {Name: "team", Value: "rogue"}}},
		Spec:     server.Spec,
	})
	require.NoError(t, err)

	h.settle(t, id)
	assert.Equal(t, "web", tagOf(h.backing(t, id)[0], "team"))
}

// Compute's handlers read its instances through an informer cache, as region's read
// servers: with read lag on, a read just after a write may miss it.
func TestReadsTrailComputesOwnWrites(t *testing.T) {
	h := newHarness(t)
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

	for seed := uint64(1); seed <= 4; seed++ {
		h := newHarness(t)
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
}
