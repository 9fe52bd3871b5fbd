package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The endpoint variables the tests below set.
var (
	envRegionEndpoint   = services.Region.EnvVar()
	envIdentityEndpoint = services.Identity.EnvVar()
	envComputeEndpoint  = services.Compute.EnvVar()
)

// env is a fake environment, so that these tests run in parallel.
type env map[string]string

func (e env) get(name string) string { return e[name] }

// nullModel is a provider block with nothing set.
func nullModel() providerModel {
	model := providerModel{
		Token:          types.StringNull(),
		OrganizationID: types.StringNull(),
		ProjectID:      types.StringNull(),
		CACertificate:  types.StringNull(),
		Insecure:       types.BoolNull(),
		RequestTimeout: types.StringNull(),
		InstanceAPI:    types.StringNull(),
		TokenSealKey:   types.StringNull(),
	}

	for _, service := range services.All() {
		model.Endpoints[service] = types.StringNull()
	}

	return model
}

func fullEnv() env {
	return env{
		envRegionEndpoint:   "http://127.0.0.1:1",
		envIdentityEndpoint: "http://127.0.0.1:2",
		envToken:            "from-env",
		envOrganizationID:   "c0000000-0000-4000-8000-0000000000e1",
		envProjectID:        "c0000000-0000-4000-8000-0000000000e2",
	}
}

// errorPaths returns the attribute path of every error, failing on one without.
func errorPaths(t *testing.T, diags diag.Diagnostics) []path.Path {
	t.Helper()

	var paths []path.Path

	for _, d := range diags.Errors() {
		withPath, ok := d.(diag.DiagnosticWithPath)
		require.True(t, ok, "diagnostic %q has no attribute path", d.Summary())

		paths = append(paths, withPath.Path())
	}

	return paths
}

func TestConfigureReportsEachMissingValueOnce(t *testing.T) {
	t.Parallel()

	data, diags := configure(nullModel(), "test", env{}.get)

	assert.Nil(t, data)
	assert.Equal(t, []path.Path{path.Root("region_endpoint"), path.Root("identity_endpoint"), path.Root("token")},
		errorPaths(t, diags))

	for _, d := range diags.Errors() {
		attribute := d.Summary()[len("Missing "):]
		assert.Contains(t, d.Detail(), `"`+attribute+`"`, "names the attribute")
		assert.Contains(t, d.Detail(), "UNIKORN_"+map[string]string{
			"region_endpoint":   "REGION_ENDPOINT",
			"identity_endpoint": "IDENTITY_ENDPOINT",
			"token":             "TOKEN",
		}[attribute], "names the environment variable")
	}
}

func TestConfigureReportsOnlyWhatIsMissing(t *testing.T) {
	t.Parallel()

	e := fullEnv()
	delete(e, envToken)

	_, diags := configure(nullModel(), "test", e.get)

	assert.Equal(t, []path.Path{path.Root("token")}, errorPaths(t, diags))
	assert.Equal(t, "Missing token", diags.Errors()[0].Summary())
}

func TestConfigureFallsBackToTheEnvironment(t *testing.T) {
	t.Parallel()

	data, diags := configure(nullModel(), "test", fullEnv().get)

	require.False(t, diags.HasError(), "%v", diags)
	assert.NotNil(t, data.Instances)
	assert.NotNil(t, data.Catalogue)
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000e1", data.OrganizationID)
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000e2", data.ProjectID)
}

func TestConfigurePrefersTheProviderBlock(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.OrganizationID = types.StringValue("c0000000-0000-4000-8000-0000000000c1")
	model.ProjectID = types.StringValue("c0000000-0000-4000-8000-0000000000c2")

	data, diags := configure(model, "test", fullEnv().get)

	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000c1", data.OrganizationID)
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000c2", data.ProjectID)
}

func TestConfigureLeavesOptionalScopesEmpty(t *testing.T) {
	t.Parallel()

	e := fullEnv()
	delete(e, envOrganizationID)
	delete(e, envProjectID)

	data, diags := configure(nullModel(), "test", e.get)

	require.False(t, diags.HasError(), "%v", diags)
	assert.Empty(t, data.OrganizationID)
	assert.Empty(t, data.ProjectID)
}

func TestConfigureRejectsEndpointsThatAreNotBaseURLs(t *testing.T) {
	t.Parallel()

	e := fullEnv()
	e[envIdentityEndpoint] = "identity.example.com"

	model := nullModel()
	model.Endpoints[services.Region] = types.StringValue("ftp://region.example.com")

	_, diags := configure(model, "test", e.get)

	require.Equal(t, []path.Path{path.Root("region_endpoint"), path.Root("identity_endpoint")}, errorPaths(t, diags))
	assert.Contains(t, diags.Errors()[0].Detail(), `"region_endpoint"`, "says the value came from the block")
	assert.Contains(t, diags.Errors()[1].Detail(), envIdentityEndpoint, "says the value came from the environment")
}

func TestConfigureWaitsForValuesNotKnownYet(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.Token = types.StringUnknown()
	model.Insecure = types.BoolUnknown()
	model.ProjectID = types.StringUnknown()

	data, diags := configure(model, "test", fullEnv().get)

	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, []string{"token", "insecure", "project_id"}, data.Pending)
	assert.True(t, data.Offline, "the token is needed to reach Unikorn")
	assert.False(t, data.Online())
	assert.Nil(t, data.Instances)
	assert.Nil(t, data.Identity)
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000e1", data.OrganizationID, "known values are kept")

	var opDiags diag.Diagnostics
	assert.False(t, data.Reachable("read the network", "remedy", &opDiags))
	require.Len(t, opDiags.Errors(), 1)
	assert.Contains(t, opDiags.Errors()[0].Detail(), "`token`, `insecure` and `project_id` are not known until apply")
	assert.Contains(t, opDiags.Errors()[0].Detail(), "remedy")

	opDiags = nil
	assert.Empty(t, data.Project(types.StringNull(), path.Root("project_id"), &opDiags))
	assert.Contains(t, opDiags.Errors()[0].Detail(), "unikorn_project.<name>.id")
	assert.Equal(t, "c0000000-0000-4000-8000-0000000000c9",
		data.Project(types.StringValue("c0000000-0000-4000-8000-0000000000c9"), path.Root("project_id"), &opDiags))
}

func TestConfigureReachesUnikornWhenOnlyTheDefaultsAreNotKnownYet(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.ProjectID = types.StringUnknown()
	model.TokenSealKey = types.StringUnknown()

	data, diags := configure(model, "test", fullEnv().get)

	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, []string{"project_id", "token_seal_key"}, data.Pending)
	assert.True(t, data.Online())
	assert.NotNil(t, data.Identity)
	assert.Empty(t, data.ProjectID)
}

func TestConfigureReadsTheSealKey(t *testing.T) {
	t.Parallel()

	key := "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	e := fullEnv()
	e[envTokenSealKey] = key + "\n"

	data, diags := configure(nullModel(), "test", e.get)
	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, []byte("0123456789abcdef0123456789abcdef"), data.SealKey)

	model := nullModel()
	model.TokenSealKey = types.StringValue("c2hvcnQ=")
	_, diags = configure(model, "test", e.get)
	assert.Equal(t, []path.Path{path.Root("token_seal_key")}, errorPaths(t, diags))
	assert.Contains(t, diags.Errors()[0].Detail(), "5 bytes")
	assert.NotContains(t, diags.Errors()[0].Detail(), "c2hvcnQ=", "a key is never shown")
}

func TestConfigureRejectsABadCACertificate(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.CACertificate = types.StringValue("not PEM")

	_, diags := configure(model, "test", fullEnv().get)

	require.True(t, diags.HasError())
	assert.Equal(t, "Unable to create the Unikorn API client", diags.Errors()[0].Summary())
}

func TestConfiguredClientIdentifiesTheProvider(t *testing.T) {
	t.Parallel()

	userAgent := make(chan string, 1)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		userAgent <- r.UserAgent()

		_, _ = w.Write([]byte("[]"))
	}))
	t.Cleanup(server.Close)

	e := fullEnv()
	e[envRegionEndpoint] = server.URL

	data, diags := configure(nullModel(), "1.2.3", e.get)
	require.False(t, diags.HasError(), "%v", diags)

	_, err := data.Catalogue.Regions(context.Background(), "org")
	require.NoError(t, err)
	assert.Equal(t, "terraform-provider-unikorn/1.2.3", <-userAgent)
}

// A token read with file() keeps its newline: it is used trimmed. One that still holds
// whitespace is refused, naming token and never showing the value.
func TestConfigureTrimsTheTokenAndRefusesOneThatCannotBeSent(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.Token = types.StringValue("secret-token\n")

	data, diags := configure(model, "test", fullEnv().get)
	require.False(t, diags.HasError(), "%v", diags)
	require.NotNil(t, data)

	model.Token = types.StringValue("secret token\n")
	_, diags = configure(model, "test", fullEnv().get)
	assert.Equal(t, []path.Path{path.Root("token")}, errorPaths(t, diags))
	assert.NotContains(t, diags.Errors()[0].Detail(), "secret")
}

// An ID that is not one fails here, naming where it came from, not at the API.
func TestConfigureRefusesIDsThatAreNotIDs(t *testing.T) {
	t.Parallel()

	environment := fullEnv()
	environment[envOrganizationID] = "my-org"

	_, diags := configure(nullModel(), "test", environment.get)
	assert.Equal(t, []path.Path{path.Root("organization_id")}, errorPaths(t, diags))
	assert.Contains(t, diags.Errors()[0].Detail(), envOrganizationID)
}

// An empty string is not taken as "use the environment".
func TestConfigureRefusesAnEmptyValue(t *testing.T) {
	t.Parallel()

	model := nullModel()
	model.Endpoints[services.Region] = types.StringValue("")

	_, diags := configure(model, "test", fullEnv().get)
	assert.Equal(t, []path.Path{path.Root("region_endpoint")}, errorPaths(t, diags))
	assert.Contains(t, diags.Errors()[0].Detail(), envRegionEndpoint)
}

// The back end decides which endpoints are needed: compute needs its own endpoint and
// not identity's, region needs identity's. Each problem names attribute and variable.
func TestConfigureChoosesTheInstanceAPI(t *testing.T) {
	t.Parallel()

	tests := map[string]struct {
		model       func(*providerModel)
		env         env
		wantPaths   []path.Path
		wantSummary []string
		wantDetail  string
		// wantBackend is the back end chosen when nothing is wrong.
		wantBackend compute.Instances
	}{
		"region by default": {wantBackend: &compute.RegionInstances{}},
		"region by default, identity required": {
			env:         env{envIdentityEndpoint: ""},
			wantPaths:   []path.Path{path.Root("identity_endpoint")},
			wantSummary: []string{"Missing identity_endpoint"},
			wantDetail:  "UNIKORN_IDENTITY_ENDPOINT",
		},
		"a compute endpoint implies compute, without identity": {
			env:         env{envComputeEndpoint: "http://127.0.0.1:3", envIdentityEndpoint: ""},
			wantBackend: &compute.ComputeInstances{},
		},
		"compute asked for from the environment": {
			env:         env{envInstanceAPI: "compute", envComputeEndpoint: "http://127.0.0.1:3"},
			wantBackend: &compute.ComputeInstances{},
		},
		"compute asked for without an endpoint": {
			model:       func(m *providerModel) { m.InstanceAPI = types.StringValue("compute") },
			wantPaths:   []path.Path{path.Root("compute_endpoint")},
			wantSummary: []string{"Missing compute_endpoint"},
			wantDetail:  "UNIKORN_COMPUTE_ENDPOINT",
		},
		"an unknown API from the environment": {
			env:         env{envInstanceAPI: "servers"},
			wantPaths:   []path.Path{path.Root("instance_api")},
			wantSummary: []string{"Invalid instance_api"},
			wantDetail:  `UNIKORN_INSTANCE_API, "servers", is not one of ["compute" "region"]`,
		},
		"region asked for keeps a compute endpoint from the environment out": {
			model:       func(m *providerModel) { m.InstanceAPI = types.StringValue("region") },
			env:         env{envComputeEndpoint: "http://127.0.0.1:3"},
			wantBackend: &compute.RegionInstances{},
		},
		"a bad compute endpoint": {
			env:         env{envComputeEndpoint: "compute.example.com"},
			wantPaths:   []path.Path{path.Root("compute_endpoint")},
			wantSummary: []string{"Invalid compute_endpoint"},
			wantDetail:  "UNIKORN_COMPUTE_ENDPOINT",
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			model := nullModel()
			if test.model != nil {
				test.model(&model)
			}

			e := fullEnv()
			for name, value := range test.env {
				e[name] = value
			}

			data, diags := configure(model, "test", e.get)

			assert.Equal(t, test.wantPaths, errorPaths(t, diags))

			if len(test.wantPaths) == 0 {
				require.NotNil(t, data)
				assert.IsType(t, test.wantBackend, data.Instances)

				return
			}

			assert.Nil(t, data)

			var summaries []string
			for _, d := range diags.Errors() {
				summaries = append(summaries, d.Summary())
				assert.Contains(t, d.Detail(), test.wantDetail)
			}

			assert.Equal(t, test.wantSummary, summaries)
		})
	}
}
