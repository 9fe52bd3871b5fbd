package acctest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// EnvKubernetesVersion names, against a real Unikorn, a Kubernetes version the
// region has images of (`v1.31.0`).
const EnvKubernetesVersion = "UNIKORN_ACC_KUBERNETES_VERSION"

// SandboxKubernetesVersion is the version of Kubernetes the sandbox's clusters have.
const SandboxKubernetesVersion = "v1.31.0"

// ProjectUserSettings are the provider's settings for the sandbox's fixture project
// user (sandbox.DefaultToken), with no instance back end: the Kubernetes service asks
// every caller for the exact permission identity's chart grants, which a project user
// holds and the compute service's account, the environment's own, does not. Against
// a real Unikorn they are the environment's.
func (e *Environment) ProjectUserSettings() ProviderSettings {
	settings := e.Settings
	if e.IsSandbox() {
		settings.Token, settings.InstanceAPI = sandbox.DefaultToken, ""
	}

	return settings
}

// KubernetesVersion is a Kubernetes version the environment's region offers clusters
// of. The Kubernetes service offers the versions its region's images carry; a sandbox
// whose images carry none is given one: an image of the organization's, imported from
// a URL as region imports any, whose ID it returns beside (empty when none was made),
// for checks of what a test left behind.
func (e *Environment) KubernetesVersion(t *testing.T) (version, imageID string) {
	t.Helper()

	if !e.IsSandbox() {
		version := os.Getenv(EnvKubernetesVersion)
		if version == "" {
			t.Skipf("Kubernetes clusters against a real Unikorn need %s to name a version the region has images of", EnvKubernetesVersion)
		}

		return version, ""
	}

	ctx := context.Background()
	// The Kubernetes service's catalogue is a project user's to read, not the compute
	// service's account's, which the checks' client holds.
	user := e.ClientAs(t, sandbox.DefaultToken)

	images, err := user.ListKubernetesImages(ctx, e.Settings.OrganizationID, e.RegionID)
	require.NoError(t, err)

	for _, image := range images {
		if image.Spec.SoftwareVersions[unikorn.KubernetesVersionKey] == SandboxKubernetesVersion {
			return SandboxKubernetesVersion, ""
		}
	}

	image, err := e.Client.CreateImage(ctx, e.Settings.OrganizationID, e.RegionID, unikorn.ImageCreate{
		Metadata: unikorn.WriteMetadata{Name: "kubernetes-" + SandboxKubernetesVersion},
		Spec: unikorn.ImageCreateSpec{
			URI: "https://images.example.com/kubernetes-" + SandboxKubernetesVersion + ".raw", Architecture: unikorn.ArchitectureX86_64,
			Virtualization:   unikorn.VirtualizationAny,
			OS:               unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Version: "24.04"},
			SoftwareVersions: map[string]string{unikorn.KubernetesVersionKey: SandboxKubernetesVersion},
		},
	})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		images, err := user.ListKubernetesImages(ctx, e.Settings.OrganizationID, e.RegionID)

		return err == nil && len(images) > 0
	}, time.Minute, 10*time.Millisecond, "the Kubernetes image to be ready")

	return SandboxKubernetesVersion, image.Metadata.ID
}

// KubernetesClusters returns every cluster the sandbox's Kubernetes service holds,
// as it is rather than as a lagging list shows it.
func (e *Environment) KubernetesClusters(t *testing.T) []unikorn.KubernetesCluster {
	t.Helper()
	e.SkipUnlessSandbox(t)

	request, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		e.base.Endpoints[services.Region]+"/sandbox/v1/kubernetesclusters", nil)
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)

	response, err := http.DefaultClient.Do(request)
	require.NoError(t, err)

	defer response.Body.Close()

	require.Equal(t, http.StatusOK, response.StatusCode)

	var clusters []unikorn.KubernetesCluster
	require.NoError(t, json.NewDecoder(response.Body).Decode(&clusters))

	return clusters
}
