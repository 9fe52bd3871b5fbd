package acctest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Every declared service reaches the acceptance tests: the sandbox environment names
// where the sandbox serves it, the provider block sets its attribute, and a real
// target reads it from its variable. Compute's alone is the instance back end's, for
// the compute back end only.
func TestEveryServiceReachesTheAcceptanceTests(t *testing.T) {
	env := startSandbox(t, harshness{visibility: true, backend: RegionBackend})
	env.base = env.Settings

	for _, service := range services.All() {
		t.Setenv(service.EnvVar(), "https://"+service.Name()+".example.com")
	}

	target := fromEnvironmentFor(t)
	// Where the sandbox listens, region's being at its root.
	base := strings.TrimSuffix(env.Settings.Endpoints[services.Region], services.Region.SandboxPrefix())
	require.Regexp(t, `^http://127\.0\.0\.1:\d+$`, base)

	for backend, settings := range map[Backend]ProviderSettings{
		RegionBackend:  env.SettingsFor(t, RegionBackend),
		ComputeBackend: env.SettingsFor(t, ComputeBackend),
	} {
		for _, service := range services.All() {
			want := base + service.SandboxPrefix()
			if service == services.Compute && backend != ComputeBackend {
				want = ""
			}

			assert.Equal(t, want, settings.Endpoints[service], "%s under the %s back end", service, backend.InstanceAPI)

			if want != "" {
				assert.Contains(t, settings.Config(), "  "+service.Attribute()+" = "+Quote(want)+"\n")
			}

			assert.Equal(t, "https://"+service.Name()+".example.com", target.Settings.Endpoints[service], "%s from %s", service, service.EnvVar())
		}
	}
}

// fromEnvironmentFor reads a real target whose other variables are set too.
func fromEnvironmentFor(t *testing.T) *Environment {
	t.Helper()

	for _, name := range []string{EnvToken, EnvOrganizationID, EnvProjectID, EnvRegionID, EnvNetworkID, EnvFlavorID, EnvImageID} {
		t.Setenv(name, "x")
	}

	env := fromEnvironment(t)
	require.NotNil(t, env)

	return env
}
