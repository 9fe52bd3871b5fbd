package services_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Every declaration is whole, and its names follow from the service's, so that an
// entry cannot be half made: each layer reads every field of it.
func TestEveryServiceIsDeclaredWhole(t *testing.T) {
	t.Parallel()

	assert.Len(t, services.All(), int(services.Count))

	prefixes := map[string]services.Service{}

	for _, service := range services.All() {
		name := service.Name()
		assert.NotEmpty(t, name, "service %d has no declaration", int(service))
		assert.Equal(t, name+"_endpoint", service.Attribute())
		assert.Equal(t, "UNIKORN_"+strings.ToUpper(name)+"_ENDPOINT", service.EnvVar())
		assert.Contains(t, service.MarkdownDescription(), "`"+service.EnvVar()+"`", "the description names the variable")
		assert.Contains(t, service.MarkdownDescription(), "Base URL of the Unikorn "+name+" API")

		// A service with paths of its own may share the root; one whose paths another
		// has too has a prefix of its own, found nowhere else.
		if prefix := service.SandboxPrefix(); prefix != "" {
			assert.True(t, strings.HasPrefix(prefix, "/") && !strings.HasSuffix(prefix, "/"), "%s: prefix %q", name, prefix)

			other, taken := prefixes[prefix]
			assert.False(t, taken, "%s and %s share the prefix %q", name, other, prefix)
			prefixes[prefix] = service
		}

		assert.Equal(t, "http://127.0.0.1:8080"+service.SandboxPrefix(), services.InSandbox("http://127.0.0.1:8080")[service])
	}

	assert.True(t, services.Region.Required(), "region is needed whatever the provider does")
}

// A copy of endpoints is a copy: a second provider block's settings changed from the
// first's leave the first's as they were.
func TestEndpointsCopyByValue(t *testing.T) {
	t.Parallel()

	first := services.InSandbox("http://sandbox")
	second := first
	second[services.Compute] = ""

	assert.Equal(t, "http://sandbox/compute", first[services.Compute])
}
