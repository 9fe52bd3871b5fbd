// Package conformance checks the API client and the sandbox against the upstream
// OpenAPI documents, the wire contract of the real Unikorn services: it drives every
// client method through an in-process sandbox and validates each request and each
// response with kin-openapi. A violation is a bug in the client or the sandbox.
package conformance

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const (
	// provisionDelay and deprovisionDelay keep the lifecycles asynchronous, so every
	// intermediate state is seen on the wire, while the whole run stays short.
	provisionDelay   = 20 * time.Millisecond
	deprovisionDelay = 20 * time.Millisecond
	pollInterval     = 5 * time.Millisecond
	settleTimeout    = 5 * time.Second

	// foreignOrganizationID is an organization the fixture user does not belong to.
	foreignOrganizationID = "f0000000-0000-4000-8000-000000000001"

	// missingID is a well-formed ID that names nothing.
	missingID = "f0000000-0000-4000-8000-00000000dead"

	// instanceTag is the tag by which compute finds the server behind an instance.
	instanceTag = "compute.unikorn-cloud.org/instance-id"
)

func TestConformance(t *testing.T) {
	dir := os.Getenv(openAPIDirEnv)
	if dir == "" {
		t.Skipf("%s is not set: point it at the folder of the upstream OpenAPI documents "+
			"(make test and .ci/run use ../shared/openapi) to check the client and the sandbox against them", openAPIDirEnv)
	}

	r := newRun(t, loadContract(t, dir))

	steps := []struct {
		name string
		run  func(*testing.T)
	}{
		{"catalogue", r.catalogue},
		{"identity", r.identity},
		{"identity objects", r.identityObjects},
		{"networks", r.networks},
		{"security groups", r.securityGroups},
		{"SSH certificate authorities", r.sshCertificateAuthorities},
		{"load balancers", r.loadBalancers},
		{"file storage", r.fileStorage},
		{"volumes", r.volumes},
		{"server lifecycle", r.serverLifecycle},
		{"server power", r.serverPower},
		{"server access", r.serverAccess},
		{"snapshot", r.snapshot},
		{"image import", r.imageImport},
		{"compute catalogue", r.computeCatalogue},
		{"compute instance", r.computeInstance},
		{"Kubernetes clusters", r.kubernetes},
		{"error answers", r.errorAnswers},
		{"allocations", r.allocations},
		{"empty lists", r.emptyLists},
		{"teardown", r.teardown},
	}

	completed := true

	for _, step := range steps {
		if strings.HasPrefix(step.name, "compute ") && !r.computeServed ||
			strings.HasPrefix(step.name, "Kubernetes ") && !r.kubernetesServed {
			continue
		}

		// Each step builds on the state the ones before it left.
		if !t.Run(step.name, step.run) {
			completed = false

			break
		}
	}

	exchanges, violations, nullLists := r.recorder.report()
	t.Logf("%d exchanges checked against the contract", exchanges)

	for _, line := range summarize(violations) {
		t.Errorf("contract violation: %s", line)
	}

	if !completed {
		// A step that stopped early leaves methods uncalled; that is not news.
		return
	}

	// The one documented departure from the contract was met where expected, and only there.
	assert.Equal(t, []string{"GET /api/v2/servers?organizationID=" + foreignOrganizationID}, nullLists,
		"list answers whose `null` body was left unchecked")

	missing, foreign := r.coverage.compare()
	if !r.computeServed {
		// Waived by name only while the sandbox lacks the service; once it serves
		// compute, every compute method needs its step like any other.
		waived := slices.DeleteFunc(slices.Clone(missing), func(name string) bool { return !isComputeMethod(name) })
		missing = slices.DeleteFunc(missing, isComputeMethod)
		t.Logf("the sandbox serves no compute service under %s; compute methods not exercised: %v", computePrefix, waived)
	}

	if !r.kubernetesServed {
		// As for compute, while the sandbox lacks the service.
		waived := slices.DeleteFunc(slices.Clone(missing), func(name string) bool { return !isKubernetesMethod(name) })
		missing = slices.DeleteFunc(missing, isKubernetesMethod)
		t.Logf("the sandbox serves no Kubernetes service under %s; its methods not exercised: %v", kubernetesPrefix, waived)
	}

	assert.Empty(t, missing, "client methods that no conformance step exercises")
	assert.Empty(t, foreign, "functions passed to call that are not methods of *unikorn.Client")
}

// run is the state one conformance run shares across its steps.
type run struct {
	client *unikorn.Client
	// user is an ordinary project user's client, the one compute is for.
	user *unikorn.Client
	// admin is an organization administrator's client: identity's projects, groups
	// and service accounts are theirs to manage.
	admin *unikorn.Client
	// computeServed says whether the sandbox serves compute under computePrefix, and
	// kubernetesServed the Kubernetes service under kubernetesPrefix.
	computeServed, kubernetesServed bool
	// unauthenticated is a client whose token the sandbox does not know.
	unauthenticated *unikorn.Client
	recorder        *recorder
	coverage        *coverage

	// What the steps create, for the steps that follow.
	networkID       string
	securityGroupID string
	caID            string
	serverID        string
}

// serves reports whether the sandbox answers a project user's GET of url, one of a
// service's operations under the service's prefix. It asks outside the recorder: a
// sandbox without the service answers 404, which is no exchange of the contract.
func serves(t *testing.T, url string) bool {
	t.Helper()

	request, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)

	response, err := http.DefaultClient.Do(request)
	require.NoError(t, err)
	require.NoError(t, response.Body.Close())

	return response.StatusCode == http.StatusOK
}

func newRun(t *testing.T, c *contract) *run {
	t.Helper()

	world := cloudtest.Start(t, cloudtest.Config{ProvisionDelay: provisionDelay, DeprovisionDelay: deprovisionDelay})
	rec := newRecorder(http.DefaultTransport, c)
	newClient := func(token string) *unikorn.Client { return world.NewClient(t, token, rec) }

	return &run{
		client:           newClient(sandbox.PlatformAdminToken),
		user:             newClient(sandbox.DefaultToken),
		admin:            newClient(sandbox.AdminToken),
		computeServed:    serves(t, world.URL+computePrefix+"/api/version"),
		kubernetesServed: serves(t, world.URL+kubernetesPrefix+"/api/v1/organizations/"+sandbox.OrganizationID+"/clusters"),
		unauthenticated:  newClient("not-a-sandbox-token"),
		recorder:         rec,
		coverage:         &coverage{},
	}
}

func (r *run) catalogue(t *testing.T) {
	ctx := t.Context()

	images := r.requireCatalogue(t, r.client.ListRegions, r.client.ListFlavors, r.client.ListImages, sandbox.FlavorGPUID, sandbox.ImageUbuntuGPUID)
	require.Contains(t, imageIDs(images), sandbox.ImageKubernetesID, "region lists its Kubernetes node images")

	// Without an organization only global images are listed.
	global, err := call(r.coverage, r.client.ListImagesV2)(ctx, sandbox.RegionID, unikorn.ImageQuery{})
	require.NoError(t, err)
	require.Contains(t, imageIDs(global), sandbox.ImageDebianID)

	available, err := call(r.coverage, r.client.ListImagesV2)(ctx, sandbox.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{sandbox.OrganizationID},
		Scope:           unikorn.ImageScopeAvailable,
		Status:          []string{unikorn.ImageReady, unikorn.ImagePending},
	})
	require.NoError(t, err)
	require.Contains(t, imageIDs(available), sandbox.ImageUbuntuID)

	owned, err := call(r.coverage, r.client.ListImagesV2)(ctx, sandbox.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{sandbox.OrganizationID},
		Scope:           unikorn.ImageScopeOwned,
	})
	require.NoError(t, err)
	require.Empty(t, owned, "the organization owns no image before it snapshots a server")
}

// requireCatalogue lists a catalogue's regions, flavors and images through the given
// methods, requires the fixture region, flavor and image among them and returns the
// images.
func (r *run) requireCatalogue(
	t *testing.T,
	listRegions func(context.Context, string) ([]unikorn.Region, error),
	listFlavors func(context.Context, string, string) ([]unikorn.Flavor, error),
	listImages func(context.Context, string, string) ([]unikorn.Image, error),
	flavorID, imageID string,
) []unikorn.Image {
	t.Helper()

	ctx := t.Context()

	regions, err := call(r.coverage, listRegions)(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	require.Contains(t, regionIDs(regions), sandbox.RegionID)

	flavors, err := call(r.coverage, listFlavors)(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	require.Contains(t, flavorIDs(flavors), flavorID)

	images, err := call(r.coverage, listImages)(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	require.Contains(t, imageIDs(images), imageID)

	return images
}

func (r *run) identity(t *testing.T) {
	ctx := t.Context()

	organizations, err := call(r.coverage, r.user.ListOrganizations)(ctx)
	require.NoError(t, err)
	require.Len(t, organizations, 1)
	require.Equal(t, sandbox.OrganizationID, organizations[0].Metadata.ID)

	organization, err := call(r.coverage, r.client.GetOrganization)(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	require.Equal(t, sandbox.OrganizationID, organization.Metadata.ID)

	projects, err := call(r.coverage, r.client.ListProjects)(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	require.Len(t, projects, 2)

	project, err := call(r.coverage, r.client.GetProject)(ctx, sandbox.OrganizationID, sandbox.ProjectID)
	require.NoError(t, err)
	require.Equal(t, sandbox.ProjectID, project.Metadata.ID)

	quotas, err := call(r.coverage, r.client.GetQuotas)(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	require.NotEmpty(t, quotas.Quotas)
}

func (r *run) networks(t *testing.T) {
	ctx := t.Context()
	providerReserved := 28

	created, err := call(r.coverage, r.client.CreateNetwork)(ctx, unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{
			Name:        "conformance",
			Description: "a network for the conformance test",
			Tags:        unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec: unikorn.NetworkSpec{
				DNSNameservers: []string{"1.1.1.1", "8.8.8.8"},
				Routes:         []unikorn.Route{{Prefix: "192.168.0.0/16", Nexthop: "10.20.0.1"}},
			},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			RegionID:       sandbox.RegionID,
			Prefix:         "10.20.0.0/24",
			Reservations:   &unikorn.NetworkReservations{PrefixLength: 26, ProviderReservedPrefixLength: &providerReserved},
		},
	})
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	r.networkID = created.Metadata.ID

	listed, err := call(r.coverage, r.client.ListNetworks)(ctx, unikorn.NetworkQuery{
		Tags:            unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
	})
	require.NoError(t, err)
	require.Equal(t, []string{r.networkID}, networkIDs(listed))

	r.waitForNetwork(t, unikorn.ProvisioningProvisioned)

	updated, err := call(r.coverage, r.client.UpdateNetwork)(ctx, r.networkID, unikorn.NetworkUpdate{
		Metadata: unikorn.WriteMetadata{
			Name: "conformance",
			Tags: unikorn.Tags{{Name: "purpose", Value: "conformance"}, {Name: "updated", Value: "yes"}},
		},
		Spec: unikorn.NetworkSpec{DNSNameservers: []string{"9.9.9.9"}},
	})
	require.NoError(t, err)
	require.Equal(t, []string{"9.9.9.9"}, updated.Spec.DNSNameservers)

	r.waitForNetwork(t, unikorn.ProvisioningProvisioned)
}

func (r *run) securityGroups(t *testing.T) {
	ctx := t.Context()
	ssh, webFrom, webTo := 22, 8000, 8080

	created, err := call(r.coverage, r.client.CreateSecurityGroup)(ctx, unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-ssh", Tags: unikorn.Tags{{Name: "purpose", Value: "conformance"}}},
		Spec: unikorn.SecurityGroupCreateSpec{
			NetworkID: r.networkID,
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
				{Direction: "ingress", Protocol: "tcp", Port: &ssh, Prefix: "10.0.0.0/8"},
				{Direction: "ingress", Protocol: "tcp", Port: &webFrom, PortMax: &webTo},
				{Direction: "egress", Protocol: "icmp"},
			}},
		},
	})
	require.NoError(t, err)

	r.securityGroupID = created.Metadata.ID

	listed, err := call(r.coverage, r.client.ListSecurityGroups)(ctx, unikorn.SecurityGroupQuery{
		Tags:            unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
		NetworkIDs:      []string{r.networkID},
	})
	require.NoError(t, err)
	require.Equal(t, []string{r.securityGroupID}, securityGroupIDs(listed))

	r.poll(t, "the security group to be provisioned", func() bool {
		group, err := call(r.coverage, r.client.GetSecurityGroup)(ctx, r.securityGroupID)
		require.NoError(t, err)

		return group.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned
	})

	updated, err := call(r.coverage, r.client.UpdateSecurityGroup)(ctx, r.securityGroupID, unikorn.SecurityGroupUpdate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-ssh", Description: "SSH only"},
		Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
			{Direction: "ingress", Protocol: "tcp", Port: &ssh},
		}},
	})
	require.NoError(t, err)
	require.Len(t, updated.Spec.Rules, 1)
}

func (r *run) sshCertificateAuthorities(t *testing.T) {
	ctx := t.Context()

	publicKey, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)

	sshKey, err := ssh.NewPublicKey(publicKey)
	require.NoError(t, err)

	authorizedKey := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshKey))) + " conformance@example.com"

	created, err := call(r.coverage, r.client.CreateSSHCertificateAuthority)(ctx, unikorn.SSHCertificateAuthorityCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-ca"},
		Spec: unikorn.SSHCertificateAuthorityCreateSpec{
			SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: authorizedKey},
			OrganizationID:              sandbox.OrganizationID,
			ProjectID:                   sandbox.ProjectID,
		},
	})
	require.NoError(t, err)

	r.caID = created.Metadata.ID

	listed, err := call(r.coverage, r.client.ListSSHCertificateAuthorities)(ctx, unikorn.SSHCertificateAuthorityQuery{
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
	})
	require.NoError(t, err)
	require.Contains(t, sshCAIDs(listed), r.caID)

	got, err := call(r.coverage, r.client.GetSSHCertificateAuthority)(ctx, r.caID)
	require.NoError(t, err)
	require.Equal(t, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshKey))), got.Spec.PublicKey, "stored without its comment")
}

func (r *run) serverLifecycle(t *testing.T) {
	ctx := t.Context()
	name := "conformance-server"

	create := unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{
			Name: name,
			Tags: unikorn.Tags{{Name: instanceTag, Value: "conformance-instance"}},
		},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{
				FlavorID:   sandbox.FlavorStandardID,
				ImageID:    sandbox.ImageUbuntuID,
				Networking: r.networking(),
				UserData:   base64.StdEncoding.EncodeToString([]byte("#cloud-config\npackages: [htop]\n")),
			},
			NetworkID:                 r.networkID,
			SSHCertificateAuthorityID: r.caID,
		},
	}

	created, err := call(r.coverage, r.client.CreateServer)(ctx, create)
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	r.serverID = created.Metadata.ID

	// The same name on the same network derives the same ID: a conflict.
	_, err = call(r.coverage, r.client.CreateServer)(ctx, create)
	require.True(t, unikorn.IsConflict(err), "a duplicate server name is a 409, got %v", err)

	listed, err := call(r.coverage, r.client.ListServers)(ctx, unikorn.ServerQuery{
		Tags:            unikorn.Tags{{Name: instanceTag, Value: "conformance-instance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
		NetworkIDs:      []string{r.networkID},
	})
	require.NoError(t, err)
	require.Equal(t, []string{r.serverID}, serverIDs(listed))

	r.waitForServer(t, "provisioned and running", func(s *unikorn.Server) bool {
		return s.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && s.Status.PowerState == unikorn.PowerRunning
	})

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{
			Name:        name,
			Description: "updated",
			Tags:        unikorn.Tags{{Name: instanceTag, Value: "conformance-instance"}, {Name: "updated", Value: "yes"}},
		},
		Spec: create.Spec.ServerSpec,
	}

	updated, err := call(r.coverage, r.client.UpdateServer)(ctx, r.serverID, update)
	require.NoError(t, err)
	require.Equal(t, "updated", updated.Metadata.Description)

	r.waitForServer(t, "provisioned again", func(s *unikorn.Server) bool {
		return s.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && s.Status.PowerState == unikorn.PowerRunning
	})

	// Names are immutable.
	update.Metadata.Name = "renamed"
	_, err = call(r.coverage, r.client.UpdateServer)(ctx, r.serverID, update)
	require.True(t, unikorn.IsUnprocessable(err), "a rename is a 422, got %v", err)
}

// networking is what the run's servers and instances attach to: every member set, so
// that each is seen on the wire.
func (r *run) networking() *unikorn.ServerNetworking {
	return &unikorn.ServerNetworking{
		SecurityGroups:         []string{r.securityGroupID},
		PublicIP:               true,
		AllowedSourceAddresses: []string{"192.0.2.0/24"},
	}
}

func (r *run) serverPower(t *testing.T) {
	ctx := t.Context()

	require.NoError(t, call(r.coverage, r.client.StopServer)(ctx, r.serverID))
	r.waitForServer(t, "stopped", func(s *unikorn.Server) bool { return s.Status.PowerState == unikorn.PowerStopped })

	require.NoError(t, call(r.coverage, r.client.StartServer)(ctx, r.serverID))
	r.waitForServer(t, "running", func(s *unikorn.Server) bool { return s.Status.PowerState == unikorn.PowerRunning })

	require.NoError(t, call(r.coverage, r.client.SoftRebootServer)(ctx, r.serverID))
	r.waitForServer(t, "running after a soft reboot", func(s *unikorn.Server) bool { return s.Status.PowerState == unikorn.PowerRunning })

	require.NoError(t, call(r.coverage, r.client.HardRebootServer)(ctx, r.serverID))
	r.waitForServer(t, "running after a hard reboot", func(s *unikorn.Server) bool { return s.Status.PowerState == unikorn.PowerRunning })
}

func (r *run) serverAccess(t *testing.T) {
	ctx := t.Context()

	key, err := call(r.coverage, r.client.GetServerSSHKey)(ctx, r.serverID)
	require.NoError(t, err)
	require.NotEmpty(t, key.PrivateKey)

	session, err := call(r.coverage, r.client.GetServerConsoleSession)(ctx, r.serverID)
	require.NoError(t, err)
	require.NotEmpty(t, session.URL)

	whole, err := call(r.coverage, r.client.GetServerConsoleOutput)(ctx, r.serverID, 0)
	require.NoError(t, err)

	tail, err := call(r.coverage, r.client.GetServerConsoleOutput)(ctx, r.serverID, 2)
	require.NoError(t, err)
	require.Len(t, strings.Split(tail.Contents, "\n"), 2)
	require.True(t, strings.HasSuffix(whole.Contents, tail.Contents), "the tail ends the whole output")
}

func (r *run) snapshot(t *testing.T) {
	ctx := t.Context()

	image, err := call(r.coverage, r.client.SnapshotServer)(ctx, r.serverID, unikorn.SnapshotCreate{
		Metadata: unikorn.WriteMetadata{
			Name: "conformance-snapshot",
			Tags: unikorn.Tags{{Name: "compute.unikorn-cloud.org:instance-id", Value: "conformance-instance"}},
		},
	})
	require.NoError(t, err)
	require.NotEqual(t, unikorn.ImageReady, image.Status.State)

	snapshotID := image.Metadata.ID

	r.poll(t, "the snapshot to be ready", func() bool {
		got, err := call(r.coverage, r.client.GetImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, snapshotID)
		require.NoError(t, err)

		return got.Status.State == unikorn.ImageReady
	})

	owned, err := call(r.coverage, r.client.ListImagesV2)(ctx, sandbox.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{sandbox.OrganizationID},
		Scope:           unikorn.ImageScopeOwned,
		Status:          []string{unikorn.ImageReady},
	})
	require.NoError(t, err)
	require.Equal(t, []string{snapshotID}, imageIDs(owned))

	ready, err := call(r.coverage, r.client.ListImages)(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	require.Contains(t, imageIDs(ready), snapshotID)

	require.NoError(t, call(r.coverage, r.client.DeleteImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, snapshotID))

	// Region's image cache shows a deleted image failed until the cloud has let it go.
	r.poll(t, "the deleted image to be gone", func() bool {
		got, err := call(r.coverage, r.client.GetImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, snapshotID)
		if err == nil {
			require.Equal(t, unikorn.ImageFailed, got.Status.State, "a deleted image shows failed")

			return false
		}

		require.True(t, unikorn.IsNotFound(err), "a deleted image is gone, got %v", err)

		return true
	})
}

// imageImport imports an image from a URI, waits for it to be ready, and deletes it.
func (r *run) imageImport(t *testing.T) {
	ctx := t.Context()

	image, err := call(r.coverage, r.client.CreateImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, unikorn.ImageCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-import", Tags: unikorn.Tags{{Name: "team", Value: "conformance"}}},
		Spec: unikorn.ImageCreateSpec{
			URI:              "https://images.example.com/noble.raw",
			Architecture:     unikorn.ArchitectureX86_64,
			Virtualization:   unikorn.VirtualizationVirtualized,
			OS:               unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Codename: "noble", Version: "24.04"},
			SoftwareVersions: map[string]string{"cuda": "v12.4.1"},
			GPU:              &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550.54", Models: []string{"L4"}},
		},
	})
	require.NoError(t, err)
	require.Equal(t, unikorn.ImagePending, image.Status.State)

	r.poll(t, "the imported image to be ready", func() bool {
		got, err := call(r.coverage, r.client.GetImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, image.Metadata.ID)
		require.NoError(t, err)

		return got.Status.State == unikorn.ImageReady
	})

	require.NoError(t, call(r.coverage, r.client.DeleteImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, image.Metadata.ID))
}

// errorAnswers provokes the error answers the contract declares, so that their bodies are
// checked too.
func (r *run) errorAnswers(t *testing.T) {
	ctx := t.Context()

	_, err := call(r.coverage, r.client.GetServer)(ctx, missingID)
	require.True(t, unikorn.IsNotFound(err), "a missing server is a 404, got %v", err)

	_, err = call(r.coverage, r.client.GetNetwork)(ctx, missingID)
	require.True(t, unikorn.IsNotFound(err), "a missing network is a 404, got %v", err)

	_, err = call(r.coverage, r.unauthenticated.ListRegions)(ctx, sandbox.OrganizationID)
	require.True(t, unikorn.IsUnauthorized(err), "an unknown token is a 401, got %v", err)

	_, err = call(r.coverage, r.user.GetProject)(ctx, foreignOrganizationID, sandbox.ProjectID)
	require.True(t, unikorn.IsForbidden(err), "another organization's project is a 403, got %v", err)
}

func (r *run) allocations(t *testing.T) {
	ctx := t.Context()

	write := unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind: "computeinstances.compute.unikorn-cloud.org",
			ID:   r.serverID,
			Allocations: []unikorn.ResourceAllocation{
				{Kind: "servers", Committed: 1},
				{Kind: "gpus", Committed: 0},
				{Kind: "floatingips", Committed: 1},
			},
		},
	}

	created, err := call(r.coverage, r.client.CreateAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, write)
	require.NoError(t, err)

	allocationID := created.Metadata.ID

	got, err := call(r.coverage, r.client.GetAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, allocationID)
	require.NoError(t, err)
	require.Equal(t, write.Spec, got.Spec)

	write.Spec.Allocations[2].Committed = 0
	updated, err := call(r.coverage, r.client.UpdateAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, allocationID, write)
	require.NoError(t, err)
	require.Equal(t, 0, updated.Spec.Allocations[2].Committed)

	// More GPUs than the organization's quota holds.
	greedy := write
	greedy.Spec.Allocations = []unikorn.ResourceAllocation{{Kind: "gpus", Committed: 1000}}
	_, err = call(r.coverage, r.client.CreateAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, greedy)
	require.True(t, unikorn.IsForbidden(err), "an allocation over quota is a 403, got %v", err)

	_, err = call(r.coverage, r.client.UpdateAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, allocationID, greedy)
	require.True(t, unikorn.IsForbidden(err), "an update over quota is a 403, got %v", err)

	require.NoError(t, call(r.coverage, r.client.DeleteAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, allocationID))

	_, err = call(r.coverage, r.client.GetAllocation)(ctx, sandbox.OrganizationID, sandbox.ProjectID, allocationID)
	require.True(t, unikorn.IsNotFound(err), "a deleted allocation is a 404, got %v", err)
}

// emptyLists covers the two ways region answers an empty list: `[]` when the filter
// matches nothing, and `null` when it leaves the caller no organization to list.
func (r *run) emptyLists(t *testing.T) {
	ctx := t.Context()

	none, err := call(r.coverage, r.client.ListServers)(ctx, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: "no-such", Value: "tag"}}})
	require.NoError(t, err)
	require.Empty(t, none)

	foreign, err := call(r.coverage, r.client.ListServers)(allowNullList(ctx), unikorn.ServerQuery{
		OrganizationIDs: []string{foreignOrganizationID},
	})
	require.NoError(t, err)
	require.Empty(t, foreign)
}

// teardown deletes what the run created, children first, as the contract requires.
func (r *run) teardown(t *testing.T) {
	ctx := t.Context()

	require.NoError(t, call(r.coverage, r.client.DeleteServer)(ctx, r.serverID))
	r.poll(t, "the server to be gone", func() bool {
		_, err := call(r.coverage, r.client.GetServer)(ctx, r.serverID)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})

	require.NoError(t, call(r.coverage, r.client.DeleteSSHCertificateAuthority)(ctx, r.caID))

	_, err := call(r.coverage, r.client.GetSSHCertificateAuthority)(ctx, r.caID)
	require.True(t, unikorn.IsNotFound(err), "a deleted SSH CA is gone at once, got %v", err)

	require.NoError(t, call(r.coverage, r.client.DeleteSecurityGroup)(ctx, r.securityGroupID))
	r.poll(t, "the security group to be gone", func() bool {
		_, err := call(r.coverage, r.client.GetSecurityGroup)(ctx, r.securityGroupID)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})

	require.NoError(t, call(r.coverage, r.client.DeleteNetwork)(ctx, r.networkID))
	r.poll(t, "the network to be gone", func() bool {
		_, err := call(r.coverage, r.client.GetNetwork)(ctx, r.networkID)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})
}

// poll calls done until it reports true, failing the step after settleTimeout.
func (r *run) poll(t *testing.T, what string, done func() bool) {
	t.Helper()

	deadline := time.Now().Add(settleTimeout)

	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}

		time.Sleep(pollInterval)
	}
}

func (r *run) waitForNetwork(t *testing.T, status string) {
	t.Helper()

	r.poll(t, "the network to be "+status, func() bool {
		network, err := call(r.coverage, r.client.GetNetwork)(t.Context(), r.networkID)
		require.NoError(t, err)

		return network.Metadata.ProvisioningStatus == status
	})
}

func (r *run) waitForServer(t *testing.T, what string, ready func(*unikorn.Server) bool) {
	t.Helper()

	r.poll(t, "the server to be "+what, func() bool {
		server, err := call(r.coverage, r.client.GetServer)(t.Context(), r.serverID)
		require.NoError(t, err)

		return ready(server)
	})
}

func regionIDs(regions []unikorn.Region) []string {
	return ids(regions, func(r unikorn.Region) string { return r.Metadata.ID })
}

func flavorIDs(flavors []unikorn.Flavor) []string {
	return ids(flavors, func(f unikorn.Flavor) string { return f.Metadata.ID })
}

func imageIDs(images []unikorn.Image) []string {
	return ids(images, func(i unikorn.Image) string { return i.Metadata.ID })
}

func networkIDs(networks []unikorn.Network) []string {
	return ids(networks, func(n unikorn.Network) string { return n.Metadata.ID })
}

func securityGroupIDs(groups []unikorn.SecurityGroup) []string {
	return ids(groups, func(g unikorn.SecurityGroup) string { return g.Metadata.ID })
}

func sshCAIDs(cas []unikorn.SSHCertificateAuthority) []string {
	return ids(cas, func(c unikorn.SSHCertificateAuthority) string { return c.Metadata.ID })
}

func serverIDs(servers []unikorn.Server) []string {
	return ids(servers, func(s unikorn.Server) string { return s.Metadata.ID })
}

func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, id(item))
	}

	return out
}
