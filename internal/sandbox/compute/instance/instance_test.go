package instance_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn/unikorntest"
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

	sb := newSandbox(t, statePath)

	server := httptest.NewServer(sb)
	t.Cleanup(server.Close)

	return harnessOver(t, sb, server.URL, nil)
}

// inBubble runs test in a testing/synctest bubble, with a harness whose sandbox is
// called in process: the controller's timers, the delays and the read lag then run
// on the bubble's clock, which moves only when every goroutine waits, so that what
// the test asserts of their order holds however slowly the machine runs it.
func inBubble(t *testing.T, test func(t *testing.T, h *harness)) {
	t.Helper()

	synctest.Test(t, func(t *testing.T) { test(t, newBubbleHarness(t)) })
}

// newBubbleHarness is the harness of inBubble, for a test that makes several in one
// bubble.
func newBubbleHarness(t *testing.T) *harness {
	t.Helper()

	sb := newSandbox(t, "")

	return harnessOver(t, sb, "http://sandbox.invalid", &http.Client{Transport: unikorntest.Direct(sb)})
}

func newSandbox(t *testing.T, statePath string) *sandbox.Sandbox {
	t.Helper()

	opts := sandbox.DefaultOptions()
	opts.ProvisionDelay, opts.DeprovisionDelay = 0, 0
	opts.StatePath = statePath

	sb, err := sandbox.New(opts)
	require.NoError(t, err)

	t.Cleanup(func() { require.NoError(t, sb.Close()) })

	return sb
}

// harnessOver is the harness of sb, reached at url through httpClient (the client's
// own when nil).
func harnessOver(t *testing.T, sb *sandbox.Sandbox, url string, httpClient *http.Client) *harness {
	t.Helper()

	client := func(token string) *unikorn.Client {
		c, err := unikorn.NewClient(unikorn.Config{
			Endpoints:  services.InSandbox(url),
			Token:      token,
			Retry:      unikorn.RetryPolicy{MaxAttempts: 1},
			HTTPClient: httpClient,
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

	servers, err := h.service.ListServers(t.Context(), unikorn.ServerQuery{Tags: unikorn.Tags{{Name: instance.InstanceTag, Value: id}}})
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
		if a.Spec.Kind == instance.AllocationKind && match(a) {
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
	assert.Equal(t, unikorn.Tags{{Name: "team", Value: "web"}, {Name: instance.InstanceTag, Value: wantID}}, servers[0].Metadata.Tags)

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
	inBubble(t, func(t *testing.T, h *harness) {

		created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
		require.NoError(t, err)

		// Only the administrator's view is read: no request reaches compute after the create.
		require.Eventually(t, func() bool {
			servers, err := h.sb.InstanceServers(created.Metadata.ID)

			return err == nil && len(servers) == 1
		}, 5*time.Second, 10*time.Millisecond, "compute's controller creates the hidden server once the create has answered")
	})
}

// Compute's controller watches region's servers, as the real one's reverse watch does:
// once region's cache shows a server provisioned, compute takes it up with no request
// made, and its own cache trails the instance's change from then. A read once both
// lags have run out shows the instance provisioned; had the controller waited for that
// read to take the change up, compute's cache would still hide it.
func TestControllerActsOnRegionsChangesWithoutARequest(t *testing.T) {
	inBubble(t, func(t *testing.T, h *harness) {

		const delay, lag = 200 * time.Millisecond, 200 * time.Millisecond

		seed := uint64(3)
		require.NoError(t, h.sb.UpdateSettings(sandbox.Settings{ReadLag: lag.String(), ProvisionDelay: delay.String(), Seed: &seed}))

		created, err := h.user.CreateInstance(t.Context(), newCreate("web"))
		require.NoError(t, err)

		// Region's cache shows the server provisioned within a lag of the provisioning's
		// end, compute's the instance within a lag of that. On the bubble's clock the
		// timers fire on time: a read a millisecond past both lags needs no slack.
		time.Sleep(delay + 2*lag + time.Millisecond)

		in, err := h.user.GetInstance(t.Context(), created.Metadata.ID)
		require.NoError(t, err)
		assert.Equal(t, unikorn.ProvisioningProvisioned, in.Metadata.ProvisioningStatus,
			"compute took the server's provisioning up when region's cache showed it")
	})
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
