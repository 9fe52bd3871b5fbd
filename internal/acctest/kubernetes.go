package acctest

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// EnvKubernetesVersion names, against a real Unikorn, a Kubernetes version the
// region has images of (`v1.31.0`).
const EnvKubernetesVersion = "UNIKORN_ACC_KUBERNETES_VERSION"

// ProjectUserSettings are the provider's settings for the sandbox's fixture project
// user (sandbox.DefaultToken), with no instance back end: what a member of the
// organization holds and sees, where the environment's own token, a platform
// administrator's, reaches every organization. Against a real Unikorn they are the
// environment's.
func (e *Environment) ProjectUserSettings() ProviderSettings {
	settings := e.Settings
	if e.IsSandbox() {
		settings.Token, settings.InstanceAPI = sandbox.DefaultToken, ""
	}

	return settings
}

// KubernetesVersion is a Kubernetes version the environment's region offers clusters
// of: in the sandbox, the newest its fixture's node images carry, on both
// architectures.
func (e *Environment) KubernetesVersion(t *testing.T) string {
	t.Helper()

	if e.IsSandbox() {
		return sandbox.KubernetesVersion
	}

	version := os.Getenv(EnvKubernetesVersion)
	if version == "" {
		t.Skipf("Kubernetes clusters against a real Unikorn need %s to name a version the region has images of", EnvKubernetesVersion)
	}

	return version
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
