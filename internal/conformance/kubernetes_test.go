package conformance

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// kubernetesPrefix is the path under which the sandbox serves its Kubernetes service,
// whose catalogue paths are region's and compute's too.
var kubernetesPrefix = services.Kubernetes.SandboxPrefix()

// servesKubernetes reports whether the sandbox at base answers the Kubernetes
// service's list of clusters under kubernetesPrefix. It asks outside the recorder: a
// sandbox without the service answers 404, which is no exchange of the contract.
func servesKubernetes(t *testing.T, client *http.Client, base string) bool {
	t.Helper()

	request, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		base+kubernetesPrefix+"/api/v1/organizations/"+sandbox.OrganizationID+"/clusters", nil)
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)

	response, err := client.Do(request)
	require.NoError(t, err)
	require.NoError(t, response.Body.Close())

	return response.StatusCode == http.StatusOK
}

// isKubernetesMethod tells the client methods that call the Kubernetes service from
// the others, so that a sandbox without it waives exactly those.
func isKubernetesMethod(name string) bool {
	return strings.Contains(name, "Kubernetes") || strings.Contains(name, "ClusterManager")
}
