package acctest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Environment variables that point the acceptance tests at a real Unikorn instead of
// the sandbox: every service's endpoint variable (region's decides, see New), then the
// provider's own below; the UNIKORN_ACC_* ones name existing objects the tests may
// read and build on.
const (
	EnvToken          = "UNIKORN_TOKEN"
	EnvOrganizationID = "UNIKORN_ORGANIZATION_ID"
	EnvProjectID      = "UNIKORN_PROJECT_ID"

	// EnvSandboxIdentity says that the Unikorn under test takes its identity from a
	// sandbox, whose fixtures (organizations, projects, users, tokens) the tests may
	// then name: make test-real-region runs region's own code so, with its regions
	// under the sandbox's region IDs.
	EnvSandboxIdentity = "UNIKORN_ACC_SANDBOX_IDENTITY"

	EnvRegionID  = "UNIKORN_ACC_REGION_ID"
	EnvNetworkID = "UNIKORN_ACC_NETWORK_ID"
	EnvFlavorID  = "UNIKORN_ACC_FLAVOR_ID"
	EnvImageID   = "UNIKORN_ACC_IMAGE_ID"
)

// Sandbox timings under test: short enough for fast tests, long enough that the
// provider must really wait for provisioning and deletion.
const (
	sandboxProvisionDelay   = 100 * time.Millisecond
	sandboxDeprovisionDelay = 50 * time.Millisecond
)

// Environment is what one acceptance test runs against.
type Environment struct {
	// Settings are the provider attributes that reach it.
	Settings ProviderSettings

	// RegionID, NetworkID, FlavorID and ImageID name objects that exist and work
	// together: the flavor and image are in the region and fit each other, and the
	// network is in the region, the organization and the project.
	RegionID  string
	NetworkID string
	FlavorID  string
	ImageID   string

	// Client is an API client of its own (not the provider's), for checks and for
	// changes made behind Terraform's back.
	Client *unikorn.Client

	// base are the settings New started from, before choosing a back end.
	base ProviderSettings

	// control drives the sandbox; nil against a real Unikorn.
	control *sandbox.ControlClient
	// fixtures says that identity is a sandbox's, with its fixtures.
	fixtures bool
}

// realTargetNeeds are the services every acceptance test calls, whose endpoints a
// real target must name; a test of another service skips itself without its endpoint.
var realTargetNeeds = []services.Service{services.Region, services.Identity}

// New returns the environment of one acceptance test: a fresh sandbox, stopped when
// the test ends, or a real Unikorn when UNIKORN_REGION_ENDPOINT is set. Like
// resource.Test it skips unless TF_ACC is set, so plain `go test` stays fast.
//
// Options make the sandbox harsher; they are ignored against a real Unikorn, which is
// as harsh as it is.
func New(t *testing.T, options ...Option) *Environment {
	t.Helper()

	harshness := harshness{visibility: true, backend: RegionBackend}
	for _, option := range options {
		option(&harshness)
	}

	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1 (make testacc)")
	}

	var env *Environment
	if os.Getenv(services.Region.EnvVar()) != "" {
		env = fromEnvironment(t)
	} else {
		env = startSandbox(t, harshness)
	}

	// Built before the settings turn to the back end under test: checks keep the
	// environment's own token, which may look behind the instances.
	env.Client = env.ClientAs(t, env.Settings.Token)
	env.base = env.Settings
	env.Settings = env.SettingsFor(t, harshness.backend)

	return env
}

func startSandbox(t *testing.T, harshness harshness) *Environment {
	t.Helper()

	opts := sandbox.DefaultOptions()
	opts.ProvisionDelay = sandboxProvisionDelay
	opts.DeprovisionDelay = sandboxDeprovisionDelay
	opts.ReadLag = harshness.readLag
	opts.Seed = harshness.seed
	opts.ShowInvisible = !harshness.visibility
	opts.Quotas = harshness.quotas

	sb, err := sandbox.New(opts)
	require.NoError(t, err)

	server := httptest.NewServer(sb)

	// The region back end's instance API (region's servers, identity's allocations)
	// is service-to-service, as in real Unikorn: a project user's token is refused it,
	// and compute's own account may only read the networks, security groups and SSH
	// certificate authorities the instances need. The platform administrator's role
	// grants both, as an operator on the region path holds them, so the provider
	// starts with its token and New gives the compute back end a user's instead.

	t.Cleanup(func() {
		server.Close()
		require.NoError(t, sb.Close())
	})

	return &Environment{
		Settings: ProviderSettings{
			Endpoints:      services.InSandbox(server.URL),
			Token:          sandbox.PlatformAdminToken,
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
		},
		RegionID:  sandbox.RegionID,
		NetworkID: sandbox.NetworkDefaultID,
		FlavorID:  sandbox.FlavorStandardID,
		ImageID:   sandbox.ImageUbuntuID,
		control:   sandbox.NewControlClient(server.URL, opts.Token, server.Client()),
		fixtures:  true,
	}
}

// fromEnvironment reads a real target, failing with every missing variable at once.
func fromEnvironment(t *testing.T) *Environment {
	t.Helper()

	var (
		missing   []string
		endpoints services.Endpoints
	)

	for _, service := range services.All() {
		endpoints[service] = os.Getenv(service.EnvVar())
	}

	for _, service := range realTargetNeeds {
		if endpoints[service] == "" {
			missing = append(missing, service.EnvVar())
		}
	}

	get := func(name string) string {
		value := os.Getenv(name)
		if value == "" {
			missing = append(missing, name)
		}

		return value
	}

	env := &Environment{
		fixtures: os.Getenv(EnvSandboxIdentity) != "",
		Settings: ProviderSettings{
			Endpoints:      endpoints,
			Token:          get(EnvToken),
			OrganizationID: get(EnvOrganizationID),
			ProjectID:      get(EnvProjectID),
		},
		RegionID:  get(EnvRegionID),
		NetworkID: get(EnvNetworkID),
		FlavorID:  get(EnvFlavorID),
		ImageID:   get(EnvImageID),
	}

	if len(missing) > 0 {
		t.Fatalf("%s is set, so the acceptance tests target a real Unikorn, which also needs %s (see README.md)",
			services.Region.EnvVar(), strings.Join(missing, ", "))
	}

	return env
}

// SettingsFor returns the provider settings that reach the instance back end b: the
// environment's own for the back end of New, another's to switch back ends.
func (e *Environment) SettingsFor(t *testing.T, b Backend) ProviderSettings {
	t.Helper()

	settings := e.base
	// Always written out, so that a compute endpoint in the environment of the test
	// run cannot change the back end under test.
	settings.InstanceAPI = b.InstanceAPI

	switch {
	case b != ComputeBackend:
		// The region back end's instance APIs are service-to-service (see startSandbox).
		settings.Endpoints[services.Compute] = ""
	case e.IsSandbox():
		// Compute's public API is what an ordinary project user calls, so the
		// provider gets a user's token; checks keep the platform administrator's,
		// which may look at region's servers and identity's allocations behind the
		// instances.
		settings.Token = sandbox.DefaultToken
	case settings.Endpoints[services.Compute] == "":
		t.Skipf("the compute back end needs %s to name the compute service of the Unikorn under test",
			services.Compute.EnvVar())
	}

	return settings
}

// ClientAs returns an API client of its own that calls the environment's services
// with token: to see what another token may, or to act as another person would.
func (e *Environment) ClientAs(t *testing.T, token string) *unikorn.Client {
	t.Helper()

	client, err := unikorn.NewClient(unikorn.Config{
		Endpoints: e.Settings.Endpoints,
		Token:     token,
		UserAgent: "terraform-provider-unikorn-acctest",
	})
	require.NoError(t, err)

	return client
}

// IsSandbox reports whether the test runs against the in-process sandbox.
func (e *Environment) IsSandbox() bool {
	return e.control != nil
}

// SkipUnlessSandbox skips a test (or a part of it) that needs to look inside or
// steer the simulation, which a real Unikorn does not allow.
func (e *Environment) SkipUnlessSandbox(t *testing.T) {
	t.Helper()

	if !e.IsSandbox() {
		t.Skip("needs the sandbox: it inspects or steers the simulation")
	}
}

// SkipUnlessFixtures skips a test that names the sandbox's identity fixtures (its
// organization and projects, its users' tokens) but steers nothing: it runs against
// the sandbox and against a Unikorn whose identity is a sandbox (EnvSandboxIdentity).
func (e *Environment) SkipUnlessFixtures(t *testing.T) {
	t.Helper()

	if !e.fixtures {
		t.Skip("needs the sandbox's identity fixtures: its organization, projects and tokens")
	}
}

// PreCheck fails fast, with the reason, when a real target cannot be reached with the
// configured token; the sandbox needs no check.
func (e *Environment) PreCheck(t *testing.T) {
	t.Helper()

	if e.IsSandbox() {
		return
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	if _, err := e.Client.ListRegions(ctx, e.Settings.OrganizationID); err != nil {
		t.Fatalf("cannot list the regions of organization %s at %s: %v",
			e.Settings.OrganizationID, e.Settings.Endpoints[services.Region], err)
	}
}

// ProviderConfig is the provider block for this environment, to prepend to a test's
// configuration.
func (e *Environment) ProviderConfig() string {
	return e.Settings.Config()
}

// ProviderSettings are the attributes of a provider block. A test copies and changes
// them to provoke an error (a bad token, an unreachable endpoint) or to write a second,
// aliased block of another principal.
type ProviderSettings struct {
	// Alias names a second block of the provider; empty is the default block.
	Alias string
	// Endpoints are the services' base URLs. Compute's is there only for the compute
	// back end, which it reaches (see SettingsFor).
	Endpoints      services.Endpoints
	Token          string
	OrganizationID string
	ProjectID      string
	// RequestTimeout bounds each API request, as a Go duration; empty means the
	// provider's default.
	RequestTimeout string
	// InstanceAPI chooses the instance back end.
	InstanceAPI string
}

// Config writes the settings as a provider block, leaving out empty ones so that the
// provider falls back to the environment for them. Every value is written out rather
// than exported, because parallel tests cannot share one process environment.
func (s ProviderSettings) Config() string {
	var b strings.Builder

	b.WriteString("provider \"unikorn\" {\n")

	type attribute struct{ name, value string }

	attributes := []attribute{{"alias", s.Alias}}
	for _, service := range services.All() {
		attributes = append(attributes, attribute{service.Attribute(), s.Endpoints[service]})
	}

	for _, attribute := range append(attributes,
		attribute{"token", s.Token},
		attribute{"organization_id", s.OrganizationID},
		attribute{"project_id", s.ProjectID},
		attribute{"request_timeout", s.RequestTimeout},
		attribute{"instance_api", s.InstanceAPI},
	) {
		if attribute.value != "" {
			fmt.Fprintf(&b, "  %s = %s\n", attribute.name, Quote(attribute.value))
		}
	}

	b.WriteString("}\n")

	return b.String()
}

// Quote writes s as an HCL string literal, escaping the template sequences that a
// Go-quoted string would leave active.
func Quote(s string) string {
	quoted := fmt.Sprintf("%q", s)
	quoted = strings.ReplaceAll(quoted, "${", "$${")

	return strings.ReplaceAll(quoted, "%{", "%%{")
}
