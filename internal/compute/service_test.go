package compute_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// env is one sandbox with a façade over it, called with the service token: the
// instances' family, and the images' that their snapshots make.
type env struct {
	*cloudtest.World

	service *compute.Service
	images  *image.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()

	return startEnv(t, cloudtest.Config{Token: sandbox.PlatformAdminToken})
}

// inBubble runs test in a testing/synctest bubble, against a sandbox served in the
// bubble: the sandbox's delays and the façade's polls fall on the bubble's clock,
// so what the test counts of them is decided by their order, not by how fast the
// machine runs it.
func inBubble(t *testing.T, test func(t *testing.T, e *env)) {
	t.Helper()

	synctest.Test(t, func(t *testing.T) {
		test(t, startEnv(t, cloudtest.Config{Token: sandbox.PlatformAdminToken, InProcess: true}))
	})
}

func startEnv(t *testing.T, config cloudtest.Config) *env {
	t.Helper()

	e := &env{World: cloudtest.Start(t, config)}
	e.service = e.serviceOver(t, nil)
	e.images = e.imagesOver(t, nil)

	return e
}

// testReadLag stands for region's read lag in the façade's tests.
const testReadLag = 100 * time.Millisecond

// serviceOver returns a façade over the sandbox whose requests go through transport
// (the default one when nil), which may lose or alter answers as a harsh network does.
func (e *env) serviceOver(t *testing.T, transport http.RoundTripper) *compute.Service {
	t.Helper()

	return compute.NewService(e.NewSession(e.NewClient(t, sandbox.PlatformAdminToken, transport), testReadLag))
}

// imagesOver is serviceOver for the image family.
func (e *env) imagesOver(t *testing.T, transport http.RoundTripper) *image.Service {
	t.Helper()

	return image.NewService(e.NewSession(e.NewClient(t, sandbox.PlatformAdminToken, transport), testReadLag))
}

// setQuota changes the organization's quota through identity's admin call.
func (e *env) setQuota(t *testing.T, kind string, quantity int) {
	t.Helper()

	body, err := json.Marshal(unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{{Kind: kind, Quantity: quantity}}})
	require.NoError(t, err)

	request, err := http.NewRequestWithContext(t.Context(), http.MethodPut,
		e.URL+"/api/v1/organizations/"+sandbox.OrganizationID+"/quotas", bytes.NewReader(body))
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+sandbox.PlatformAdminToken)
	request.Header.Set("Content-Type", "application/json")

	response, err := http.DefaultClient.Do(request)
	require.NoError(t, err)
	require.NoError(t, response.Body.Close())
	require.Equal(t, http.StatusOK, response.StatusCode)
}

func standardSpec(name string) compute.Spec {
	return compute.Spec{
		Name:      name,
		NetworkID: sandbox.NetworkDefaultID,
		FlavorID:  sandbox.FlavorStandardID,
		ImageID:   sandbox.ImageUbuntuID,
	}
}

func (e *env) create(t *testing.T, spec compute.Spec) *compute.Instance {
	t.Helper()

	instance, err := e.service.Create(t.Context(), spec)
	require.NoError(t, err)

	instance, err = e.service.WaitReady(t.Context(), instance)
	require.NoError(t, err)

	return instance
}

func (e *env) allocationsFor(instanceID string) []unikorn.Allocation {
	var found []unikorn.Allocation

	for _, allocation := range e.Sandbox.Allocations() {
		if allocation.Spec.Kind == compute.AllocationKind && allocation.Spec.ID == instanceID {
			found = append(found, allocation)
		}
	}

	return found
}

func (e *env) instanceAllocations() int {
	count := 0

	for _, allocation := range e.Sandbox.Allocations() {
		if allocation.Spec.Kind == compute.AllocationKind {
			count++
		}
	}

	return count
}

func (e *env) servers(t *testing.T) []unikorn.Server {
	t.Helper()

	servers, err := e.Client.ListServers(t.Context(), unikorn.ServerQuery{})
	require.NoError(t, err)

	return servers
}

func committed(allocation unikorn.Allocation, kind string) int {
	for _, line := range allocation.Spec.Allocations {
		if line.Kind == kind {
			return line.Committed
		}
	}

	return -1
}

func TestCreateReachesReadyWithScopeFromTheNetwork(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	spec := standardSpec("web-1")
	spec.Tags = map[string]string{"team": "web"}
	spec.PublicIP = true

	instance := e.create(t, spec)

	wantID, err := unikorn.DeriveServerID(sandbox.NetworkDefaultID, "web-1")
	require.NoError(t, err)
	assert.Equal(t, wantID, instance.ID)
	assert.Equal(t, sandbox.OrganizationID, instance.OrganizationID)
	assert.Equal(t, sandbox.ProjectID, instance.ProjectID)
	assert.Equal(t, sandbox.RegionID, instance.RegionID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, instance.ProvisioningStatus)
	assert.Equal(t, compute.PowerRunning, instance.PowerState)
	assert.NotEmpty(t, instance.PrivateIP)
	assert.NotEmpty(t, instance.PublicIP)
	assert.NotEmpty(t, instance.MACAddress)
	assert.Equal(t, map[string]string{"team": "web"}, instance.Spec.Tags, "reserved tags stay hidden")

	allocations := e.allocationsFor(instance.ID)
	require.Len(t, allocations, 1)
	assert.Equal(t, instance.AllocationID, allocations[0].Metadata.ID)
	assert.Equal(t, 1, committed(allocations[0], compute.QuotaServers))
	assert.Equal(t, 0, committed(allocations[0], compute.QuotaGPUs))
	assert.Equal(t, 1, committed(allocations[0], compute.QuotaFloatingIPs))

	found, err := e.service.Get(t.Context(), compute.Ref{ID: instance.ID})
	require.NoError(t, err)
	assert.Equal(t, instance.ServerID, found.ServerID)
}

func TestValidateNamesTheOffendingField(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	cases := map[string]struct {
		mutate func(*compute.Spec)
		field  compute.Field
		detail string
	}{
		"unknown flavor": {func(s *compute.Spec) { s.FlavorID = "f0000000-0000-4000-8000-000000000099" }, compute.FieldFlavorID, "does not exist"},
		"unknown image":  {func(s *compute.Spec) { s.ImageID = "f0000000-0000-4000-8000-000000000099" }, compute.FieldImageID, "does not exist"},
		"architecture":   {func(s *compute.Spec) { s.FlavorID = sandbox.FlavorArmID }, compute.FieldImageID, "x86_64"},
		"disk too small": {func(s *compute.Spec) { s.FlavorID = sandbox.FlavorTinyID }, compute.FieldFlavorID, "10 GB"},
		"virtualization": {func(s *compute.Spec) { s.ImageID = sandbox.ImageUbuntuMetalID }, compute.FieldImageID, "bare-metal"},
		"security group of another network": {
			func(s *compute.Spec) { s.SecurityGroupIDs = []string{sandbox.SecurityGroupSecondarySSHID} },
			compute.FieldSecurityGroupIDs, sandbox.NetworkSecondaryID,
		},
		"SSH CA of another project": {
			func(s *compute.Spec) { s.SSHCertificateAuthorityID = sandbox.OtherSSHCAID }, compute.FieldSSHCertificateAuthorityID, sandbox.OtherProjectID,
		},
		"user data not cloud-init with an SSH CA": {
			func(s *compute.Spec) { s.SSHCertificateAuthorityID = sandbox.SSHCAID; s.UserData = "echo hello" },
			compute.FieldUserData, "cloud-init",
		},
		"reserved tag":    {func(s *compute.Spec) { s.Tags = map[string]string{"region.unikorn-cloud.org/x": "y"} }, compute.FieldTags, "reserved"},
		"invalid name":    {func(s *compute.Spec) { s.Name = "-bad-" }, compute.FieldName, "not a valid instance name"},
		"bad CIDR":        {func(s *compute.Spec) { s.AllowedSourceAddresses = []string{"10.0.0.1/8"} }, compute.FieldAllowedSourceAddresses, "host bits"},
		"unknown network": {func(s *compute.Spec) { s.NetworkID = "f0000000-0000-4000-8000-000000000099" }, compute.FieldNetworkID, "does not exist"},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			spec := standardSpec("invalid")
			tc.mutate(&spec)

			_, err := e.service.Create(t.Context(), spec)

			var problems *compute.ValidationError
			require.ErrorAs(t, err, &problems)
			require.NotEmpty(t, problems.Problems)
			assert.Equal(t, tc.field, problems.Problems[0].Field, "%+v", problems.Problems)
			assert.Contains(t, problems.Problems[0].Detail, tc.detail)
		})
	}

	assert.Empty(t, e.servers(t), "validation failures create no server")
	assert.Zero(t, e.instanceAllocations(), "validation failures charge no quota")
}

func TestQuotaRefusalCreatesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	for _, name := range []string{"gpu-1", "gpu-2"} {
		spec := standardSpec(name)
		spec.FlavorID, spec.ImageID = sandbox.FlavorGPUID, sandbox.ImageUbuntuGPUID
		e.create(t, spec)
	}

	spec := standardSpec("gpu-3")
	spec.FlavorID, spec.ImageID = sandbox.FlavorGPUID, sandbox.ImageUbuntuGPUID

	_, err := e.service.Create(t.Context(), spec)

	var quota *compute.QuotaError
	require.ErrorAs(t, err, &quota)
	assert.Contains(t, err.Error(), "total gpus allocation of 3 would exceed quota limit of 2")
	assert.Len(t, e.servers(t), 2)
	assert.Equal(t, 2, e.instanceAllocations())
}

func TestFailedServerCreateReleasesTheAllocationAndIsNotRepeated(t *testing.T) {
	t.Parallel()

	for _, status := range []int{500, 503, 0} {
		e := newEnv(t)
		_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: "POST", Route: "/api/v2/servers", Status: status, Count: 1})
		require.NoError(t, err)

		_, err = e.service.Create(t.Context(), standardSpec("web"))
		require.Error(t, err, "status %d", status)

		assert.Zero(t, e.instanceAllocations(), "status %d: the allocation is released", status)
		assert.Empty(t, e.servers(t), "status %d", status)
		assert.Equal(t, 1, e.Sandbox.Stats().Routes["POST /api/v2/servers"], "status %d: a create is never retried", status)
	}
}

func TestDuplicateNameIsReportedWithTheExistingInstanceID(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	existing := e.create(t, standardSpec("taken"))

	_, err := e.service.Create(t.Context(), standardSpec("taken"))

	var taken *compute.NameTakenError
	require.ErrorAs(t, err, &taken)
	assert.Equal(t, existing.ID, taken.InstanceID)
	assert.Equal(t, 1, e.instanceAllocations(), "the second allocation is released")
}

func TestWaitReadyFailsAtOnceWhenProvisioningFails(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{ProvisionDelay: "1h"}))

	instance, err := e.service.Create(t.Context(), standardSpec("doomed"))
	require.NoError(t, err)
	require.NoError(t, e.Sandbox.FailServer(instance.ServerID))

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()

	_, err = e.service.WaitReady(ctx, instance)

	var failed *compute.ProvisioningFailedError
	require.ErrorAs(t, err, &failed)
	assert.NoError(t, ctx.Err(), "the failure is noticed before the timeout")
}

func TestWaitReadyTimeoutLeavesAKnownInstance(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{ProvisionDelay: "1h"}))

	instance, err := e.service.Create(t.Context(), standardSpec("slow"))
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()

	_, err = e.service.WaitReady(ctx, instance)

	var wait *cloud.WaitError
	require.ErrorAs(t, err, &wait)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	require.NoError(t, e.service.Delete(t.Context(), instance.Ref(), instance.AllocationID))
	assert.Empty(t, e.servers(t))
	assert.Zero(t, e.instanceAllocations())
}

func TestGetRequiresExactlyOneServer(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("twin"))

	_, err := e.service.Get(t.Context(), compute.Ref{ID: "a1234567-0000-4000-8000-000000000000"})
	require.ErrorIs(t, err, compute.ErrNotFound)

	impostor, err := e.Client.CreateServer(t.Context(), unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: "impostor", Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: instance.ID}}},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			NetworkID:  sandbox.NetworkDefaultID,
		},
	})
	require.NoError(t, err)

	_, err = e.service.Get(t.Context(), instance.Ref())

	var inconsistent *compute.ConsistencyError
	require.ErrorAs(t, err, &inconsistent)
	assert.ElementsMatch(t, []string{instance.ServerID, impostor.Metadata.ID}, inconsistent.ServerIDs)
	assert.Contains(t, err.Error(), impostor.Metadata.ID)
	assert.Contains(t, err.Error(), instance.ServerID)
}

func TestDeleteReleasesTheQuotaOnlyAfterTheServerIsGone(t *testing.T) {
	t.Parallel()

	inBubble(t, func(t *testing.T, e *env) {
		require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{DeprovisionDelay: "300ms"}))

		instance := e.create(t, standardSpec("doomed"))

		done := make(chan error, 1)
		go func() { done <- e.service.Delete(context.WithoutCancel(t.Context()), instance.Ref(), "") }()

		// While the server is deprovisioning, its allocation must still be there.
		require.Eventually(t, func() bool {
			server, err := e.Client.GetServer(t.Context(), instance.ServerID)

			return err == nil && server.Metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning
		}, 2*time.Second, 5*time.Millisecond)
		assert.Len(t, e.allocationsFor(instance.ID), 1, "the quota is held while the server exists")

		require.NoError(t, <-done)

		_, err := e.Client.GetServer(t.Context(), instance.ServerID)
		require.True(t, unikorn.IsNotFound(err), "server gone: %v", err)
		assert.Empty(t, e.allocationsFor(instance.ID))

		// Deleting again, with the server gone, succeeds.
		require.NoError(t, e.service.Delete(t.Context(), instance.Ref(), instance.AllocationID))
	})
}

func TestUpdateMovesQuotaFirstAndKeepsTheInstance(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	spec := standardSpec("web")
	spec.Description = "front end"
	spec.Tags = map[string]string{"tier": "front"}
	spec.SecurityGroupIDs = []string{sandbox.SecurityGroupAllowSSHID}
	spec.PublicIP = true

	updated, err := e.service.Update(t.Context(), instance.Ref(), spec)
	require.NoError(t, err)
	assert.Equal(t, instance.ID, updated.ID)
	assert.Equal(t, instance.ServerID, updated.ServerID)
	assert.Equal(t, "front end", updated.Spec.Description)
	assert.Equal(t, map[string]string{"tier": "front"}, updated.Spec.Tags)
	assert.Equal(t, []string{sandbox.SecurityGroupAllowSSHID}, updated.Spec.SecurityGroupIDs)
	assert.True(t, updated.Spec.PublicIP)
	assert.Equal(t, 1, committed(e.allocationsFor(instance.ID)[0], compute.QuotaFloatingIPs))
}

func TestUpdateRefusedByQuotaChangesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	e.setQuota(t, compute.QuotaFloatingIPs, 0)

	instance := e.create(t, standardSpec("web"))

	spec := standardSpec("web")
	spec.PublicIP = true

	_, err := e.service.Update(t.Context(), instance.Ref(), spec)

	var quota *compute.QuotaError
	require.ErrorAs(t, err, &quota)

	after, err := e.service.Get(t.Context(), instance.Ref())
	require.NoError(t, err)
	assert.False(t, after.Spec.PublicIP)
	assert.Equal(t, 0, committed(e.allocationsFor(instance.ID)[0], compute.QuotaFloatingIPs))
}

func TestUpdateRestoresTheQuotaWhenTheServerRefuses(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: "PUT", Route: "/api/v2/servers/{serverID}", Status: 500})
	require.NoError(t, err)

	spec := standardSpec("web")
	spec.PublicIP = true

	_, err = e.service.Update(t.Context(), instance.Ref(), spec)
	require.Error(t, err)
	assert.Equal(t, 0, committed(e.allocationsFor(instance.ID)[0], compute.QuotaFloatingIPs), "the allocation is restored")
}

// Region answers a server update that lost its optimistic lock to the server's
// controller with a 500, having written nothing, while its cache trails the
// controller's write: the update, a PUT of the whole server with its revision, is
// sent again within the read lag, and the quota it moved stays moved.
func TestUpdateThatLosesTheLockIsSentAgain(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: "PUT", Route: "/api/v2/servers/{serverID}", Status: 500, Count: 2})
	require.NoError(t, err)

	spec := standardSpec("web")
	spec.PublicIP = true

	updated, err := e.service.Update(t.Context(), instance.Ref(), spec)
	require.NoError(t, err)
	assert.True(t, updated.Spec.PublicIP)
	assert.Equal(t, 3, e.Sandbox.Stats().Routes["PUT /api/v2/servers/{serverID}"], "two lost the lock, the third was taken")
	assert.Equal(t, 1, committed(e.allocationsFor(instance.ID)[0], compute.QuotaFloatingIPs), "the quota moved with the update")
}

func TestPowerIsIdempotentAndRejectsImpossibleTransitions(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	var messages []string
	progress := func(message string) { messages = append(messages, message) }

	stopped, err := e.service.Power(t.Context(), instance.Ref(), compute.PowerStop, progress)
	require.NoError(t, err)
	assert.Equal(t, compute.PowerStopped, stopped.PowerState)
	assert.NotEmpty(t, messages)

	e.Sandbox.ResetStats()

	_, err = e.service.Power(t.Context(), instance.Ref(), compute.PowerStop, progress)
	require.NoError(t, err)
	assert.Zero(t, e.Sandbox.Stats().Routes["POST /api/v2/servers/{serverID}/stop"], "stopping a stopped instance asks nothing")

	_, err = e.service.Power(t.Context(), instance.Ref(), compute.PowerReboot, progress)
	require.ErrorContains(t, err, "only a running instance can be rebooted")

	started, err := e.service.Power(t.Context(), instance.Ref(), compute.PowerStart, progress)
	require.NoError(t, err)
	assert.Equal(t, compute.PowerRunning, started.PowerState)

	_, err = e.service.Power(t.Context(), instance.Ref(), compute.PowerHardReboot, progress)
	require.NoError(t, err)
	assert.Equal(t, 1, e.Sandbox.Stats().Routes["POST /api/v2/servers/{serverID}/hardreboot"])
}

func TestSnapshotWaitsUntilReadyAndRecordsProvenance(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	var messages []string

	image, err := e.service.Snapshot(t.Context(), instance.Ref(), compute.SnapshotRequest{
		Name: "web-backup",
		Tags: map[string]string{"purpose": "backup", "compute.unikorn-cloud.org:instance-id": "forged"},
	}, func(message string) { messages = append(messages, message) })
	require.NoError(t, err)

	assert.Equal(t, unikorn.ImageReady, image.Status)
	assert.Equal(t, instance.ID, image.InstanceID, "the forged provenance tag is replaced")
	assert.Equal(t, map[string]string{"purpose": "backup"}, image.Tags)
	assert.GreaterOrEqual(t, len(messages), 2)

	// A ready snapshot boots a new instance.
	spec := standardSpec("web-restored")
	spec.ImageID = image.ID
	e.create(t, spec)
}

func TestSSHKeyAndConsoleOutput(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	key, err := e.service.SSHKey(t.Context(), instance.Ref())
	require.NoError(t, err)
	assert.Contains(t, key, "PRIVATE KEY")

	output, err := e.service.ConsoleOutput(t.Context(), instance.Ref(), 2)
	require.NoError(t, err)
	assert.NotEmpty(t, output)

	_, err = e.service.SSHKey(t.Context(), compute.Ref{ID: "a1234567-0000-4000-8000-000000000000"})
	require.True(t, errors.Is(err, compute.ErrNotFound))
}

// An update cannot change the flavor or the image, so it does not check them: an
// instance whose image has since left the catalogue can still have its tags changed.
func TestUpdateDoesNotConsultTheCatalogue(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	spec := standardSpec("web")
	spec.Tags = map[string]string{"still": "updatable"}
	spec.SecurityGroupIDs = []string{sandbox.SecurityGroupAllowSSHID}

	// A new façade has nothing cached, so every look-up it makes shows in the stats.
	fresh := compute.NewService(cloud.NewSession(e.Client, cloud.WithPollPolicy(cloud.PollPolicy{Min: 5 * time.Millisecond, Max: 20 * time.Millisecond, Factor: 1.5})))
	e.Sandbox.ResetStats()

	updated, err := fresh.Update(t.Context(), instance.Ref(), spec)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"still": "updatable"}, updated.Spec.Tags)

	routes := e.Sandbox.Stats().Routes
	assert.Zero(t, routes["GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors"])
	assert.Zero(t, routes["GET /api/v1/organizations/{organizationID}/regions/{regionID}/images"])
	assert.Equal(t, 1, routes["GET /api/v2/securitygroups/{securityGroupID}"], "what the update changes is checked")
}
