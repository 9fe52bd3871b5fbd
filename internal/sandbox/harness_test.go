package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// clock is a manual clock: lifecycles advance only when a test says so.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()

	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()

	c.now = c.now.Add(d)
}

// harness is a sandbox on a loopback port, driven by plain HTTP requests.
type harness struct {
	t     *testing.T
	sb    *Sandbox
	url   string
	clock *clock
}

// settle is longer than every delay of DefaultOptions.
const settle = 2 * time.Second

// newHarness starts a sandbox with the default delays on a manual clock.
func newHarness(t *testing.T, mutate ...func(*Options)) *harness {
	t.Helper()

	c := &clock{now: time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)}

	opts := DefaultOptions()
	opts.Now = c.Now

	for _, m := range mutate {
		m(&opts)
	}

	sb, err := New(opts)
	require.NoError(t, err)

	server := httptest.NewServer(sb)

	t.Cleanup(func() {
		server.Close()
		require.NoError(t, sb.Close())
	})

	return &harness{t: t, sb: sb, url: server.URL, clock: c}
}

// response is a received response with its body read.
type response struct {
	t      *testing.T
	status int
	header http.Header
	body   []byte
}

// call sends a request as the service principal, which may call every API the
// sandbox serves in the fixture organization; body is encoded as JSON unless it is a
// string, which is sent verbatim. callAs(DefaultToken, …) is what a user may do.
func (h *harness) call(method, path string, body any) *response {
	h.t.Helper()

	return h.callAs(ServiceToken, method, path, body)
}

func (h *harness) callAs(token, method, path string, body any) *response {
	h.t.Helper()

	var reader io.Reader

	switch b := body.(type) {
	case nil:
	case string:
		reader = bytes.NewBufferString(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(h.t, err)

		reader = bytes.NewReader(data)
	}

	req, err := http.NewRequest(method, h.url+path, reader)
	require.NoError(h.t, err)

	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}

	if reader != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)

	defer resp.Body.Close()

	data, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err)

	return &response{t: h.t, status: resp.StatusCode, header: resp.Header, body: data}
}

// expect asserts the status and decodes the body into v (when v is not nil).
func (r *response) expect(status int, v any) *response {
	r.t.Helper()

	require.Equal(r.t, status, r.status, "body: %s", r.body)

	if v != nil {
		require.NoError(r.t, json.Unmarshal(r.body, v), "body: %s", r.body)
	}

	return r
}

// expectError asserts an error response and returns its body.
func (r *response) expectError(status int, code string) unikorn.ErrorBody {
	r.t.Helper()

	var body unikorn.ErrorBody

	r.expect(status, &body)
	require.Equal(r.t, code, body.Error, "body: %s", r.body)
	require.Equal(r.t, "application/json", r.header.Get("Content-Type"))
	require.Equal(r.t, "no-cache", r.header.Get("Cache-Control"))
	require.NotEmpty(r.t, body.TraceID)

	return body
}

// serverCreate is a valid server create body on the default network.
func serverCreate(name string) unikorn.ServerCreate {
	return unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID},
			NetworkID:  NetworkDefaultID,
		},
	}
}

// createServer creates a server and returns it as the create response shows it.
func (h *harness) createServer(body unikorn.ServerCreate) unikorn.Server {
	h.t.Helper()

	var server unikorn.Server

	h.call(http.MethodPost, "/api/v2/servers", body).expect(http.StatusCreated, &server)

	return server
}

// createReadyServer creates a server and lets it finish provisioning.
func (h *harness) createReadyServer(name string) unikorn.Server {
	h.t.Helper()

	server := h.createServer(serverCreate(name))
	h.clock.Advance(settle)

	return h.getServer(server.Metadata.ID)
}

func (h *harness) getServer(id string) unikorn.Server {
	h.t.Helper()

	var server unikorn.Server

	h.call(http.MethodGet, "/api/v2/servers/"+id, nil).expect(http.StatusOK, &server)

	return server
}

func organizationPath(suffix string) string {
	return "/api/v1/organizations/" + OrganizationID + suffix
}

func allocationsPath(projectID string) string {
	return organizationPath("/projects/" + projectID + "/allocations")
}

func networkCreate(name, prefix string) unikorn.NetworkCreate {
	return unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{"8.8.8.8"}},
			OrganizationID: OrganizationID,
			ProjectID:      ProjectID,
			RegionID:       RegionID,
			Prefix:         prefix,
		},
	}
}

func (h *harness) createNetwork(name, prefix string) unikorn.Network {
	h.t.Helper()

	var network unikorn.Network

	h.call(http.MethodPost, "/api/v2/networks", networkCreate(name, prefix)).expect(http.StatusCreated, &network)

	return network
}

func regionPath(suffix string) string {
	return organizationPath("/regions/" + RegionID + suffix)
}

func imageNames(images []unikorn.Image) []string {
	names := []string{}
	for _, image := range images {
		names = append(names, image.Metadata.Name)
	}

	return names
}

func (h *harness) listImagesV2(query url.Values) []unikorn.Image {
	h.t.Helper()

	var images []unikorn.Image

	h.call(http.MethodGet, "/api/v2/regions/"+RegionID+"/images?"+query.Encode(), nil).expect(http.StatusOK, &images)

	return images
}
