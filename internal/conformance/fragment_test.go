package conformance

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// computeVolumesFragment holds compute's instance schemas of the compute that attaches
// volumes (spec.volumes, status.volumes): not a document, a run of components.
const computeVolumesFragment = "compute-instance-volumes-0135162.fragment.yaml"

// fragmentReferences map the cross-file references a fragment keeps as upstream wrote
// them (URLs of versions not published here) to the documents beside it that hold the
// same schemas: region v1.25.0-rc2's volume ID, and the flavor and network IDs, as
// the volume document of that line has them; the rest as region v1.20.0 has them.
var fragmentReferences = []struct{ from, to string }{
	{"https://raw.githubusercontent.com/unikorn-cloud/region/v1.25.0-rc2/pkg/openapi/server.spec.yaml#/components/schemas/volumeId",
		"region-volumes-4e37c3d.spec.yaml#/components/schemas/volumeId"},
	{"https://raw.githubusercontent.com/unikorn-cloud/region/v1.25.0-rc2/pkg/openapi/server.spec.yaml#/components/schemas/flavorId",
		"region-volumes-4e37c3d.spec.yaml#/components/schemas/flavorId"},
	{"https://raw.githubusercontent.com/unikorn-cloud/region/v1.25.0-rc2/pkg/openapi/server.spec.yaml#/components/schemas/networkId",
		"region-volumes-4e37c3d.spec.yaml#/components/schemas/networkId"},
	{"https://raw.githubusercontent.com/unikorn-cloud/region/v1.25.0-rc2/pkg/openapi/server.spec.yaml", "region-v1.20.0.spec.yaml"},
	{"https://raw.githubusercontent.com/unikorn-cloud/identity/v1.17.7/pkg/openapi/server.spec.yaml", "identity-v1.17.7.spec.yaml"},
	{"https://raw.githubusercontent.com/unikorn-cloud/core/v1.17.1/pkg/openapi/common.spec.yaml", "core-v1.17.1.spec.yaml"},
}

// loadFragment loads a fragment as a document of its components alone, its references
// resolved among the documents in dir. The file stays as upstream wrote it; only the
// copy loaded here is given a document's head and local references.
func loadFragment(t *testing.T, dir, name string) *openapi3.T {
	t.Helper()

	raw, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)

	text := string(raw)
	for _, ref := range fragmentReferences {
		text = strings.ReplaceAll(text, ref.from, ref.to)
	}

	require.NotContains(t, text, "https://", "%s refers to a document not mapped to one beside it", name)

	text = "openapi: 3.0.3\ninfo:\n  title: " + name + "\n  version: '0'\npaths: {}\n" + text

	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true

	doc, err := loader.LoadFromDataWithPath([]byte(text), &url.URL{Path: filepath.Join(dir, name)})
	require.NoError(t, err, "loading %s", name)
	require.NoError(t, doc.Validate(t.Context()), "validating %s", name)

	return doc
}

// patchSchemas puts the fragment's schemas in place of the document's of the same name:
// every operation that refers to one judges by the fragment's.
func patchSchemas(t *testing.T, doc, fragment *openapi3.T) {
	t.Helper()

	patched := 0

	for name, schema := range fragment.Components.Schemas {
		if own, ok := doc.Components.Schemas[name]; ok && own.Value != nil {
			*own.Value = *schema.Value
			patched++
		}
	}

	require.NotZero(t, patched, "the fragment shares no schema with the document")
}

// Compute's instances are judged with their volumes: a create's and an update's set, a
// read's attachments, and nothing the fragment does not declare.
func TestComputeInstancesAreJudgedWithTheirVolumes(t *testing.T) {
	dir := os.Getenv(openAPIDirEnv)
	if dir == "" {
		t.Skipf("%s is not set", openAPIDirEnv)
	}

	c := loadContract(t, dir)

	var compute service

	for _, s := range c.services {
		if s.name == "compute" {
			compute = s
		}
	}

	request := httptest.NewRequest(http.MethodPut, "/api/v2/instances/b0000000-0000-4000-8000-000000000001", nil)

	route, _, err := compute.router.FindRoute(request)
	require.NoError(t, err)

	spec := route.Operation.RequestBody.Value.Content.Get("application/json").Schema.Value.Properties["spec"].Value
	assert.Contains(t, spec.Properties, "volumes", "an update's spec carries the volume set")

	response := route.Operation.Responses.Status(202).Value.Content.Get("application/json").Schema.Value
	assert.Contains(t, response.Properties["status"].Value.Properties, "volumes", "a read's status carries the attachments")

	volumes := spec.Properties["volumes"].Value
	require.Error(t, volumes.VisitJSON([]any{"not-a-uuid"}, c.options.SchemaValidationOptions...), "a volume ID is a UUID")
	require.NoError(t, volumes.VisitJSON([]any{"b0000000-0000-4000-8000-000000000002"}, c.options.SchemaValidationOptions...))
}
