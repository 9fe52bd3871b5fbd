package conformance

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// kubernetesPrefix is the path under which the sandbox serves its Kubernetes service,
// whose catalogue paths are region's and compute's too.
var kubernetesPrefix = services.Kubernetes.SandboxPrefix()

// isKubernetesMethod tells the client methods that call the Kubernetes service from
// the others, so that a sandbox without it waives exactly those.
func isKubernetesMethod(name string) bool {
	return strings.Contains(name, "Kubernetes") || strings.Contains(name, "ClusterManager")
}

// kubernetes drives a cluster through its whole life as a project user, through the
// Kubernetes service's catalogue: the region's Kubernetes node images, the fixture's,
// and the newest version they carry.
func (r *run) kubernetes(t *testing.T) {
	ctx := t.Context()

	images, err := call(r.coverage, r.user.ListKubernetesImages)(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	require.Equal(t, []string{sandbox.ImageKubernetesOlderID, sandbox.ImageKubernetesID, sandbox.ImageKubernetesArmID}, imageIDs(images),
		"the region's Kubernetes node images, and no other")

	regions, err := call(r.coverage, r.user.ListKubernetesRegions)(ctx, sandbox.OrganizationID, unikorn.KubernetesRegionPhysical)
	require.NoError(t, err)
	require.Contains(t, regionIDs(regions), sandbox.RegionID)

	flavors, err := call(r.coverage, r.user.ListKubernetesFlavors)(ctx, sandbox.OrganizationID, sandbox.RegionID)
	require.NoError(t, err)
	require.Contains(t, flavorIDs(flavors), sandbox.FlavorStandardID)
	require.NotContains(t, flavorIDs(flavors), sandbox.FlavorTinyID, "too small for Kubernetes")

	replicas, minimum := 2, 1
	write := unikorn.KubernetesClusterWrite{
		Metadata: unikorn.WriteMetadata{Name: "conformance", Tags: unikorn.Tags{{Name: "conformance", Value: "yes"}}},
		Spec: unikorn.KubernetesClusterSpec{
			RegionID: sandbox.RegionID, Version: sandbox.KubernetesVersion,
			AutoUpgrade: &unikorn.KubernetesClusterAutoUpgrade{Enabled: true, DaysOfWeek: &unikorn.KubernetesClusterUpgradeDay{
				Saturday: &unikorn.KubernetesClusterUpgradeWindow{Start: 22, End: 4},
			}},
			Features: &unikorn.KubernetesClusterFeatures{HardwareEnablement: false},
			WorkloadPools: []unikorn.KubernetesClusterPool{{
				Name: "general", Machine: unikorn.KubernetesMachinePool{Replicas: &replicas, FlavorID: sandbox.FlavorStandardID},
				Labels: map[string]string{"tier": "web"}, Autoscaling: &unikorn.KubernetesClusterAutoscaling{MinimumReplicas: minimum},
			}},
			API:        &unikorn.KubernetesClusterAPI{AllowedPrefixes: []string{"10.0.0.0/8"}, SubjectAlternativeNames: []string{"k8s.example.com"}},
			Networking: &unikorn.KubernetesClusterNetwork{NodePrefix: "192.168.10.0/24"},
		},
	}

	created, err := call(r.coverage, r.user.CreateKubernetesCluster)(ctx, sandbox.OrganizationID, sandbox.ProjectID, write)
	require.NoError(t, err)

	id := created.Metadata.ID

	_, err = call(r.coverage, r.user.GetKubernetesClusterKubeconfig)(ctx, sandbox.OrganizationID, sandbox.ProjectID, id)
	require.True(t, unikorn.IsNotFound(err), "no kubeconfig before it is provisioned: %v", err)

	tagged := func() *unikorn.KubernetesCluster {
		clusters, err := call(r.coverage, r.user.ListKubernetesClusters)(ctx, sandbox.OrganizationID, write.Metadata.Tags)
		require.NoError(t, err)

		for i := range clusters {
			if clusters[i].Metadata.ID == id {
				return &clusters[i]
			}
		}

		return nil
	}

	r.poll(t, "the cluster to be provisioned", func() bool {
		c := tagged()

		return c != nil && c.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned
	})

	kubeconfig, err := call(r.coverage, r.user.GetKubernetesClusterKubeconfig)(ctx, sandbox.OrganizationID, sandbox.ProjectID, id)
	require.NoError(t, err)
	require.NotEmpty(t, kubeconfig)

	managers, err := call(r.coverage, r.user.ListClusterManagers)(ctx, sandbox.OrganizationID)
	require.NoError(t, err)
	require.Empty(t, managers, "only platform principals see cluster managers")

	replicas = 3
	write.Spec.ClusterManagerID = created.Spec.ClusterManagerID
	require.NoError(t, call(r.coverage, r.user.UpdateKubernetesCluster)(ctx, sandbox.OrganizationID, sandbox.ProjectID, id, write))

	require.NoError(t, call(r.coverage, r.user.DeleteKubernetesCluster)(ctx, sandbox.OrganizationID, sandbox.ProjectID, id))
	r.poll(t, "the cluster to be gone", func() bool { return tagged() == nil })
}
