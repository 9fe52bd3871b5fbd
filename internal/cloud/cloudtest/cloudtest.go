// Package cloudtest starts what a test below the Terraform types runs against (the
// façade's families, the wire contract, a provider driven through its RPCs): a fresh
// sandbox on a local listener (or called in process, for a testing/synctest bubble),
// an API client of a chosen principal, and a session whose waits poll fast, so that
// every such test starts the same way.
package cloudtest

import (
	"cmp"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn/unikorntest"
)

// Retry is the client's retry policy in tests: the production policy's attempts,
// with backoffs short enough for a test.
var Retry = unikorn.RetryPolicy{MaxAttempts: 4, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}

// Poll is the session's poll policy in tests.
var Poll = cloud.PollPolicy{Min: 5 * time.Millisecond, Max: 20 * time.Millisecond, Factor: 2}

// Config says how harsh the sandbox is and who calls it. The zero Config is the
// fixture project's user against a sandbox that provisions in 50 ms, deprovisions in
// 30 ms and reads exactly.
type Config struct {
	// Token is the caller's; sandbox.DefaultToken when empty.
	Token string
	// ReadLag is how far the sandbox's reads trail its writes, and what the session
	// is told to expect.
	ReadLag time.Duration
	// Seed draws the sandbox's random read lags.
	Seed uint64
	// ProvisionDelay and DeprovisionDelay replace 50 ms and 30 ms when set.
	ProvisionDelay, DeprovisionDelay time.Duration
	// Transport carries the client's requests (the client's own when nil), and may
	// lose or alter answers as a harsh network does.
	Transport http.RoundTripper
	// InProcess serves the sandbox by calling it, with no listener: a test that runs
	// in a testing/synctest bubble then has the sandbox's delays, its read lag and the
	// session's polls on the bubble's clock, which moves only when every goroutine
	// waits. What it asserts of their order then holds however slowly the machine
	// runs it, and takes no real time. Start must then be called inside the bubble.
	InProcess bool
}

// World is what a façade test works with.
type World struct {
	// URL serves region, identity and the sandbox's control API.
	URL     string
	Sandbox *sandbox.Sandbox
	// Client is the session's client, also for changes behind the façade's back.
	Client  *unikorn.Client
	Session *cloud.Session
	// Transport reaches the sandbox: http.DefaultTransport over a local listener, or
	// the sandbox itself (Config.InProcess). A test's transport that loses or alters
	// answers passes its requests on to it.
	Transport http.RoundTripper

	inProcess bool
}

// Start starts a sandbox for the test, stopped when it ends.
func Start(t *testing.T, config Config) *World {
	t.Helper()

	options := sandbox.DefaultOptions()
	options.ProvisionDelay = orDefault(config.ProvisionDelay, 50*time.Millisecond)
	options.DeprovisionDelay = orDefault(config.DeprovisionDelay, 30*time.Millisecond)
	options.ReadLag = config.ReadLag
	options.Seed = config.Seed

	sb, err := sandbox.New(options)
	require.NoError(t, err)

	world := &World{Sandbox: sb}

	if config.InProcess {
		world.URL, world.Transport, world.inProcess = inProcessURL, unikorntest.Direct(sb), true

		t.Cleanup(func() { require.NoError(t, sb.Close()) })
	} else {
		server := httptest.NewServer(sb)
		t.Cleanup(func() {
			server.Close()
			require.NoError(t, sb.Close())
		})

		world.URL, world.Transport = server.URL, http.DefaultTransport
	}

	world.Client = world.NewClient(t, config.Token, config.Transport)
	world.Session = world.NewSession(world.Client, config.ReadLag)

	return world
}

// inProcessURL is where an in-process sandbox's clients send their requests: a name
// that never resolves, so that nothing reaches a listener by mistake.
const inProcessURL = "http://sandbox.invalid"

// NewClient returns another client of the sandbox, reaching region, identity and
// compute, of token (sandbox.DefaultToken when empty), whose requests go through
// transport when it is not nil.
func (w *World) NewClient(t *testing.T, token string, transport http.RoundTripper) *unikorn.Client {
	t.Helper()

	return w.newClient(t, unikorn.Config{Endpoints: services.InSandbox(w.URL)}, token, transport)
}

// NewComputeClient is NewClient as an ordinary project user has it for compute's
// instances: no identity endpoint.
func (w *World) NewComputeClient(t *testing.T, token string, transport http.RoundTripper) *unikorn.Client {
	t.Helper()

	endpoints := services.InSandbox(w.URL)
	endpoints[services.Identity] = ""

	return w.newClient(t, unikorn.Config{Endpoints: endpoints}, token, transport)
}

func (w *World) newClient(t *testing.T, config unikorn.Config, token string, transport http.RoundTripper) *unikorn.Client {
	t.Helper()

	config.Token = cmp.Or(token, sandbox.DefaultToken)
	config.Retry = Retry

	// Over a listener, the client's own transport keeps its pool of connections.
	if transport == nil && w.inProcess {
		transport = w.Transport
	}

	if transport != nil {
		config.HTTPClient = &http.Client{Transport: transport}
	}

	client, err := unikorn.NewClient(config)
	require.NoError(t, err)

	return client
}

// NewSession returns a session over client that expects readLag and polls fast.
func (w *World) NewSession(client *unikorn.Client, readLag time.Duration) *cloud.Session {
	return cloud.NewSession(client, cloud.WithReadLag(readLag), cloud.WithPollPolicy(Poll))
}

func orDefault(d, fallback time.Duration) time.Duration {
	if d == 0 {
		return fallback
	}

	return d
}

// ImagesNamed lists the fixture organization's own images of name in the fixture
// region, in any state, as the sandbox shows them to the world's client.
func (w *World) ImagesNamed(t *testing.T, name string) []unikorn.Image {
	t.Helper()

	images, err := w.Client.ListImagesV2(t.Context(), sandbox.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{sandbox.OrganizationID}, Scope: unikorn.ImageScopeOwned,
		Status: []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed},
	})
	require.NoError(t, err)

	var named []unikorn.Image

	for _, listed := range images {
		if listed.Metadata.Name == name {
			named = append(named, listed)
		}
	}

	return named
}
