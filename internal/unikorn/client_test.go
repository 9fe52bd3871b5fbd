package unikorn

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn/unikorntest"
)

const testToken = "test-token-7f3a"

// testRetry keeps retries real but the waits tiny, so the suite stays fast.
var testRetry = RetryPolicy{MaxAttempts: 4, MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond}

// newTestClient serves both APIs from handler; each test that tells the services
// apart uses newTestClientFor.
func newTestClient(t *testing.T, handler http.Handler, options ...func(*Config)) *Client {
	t.Helper()

	server := httptest.NewServer(handler)
	t.Cleanup(server.Close)

	return newTestClientFor(t, server.URL+"/", server.URL, options...)
}

// newBubbleClient is newTestClient for a test in a testing/synctest bubble: handler is
// called in process, so that what it waits for, and the client's backoffs, fall on
// the bubble's clock.
func newBubbleClient(t *testing.T, handler http.Handler, options ...func(*Config)) *Client {
	t.Helper()

	return newTestClientFor(t, "http://region.invalid/", "http://identity.invalid", append(options, func(c *Config) {
		c.HTTPClient = &http.Client{Transport: unikorntest.Direct(handler)}
	})...)
}

func newTestClientFor(t *testing.T, regionURL, identityURL string, options ...func(*Config)) *Client {
	t.Helper()

	cfg := Config{
		Endpoints: services.Endpoints{services.Region: regionURL, services.Identity: identityURL},
		Token:     testToken,
		UserAgent: "terraform-provider-unikorn/test",
		Retry:     testRetry,
	}

	for _, option := range options {
		option(&cfg)
	}

	client, err := NewClient(cfg)
	require.NoError(t, err)

	return client
}

// countingHandler counts the requests it serves.
type countingHandler struct {
	count   atomic.Int32
	handler http.HandlerFunc
}

func (h *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.count.Add(1)
	h.handler(w, r)
}

func (h *countingHandler) requests() int { return int(h.count.Load()) }

func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func TestNewClientValidatesConfig(t *testing.T) {
	t.Parallel()

	valid := Config{
		Endpoints: services.Endpoints{services.Region: "https://region.example.com", services.Identity: "https://identity.example.com"},
		Token:     "t",
	}

	tests := map[string]struct {
		change  func(*Config)
		wantErr string
	}{
		"valid":                    {change: func(*Config) {}},
		"no region endpoint":       {change: func(c *Config) { c.Endpoints[services.Region] = "" }, wantErr: "the region endpoint is required"},
		"no identity endpoint":     {change: func(c *Config) { c.Endpoints[services.Identity] = "" }},
		"relative endpoint":        {change: func(c *Config) { c.Endpoints[services.Region] = "region.example.com" }, wantErr: "must be an absolute http or https URL"},
		"other scheme":             {change: func(c *Config) { c.Endpoints[services.Identity] = "ftp://identity.example.com" }, wantErr: "must be an absolute http or https URL"},
		"endpoint with query":      {change: func(c *Config) { c.Endpoints[services.Region] = "https://region.example.com/?a=b" }, wantErr: "must not carry a query"},
		"compute with a prefix":    {change: func(c *Config) { c.Endpoints[services.Compute] = "https://example.com/compute/" }},
		"compute not a URL":        {change: func(c *Config) { c.Endpoints[services.Compute] = "compute" }, wantErr: "the compute endpoint \"compute\" must be an absolute"},
		"no token":                 {change: func(c *Config) { c.Token = "" }, wantErr: "an API token is required"},
		"negative timeout":         {change: func(c *Config) { c.RequestTimeout = -time.Second }, wantErr: "is negative"},
		"negative attempts":        {change: func(c *Config) { c.Retry.MaxAttempts = -1 }, wantErr: "must not be negative"},
		"min backoff above max":    {change: func(c *Config) { c.Retry = RetryPolicy{MinBackoff: 2 * time.Second, MaxBackoff: time.Second} }, wantErr: "exceeds the maximum"},
		"CA bundle without a cert": {change: func(c *Config) { c.CACertificate = "not a certificate" }, wantErr: "contains no PEM certificate"},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			cfg := valid
			test.change(&cfg)

			_, err := NewClient(cfg)
			if test.wantErr == "" {
				require.NoError(t, err)

				return
			}

			require.ErrorContains(t, err, test.wantErr)
		})
	}
}

func TestNewClientDefaults(t *testing.T) {
	t.Parallel()

	client, err := NewClient(Config{
		Endpoints: services.Endpoints{services.Region: "https://region.example.com/", services.Identity: "https://identity.example.com/prefix//"},
		Token:     "t",
	})
	require.NoError(t, err)

	assert.Equal(t, "https://region.example.com", client.bases[services.Region])
	assert.Equal(t, "https://identity.example.com/prefix", client.bases[services.Identity])
	assert.Equal(t, DefaultRequestTimeout, client.timeout)
	assert.Equal(t, defaultUserAgent, client.userAgent)
	assert.Equal(t, RetryPolicy{MaxAttempts: DefaultMaxAttempts, MinBackoff: DefaultMinBackoff, MaxBackoff: DefaultMaxBackoff}, client.retry)

	transport, ok := client.httpClient.Transport.(*http.Transport)
	require.True(t, ok)
	assert.Equal(t, maxIdleConnsPerHost, transport.MaxIdleConnsPerHost)
	assert.Zero(t, client.httpClient.Timeout, "attempts are bounded by their context, not by the client")
}

func TestRequestHeaders(t *testing.T) {
	t.Parallel()

	seen := map[string]http.Header{}

	client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen[r.Method] = r.Header.Clone()

		if r.Method == http.MethodPost {
			answer(http.StatusCreated, `{"metadata":{"name":"n"}}`)(w, r)

			return
		}

		answer(http.StatusOK, `[]`)(w, r)
	}))

	_, err := client.CreateServer(t.Context(), ServerCreate{Metadata: WriteMetadata{Name: "n"}})
	require.NoError(t, err)

	_, err = client.ListOrganizations(t.Context())
	require.NoError(t, err)

	for _, method := range []string{http.MethodPost, http.MethodGet} {
		assert.Equal(t, "Bearer "+testToken, seen[method].Get("Authorization"), method)
		assert.Equal(t, "terraform-provider-unikorn/test", seen[method].Get("User-Agent"), method)
		assert.Equal(t, "application/json", seen[method].Get("Accept"), method)
	}

	assert.Equal(t, "application/json", seen[http.MethodPost].Get("Content-Type"))
	assert.Empty(t, seen[http.MethodGet].Get("Content-Type"), "a request without a body declares no content type")
}

// The configured HTTP client carries every attempt, which is how tests record traffic.
func TestConfiguredHTTPClientSeesEveryAttempt(t *testing.T) {
	t.Parallel()

	handler := &countingHandler{handler: answer(http.StatusServiceUnavailable, "")}
	server := httptest.NewServer(handler)
	t.Cleanup(server.Close)

	transport := &countingTransport{base: http.DefaultTransport}
	client := newTestClientFor(t, server.URL, server.URL, func(c *Config) { c.HTTPClient = &http.Client{Transport: transport} })

	_, err := client.GetServer(t.Context(), "s")
	require.Error(t, err)
	assert.Equal(t, testRetry.MaxAttempts, transport.requests())
	assert.Equal(t, testRetry.MaxAttempts, handler.requests())
}

type countingTransport struct {
	count atomic.Int32
	base  http.RoundTripper
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.count.Add(1)

	return t.base.RoundTrip(r)
}

func (t *countingTransport) requests() int { return int(t.count.Load()) }

func TestTLSSettings(t *testing.T) {
	t.Parallel()

	handler := &countingHandler{handler: answer(http.StatusOK, `[]`)}
	server := httptest.NewTLSServer(handler)
	t.Cleanup(server.Close)

	caPEM := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw}))

	tests := map[string]struct {
		config  func(*Config)
		wantErr string
	}{
		"CA bundle trusts the server": {config: func(c *Config) { c.CACertificate = caPEM }},
		"insecure skips verification": {config: func(c *Config) { c.Insecure = true }},
		"unknown authority fails":     {config: func(*Config) {}, wantErr: "certificate"},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			client := newTestClientFor(t, server.URL, server.URL, test.config)

			_, err := client.ListOrganizations(t.Context())
			if test.wantErr == "" {
				require.NoError(t, err)

				return
			}

			require.ErrorContains(t, err, test.wantErr)
		})
	}
}

// A read sent while a write to an instance is in flight may not show it, and a write
// that names no instance may have changed any.
func TestWrittenSinceTellsWhichInstancesAWriteMayHaveChanged(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		client := newBubbleClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			<-release
			w.WriteHeader(http.StatusAccepted)
		}))

		before := WriteMarkOf(client)
		done := make(chan error)

		go func() { done <- client.DeleteServer(Concerning(t.Context(), "a"), "a") }()

		// The delete is sent, and waits for its answer.
		synctest.Wait()
		require.True(t, WrittenSince(client, before, "a"), "a write in flight")

		during := WriteMarkOf(client)
		assert.True(t, WrittenSince(client, during, "a"), "a write in flight since before the mark")
		assert.False(t, WrittenSince(client, during, "b"), "a write to another instance")

		close(release)
		require.NoError(t, <-done)

		assert.True(t, WrittenSince(client, during, "a"), "the write ended after the mark")

		after := WriteMarkOf(client)
		assert.False(t, WrittenSince(client, after, "a"), "a read sent now shows the write")

		require.NoError(t, client.DeleteNetwork(t.Context(), "n"))
		assert.True(t, WrittenSince(client, after, "b"), "a write naming no instance may concern any")
	})
}

// Every declared service reaches the client: its endpoint is the base of the calls
// to it, and without one a call to it fails before anything is sent, naming it, or,
// for a service the provider always needs, the client is not made at all.
func TestEveryServiceHasItsEndpoint(t *testing.T) {
	t.Parallel()

	var endpoints services.Endpoints
	for _, service := range services.All() {
		endpoints[service] = "https://" + service.Name() + ".example.com/prefix/"
	}

	for _, service := range services.All() {
		t.Run(service.Name(), func(t *testing.T) {
			t.Parallel()

			client, err := NewClient(Config{Endpoints: endpoints, Token: "t"})
			require.NoError(t, err)
			assert.Equal(t, "https://"+service.Name()+".example.com/prefix", client.op(service, http.MethodGet, http.StatusOK, "/x").base)

			without := endpoints
			without[service] = ""

			client, err = NewClient(Config{Endpoints: without, Token: "t"})
			if service.Required() {
				require.EqualError(t, err, "the "+service.Name()+" endpoint is required")

				return
			}

			require.NoError(t, err)

			_, err = client.send(t.Context(), client.op(service, http.MethodGet, http.StatusOK, "/x"))
			require.ErrorIs(t, err, NoEndpointError{Service: service.Name()})
			assert.True(t, IsUnconfigured(err))
			assert.EqualError(t, err, "GET /x: no "+service.Name()+" endpoint is configured")
		})
	}
}
