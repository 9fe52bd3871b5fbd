package cluster_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// version is the fixture's newest Kubernetes, on offer on both architectures.
const version = sandbox.KubernetesVersion

type harness struct {
	*sandboxtest.Harness
	user *unikorn.Client
}

// newHarness starts a sandbox on a clock the test moves, with the fixture project
// user's client: the region's Kubernetes node images are the fixture's.
func newHarness(t *testing.T, mutate ...func(*sandbox.Options)) *harness {
	t.Helper()

	h := &harness{Harness: sandboxtest.New(t, mutate...)}
	h.user = h.client(t, sandbox.DefaultToken)

	return h
}

// client is a wire client of the sandbox as the one whose token it is.
func (h *harness) client(t *testing.T, token string) *unikorn.Client {
	t.Helper()

	c, err := unikorn.NewClient(unikorn.Config{Endpoints: services.InSandbox(h.URL), Token: token, Retry: unikorn.RetryPolicy{MaxAttempts: 1}})
	require.NoError(t, err)

	return c
}

func pools(replicas ...int) []unikorn.KubernetesClusterPool {
	out := []unikorn.KubernetesClusterPool{}
	for i, n := range replicas {
		out = append(out, unikorn.KubernetesClusterPool{
			Name: string(rune('a' + i)), Machine: unikorn.KubernetesMachinePool{Replicas: &n, FlavorID: sandbox.FlavorStandardID},
		})
	}

	return out
}

func write(name string, pools []unikorn.KubernetesClusterPool) unikorn.KubernetesClusterWrite {
	return unikorn.KubernetesClusterWrite{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.KubernetesClusterSpec{
			RegionID: sandbox.RegionID, Version: version, WorkloadPools: pools,
			API:        &unikorn.KubernetesClusterAPI{AllowedPrefixes: []string{"10.0.0.0/8"}},
			Networking: &unikorn.KubernetesClusterNetwork{NodePrefix: "192.168.10.0/24"},
		},
	}
}

// settle moves the clock past a cluster's provisioning: its manager's delay, then two
// of its own.
func (h *harness) settle() { h.Clock.Advance(3 * sandboxtest.Settle) }

func (h *harness) cluster(t *testing.T, id string) *unikorn.KubernetesCluster {
	t.Helper()

	clusters, err := h.user.ListKubernetesClusters(t.Context(), sandbox.OrganizationID, nil)
	require.NoError(t, err)

	for i := range clusters {
		if clusters[i].Metadata.ID == id {
			return &clusters[i]
		}
	}

	return nil
}

// A cluster's whole life as the service answers it: a create answered pending, with
// the project's implicit manager, made once; no API settings or networking shown;
// a kubeconfig only once provisioned; an update answered with no body, shown with its
// pools; its quota charged and moved; a delete that releases the quota before the
// cluster leaves the list, and leaves the manager.
func TestClusterLife(t *testing.T) {
	t.Parallel()

	h := newHarness(t)
	ctx := t.Context()

	created, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("web", pools(2)))
	require.NoError(t, err)
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.NotEmpty(t, created.Spec.ClusterManagerID, "the project's default manager")
	assert.Nil(t, created.Spec.API)
	assert.Nil(t, created.Spec.Networking)

	id := created.Metadata.ID

	_, err = h.user.GetKubernetesClusterKubeconfig(ctx, sandbox.OrganizationID, sandbox.ProjectID, id)
	require.True(t, unikorn.IsNotFound(err), "no kubeconfig before it is provisioned: %v", err)

	h.settle()
	require.Equal(t, unikorn.ProvisioningProvisioned, h.cluster(t, id).Metadata.ProvisioningStatus)

	raw, err := h.user.GetKubernetesClusterKubeconfig(ctx, sandbox.OrganizationID, sandbox.ProjectID, id)
	require.NoError(t, err)
	assert.Contains(t, string(raw), "client-key-data")

	second, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("batch", pools(1)))
	require.NoError(t, err)
	assert.Equal(t, created.Spec.ClusterManagerID, second.Spec.ClusterManagerID, "one implicit manager per project")
	require.NoError(t, h.user.DeleteKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, second.Metadata.ID))

	update := write("web", pools(3, 1))
	update.Spec.ClusterManagerID = created.Spec.ClusterManagerID
	require.NoError(t, h.user.UpdateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, id, update))

	shown := h.cluster(t, id)
	require.Len(t, shown.Spec.WorkloadPools, 2)
	assert.Equal(t, 3, *shown.Spec.WorkloadPools[0].Machine.Replicas)
	assert.Equal(t, unikorn.ProvisioningProvisioning, shown.Metadata.ProvisioningStatus)

	require.NoError(t, h.user.DeleteKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, id))
	require.NoError(t, h.user.DeleteKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, id), "a repeat while deleting")

	h.settle()
	require.Nil(t, h.cluster(t, id))
	require.Nil(t, h.cluster(t, second.Metadata.ID))

	var kinds []string

	for _, object := range h.Sandbox.Objects() {
		if !object.Fixture {
			kinds = append(kinds, object.Kind)
		}
	}

	assert.NotContains(t, kinds, "allocation", "the clusters' quota is released")
	assert.NotContains(t, kinds, cluster.ObjectCluster)
	assert.Contains(t, kinds, cluster.ObjectManager, "the implicit manager stays")

	err = h.user.DeleteKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, id)
	assert.True(t, unikorn.IsNotFound(err), "a cluster gone is not found: %v", err)
}

// The service offers the region's Kubernetes node images, and no other: the
// fixture's, by name. A cluster may have any version they carry, on the
// architectures they carry it for; the older version has no aarch64 image, and a
// cluster of it on an aarch64 flavor is refused as the service refuses it (500).
func TestNodeImages(t *testing.T) {
	t.Parallel()

	h := newHarness(t)
	ctx := t.Context()

	images, err := h.user.ListKubernetesImages(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)

	ids := make([]string, 0, len(images))
	for _, image := range images {
		ids = append(ids, image.Metadata.ID)
	}

	assert.Equal(t, []string{sandbox.ImageKubernetesOlderID, sandbox.ImageKubernetesID, sandbox.ImageKubernetesArmID}, ids)

	one := 1
	arm := []unikorn.KubernetesClusterPool{{Name: "arm", Machine: unikorn.KubernetesMachinePool{Replicas: &one, FlavorID: sandbox.FlavorArmID}}}

	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("arm", arm))
	require.NoError(t, err)

	older := write("older", pools(1))
	older.Spec.Version = sandbox.KubernetesOlderVersion
	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, older)
	require.NoError(t, err)

	olderArm := write("older-arm", arm)
	olderArm.Spec.Version = sandbox.KubernetesOlderVersion
	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, olderArm)
	assertStatus(t, err, http.StatusInternalServerError)
}

// What the service refuses it refuses as it does: a quota that would be exceeded
// (403, nothing made), an even control plane (400), a version no image carries (500),
// a manager that does not exist (400); an update that leaves its manager out gets no
// answer at all; there is no read of one cluster.
func TestClusterRefusals(t *testing.T) {
	t.Parallel()

	h := newHarness(t, func(o *sandbox.Options) { o.Quotas = map[string]int{"servers": 2} })
	ctx := t.Context()

	_, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("big", pools(2, 1)))
	require.Error(t, err)
	assert.Equal(t, unikorn.ClassQuota, unikorn.Classify(err).Class, "%v", err)
	assert.Equal(t, "servers", unikorn.Classify(err).Quota)

	even := write("even", pools(1))
	two := 2
	even.Spec.ControlPlane = &unikorn.KubernetesClusterControlPlane{FlavorID: sandbox.FlavorStandardID, Replicas: &two}
	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, even)
	assertStatus(t, err, http.StatusBadRequest)

	old := write("old", pools(1))
	old.Spec.Version = "1.31.0"
	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, old)
	assertStatus(t, err, http.StatusInternalServerError)

	named := write("named", pools(1))
	named.Spec.ClusterManagerID = "f0000000-0000-4000-8000-00000000dead"
	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, named)
	assertStatus(t, err, http.StatusBadRequest)

	clusters, err := h.user.ListKubernetesClusters(ctx, sandbox.OrganizationID, nil)
	require.NoError(t, err)
	assert.Empty(t, clusters, "nothing was made")

	created, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("web", pools(1)))
	require.NoError(t, err)

	err = h.user.UpdateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, created.Metadata.ID, write("web", pools(1)))
	require.Error(t, err)
	assert.Equal(t, unikorn.ClassDropped, unikorn.Classify(err).Class, "no answer: %v", err)

	response := h.do(t, http.MethodGet, "/api/v1/organizations/"+sandbox.OrganizationID+"/projects/"+sandbox.ProjectID+"/clusters/"+created.Metadata.ID)
	assert.Contains(t, []int{http.StatusNotFound, http.StatusMethodNotAllowed}, response)
}

// Lists show only what the caller may read: another organization's member sees none
// of the fixture organization's clusters, and is refused a create; the cluster
// managers are the platform's, so a project user sees none.
func TestVisibility(t *testing.T) {
	t.Parallel()

	h := newHarness(t)
	ctx := t.Context()

	_, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("web", pools(1)))
	require.NoError(t, err)

	foreign := h.client(t, sandbox.ForeignToken)

	clusters, err := foreign.ListKubernetesClusters(ctx, sandbox.OrganizationID, nil)
	require.NoError(t, err)
	assert.Empty(t, clusters)

	_, err = foreign.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("web", pools(1)))
	assertStatus(t, err, http.StatusForbidden)

	managers, err := h.user.ListClusterManagers(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	assert.Empty(t, managers)

	managers, err = h.client(t, sandbox.PlatformAdminToken).ListClusterManagers(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	assert.Len(t, managers, 1, "the platform administrator's")
}

// A cluster is one of the organization's `clusters`, charged as the service charges
// it: the one past the quota is refused, and a deleted one's is released.
func TestClustersQuota(t *testing.T) {
	t.Parallel()

	h := newHarness(t, func(o *sandbox.Options) { o.Quotas = map[string]int{"clusters": 1} })
	ctx := t.Context()

	first, err := h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("web", pools(1)))
	require.NoError(t, err)

	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("batch", pools(1)))
	require.Error(t, err)
	assert.Equal(t, unikorn.ClassQuota, unikorn.Classify(err).Class, "%v", err)
	assert.Equal(t, "clusters", unikorn.Classify(err).Quota)

	require.NoError(t, h.user.DeleteKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, first.Metadata.ID))
	h.settle()

	_, err = h.user.CreateKubernetesCluster(ctx, sandbox.OrganizationID, sandbox.ProjectID, write("batch", pools(1)))
	require.NoError(t, err)
}

func assertStatus(t *testing.T, err error, status int) {
	t.Helper()

	var apiErr *unikorn.APIError
	if assert.ErrorAs(t, err, &apiErr) {
		assert.Equal(t, status, apiErr.StatusCode, "%v", err)
	}
}

func (h *harness) do(t *testing.T, method, path string) int {
	t.Helper()

	request, err := http.NewRequestWithContext(t.Context(), method, h.URL+cluster.Prefix+path, bytes.NewReader(nil))
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)

	response, err := http.DefaultClient.Do(request)
	require.NoError(t, err)
	require.NoError(t, response.Body.Close())

	return response.StatusCode
}
