// Package sandboxtest is the bootstrap of the sandbox's own tests: a sandbox on a
// loopback port (or called in process, for a testing/synctest bubble) and a clock that moves only when a test says so, driven by plain HTTP
// requests, with the bodies and paths many families' tests share. A family's tests are
// an external test package of its folder that drives the whole sandbox through it.
package sandboxtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn/unikorntest"
)

// Clock is a manual clock: lifecycles advance only when a test says so.
type Clock = core.ManualClock

// Harness is a sandbox on a loopback port, or called in process, driven by plain HTTP
// requests.
type Harness struct {
	T       *testing.T
	Sandbox *sandbox.Sandbox
	URL     string
	Clock   *Clock
	// HTTP sends the harness's calls: http.DefaultClient over the loopback port, or
	// the sandbox called in process (InBubble).
	HTTP *http.Client
}

// Settle is longer than every delay of sandbox.DefaultOptions.
const Settle = 2 * time.Second

// New starts a sandbox with the default delays on a manual clock.
func New(t *testing.T, mutate ...func(*sandbox.Options)) *Harness {
	t.Helper()

	h := start(t, mutate)

	server := httptest.NewServer(h.Sandbox)
	t.Cleanup(server.Close)

	h.URL, h.HTTP = server.URL, http.DefaultClient

	return h
}

// InBubble is New for a test in a testing/synctest bubble, which must call it there:
// the sandbox is called in process, with no loopback port, so that what takes time
// in real time (latency, a fault's delay) takes it on the bubble's clock, exactly.
func InBubble(t *testing.T, mutate ...func(*sandbox.Options)) *Harness {
	t.Helper()

	h := start(t, mutate)
	h.URL, h.HTTP = "http://sandbox.invalid", &http.Client{Transport: unikorntest.Direct(h.Sandbox)}

	return h
}

func start(t *testing.T, mutate []func(*sandbox.Options)) *Harness {
	t.Helper()

	c := core.NewManualClock(time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC))

	opts := sandbox.DefaultOptions()
	opts.Now = c.Now

	for _, m := range mutate {
		m(&opts)
	}

	sb, err := sandbox.New(opts)
	require.NoError(t, err)

	t.Cleanup(func() { require.NoError(t, sb.Close()) })

	return &Harness{T: t, Sandbox: sb, Clock: c}
}

// Response is a received response with its body read.
type Response struct {
	T      *testing.T
	Status int
	Header http.Header
	Body   []byte
}

// Call sends a request as the platform administrator, whose role grants every API the
// sandbox serves, the service-to-service ones too; body is encoded as JSON unless it
// is a string, which is sent verbatim. CallAs(sandbox.DefaultToken, …) is what a user
// may do, CallAs(sandbox.ServiceToken, …) what compute's account may.
func (h *Harness) Call(method, path string, body any) *Response {
	h.T.Helper()

	return h.CallAs(sandbox.PlatformAdminToken, method, path, body)
}

// CallAs sends a request with token; an empty token sends none.
func (h *Harness) CallAs(token, method, path string, body any) *Response {
	h.T.Helper()

	return h.send(method, path, body, func(req *http.Request) {
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
	})
}

// CallAsRegion sends a request as region calls identity on its own account: no
// Authorization header, the principal it acts for (a user of the fixture
// organization) in X-Principal.
func (h *Harness) CallAsRegion(method, path string, body any) *Response {
	h.T.Helper()

	principal := base64.RawURLEncoding.EncodeToString([]byte(`{"organizationId":"` + sandbox.OrganizationID + `"}`))

	return h.send(method, path, body, func(req *http.Request) { req.Header.Set(core.PrincipalHeader, principal) })
}

// send sends a request, its headers set by authenticate.
func (h *Harness) send(method, path string, body any, authenticate func(*http.Request)) *Response {
	h.T.Helper()

	var reader io.Reader

	switch b := body.(type) {
	case nil:
	case string:
		reader = bytes.NewBufferString(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(h.T, err)

		reader = bytes.NewReader(data)
	}

	req, err := http.NewRequest(method, h.URL+path, reader)
	require.NoError(h.T, err)

	authenticate(req)

	if reader != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := h.HTTP.Do(req)
	require.NoError(h.T, err)

	defer resp.Body.Close()

	data, err := io.ReadAll(resp.Body)
	require.NoError(h.T, err)

	return &Response{T: h.T, Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// Expect asserts the status and decodes the body into v (when v is not nil).
func (r *Response) Expect(status int, v any) *Response {
	r.T.Helper()

	require.Equal(r.T, status, r.Status, "body: %s", r.Body)

	if v != nil {
		require.NoError(r.T, json.Unmarshal(r.Body, v), "body: %s", r.Body)
	}

	return r
}

// ExpectError asserts an error response and returns its body.
func (r *Response) ExpectError(status int, code string) unikorn.ErrorBody {
	r.T.Helper()

	var body unikorn.ErrorBody

	r.Expect(status, &body)
	require.Equal(r.T, code, body.Error, "body: %s", r.Body)
	require.Equal(r.T, "application/json", r.Header.Get("Content-Type"))
	require.Equal(r.T, "no-cache", r.Header.Get("Cache-Control"))
	require.NotEmpty(r.T, body.TraceID)

	return body
}

// OrganizationPath is a path of the fixture organization's.
func OrganizationPath(suffix string) string {
	return "/api/v1/organizations/" + sandbox.OrganizationID + suffix
}

// AllocationsPath is the allocations of a project of the fixture organization.
func AllocationsPath(projectID string) string {
	return OrganizationPath("/projects/" + projectID + "/allocations")
}

// ServerCreate is a valid server create body on the default network.
func ServerCreate(name string) unikorn.ServerCreate {
	return unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			NetworkID:  sandbox.NetworkDefaultID,
		},
	}
}

// Created is what a create of path answers with 201, as type T.
func Created[T any](h *Harness, path string, body any) T {
	h.T.Helper()

	var created T

	h.Call(http.MethodPost, path, body).Expect(http.StatusCreated, &created)

	return created
}

// Read is what a read of path answers with 200, as type T.
func Read[T any](h *Harness, path string) T {
	h.T.Helper()

	var read T

	h.Call(http.MethodGet, path, nil).Expect(http.StatusOK, &read)

	return read
}

// CreateServer creates a server and returns it as the create response shows it.
func (h *Harness) CreateServer(body unikorn.ServerCreate) unikorn.Server {
	h.T.Helper()

	return Created[unikorn.Server](h, "/api/v2/servers", body)
}

// CreateReadyServer creates a server and lets it finish provisioning.
func (h *Harness) CreateReadyServer(name string) unikorn.Server {
	h.T.Helper()

	server := h.CreateServer(ServerCreate(name))
	h.Clock.Advance(Settle)

	return h.GetServer(server.Metadata.ID)
}

// GetServer reads a server.
func (h *Harness) GetServer(id string) unikorn.Server {
	h.T.Helper()

	return Read[unikorn.Server](h, "/api/v2/servers/"+id)
}

// NetworkCreate is a valid network create body in the fixture project.
func NetworkCreate(name, prefix string) unikorn.NetworkCreate {
	return unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{"8.8.8.8"}},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			RegionID:       sandbox.RegionID,
			Prefix:         prefix,
		},
	}
}

// CreateNetwork creates a network and returns it as the create response shows it.
func (h *Harness) CreateNetwork(name, prefix string) unikorn.Network {
	h.T.Helper()

	return Created[unikorn.Network](h, "/api/v2/networks", NetworkCreate(name, prefix))
}

// ReadLag is the read lag the tests that need one run with.
const ReadLag = 2 * time.Second

// WithReadLag makes reads trail writes by up to ReadLag, the lags drawn from seed.
func WithReadLag(seed uint64) func(*sandbox.Options) {
	return func(o *sandbox.Options) {
		o.ReadLag = ReadLag
		o.Seed = seed
	}
}

// RegionPath is a path of the fixture region's, as the fixture organization's.
func RegionPath(suffix string) string {
	return OrganizationPath("/regions/" + sandbox.RegionID + suffix)
}

// ImageNames are the images' names, in order.
func ImageNames(images []unikorn.Image) []string {
	names := []string{}
	for _, image := range images {
		names = append(names, image.Metadata.Name)
	}

	return names
}

// ListImagesV1 lists the fixture region's images for the fixture organization.
func (h *Harness) ListImagesV1() []unikorn.Image {
	h.T.Helper()

	var images []unikorn.Image

	resp := h.Call(http.MethodGet, RegionPath("/images"), nil).Expect(http.StatusOK, &images)
	require.Equal(h.T, "max-age=86400, private", resp.Header.Get("Cache-Control"))

	return images
}

// ListImagesV2 lists the fixture region's images with the query given.
func (h *Harness) ListImagesV2(query url.Values) []unikorn.Image {
	h.T.Helper()

	var images []unikorn.Image

	resp := h.Call(http.MethodGet, "/api/v2/regions/"+sandbox.RegionID+"/images?"+query.Encode(), nil).Expect(http.StatusOK, &images)
	require.Equal(h.T, "no-cache", resp.Header.Get("Cache-Control"))

	return images
}

// WebListener is a TCP listener on port with the members given.
func WebListener(name string, port int, members ...unikorn.LoadBalancerMember) unikorn.LoadBalancerListener {
	if members == nil {
		members = []unikorn.LoadBalancerMember{}
	}

	return unikorn.LoadBalancerListener{Name: name, Protocol: unikorn.LoadBalancerProtocolTCP, Port: port, Pool: unikorn.LoadBalancerPool{Members: members}}
}

// LoadBalancerCreate is a valid load balancer create body on a network: one listener on
// port 80 with one member.
func LoadBalancerCreate(name, networkID string, publicIP bool) unikorn.LoadBalancerCreate {
	return unikorn.LoadBalancerCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.LoadBalancerCreateSpec{
			LoadBalancerSpec: unikorn.LoadBalancerSpec{
				PublicIP:  &publicIP,
				Listeners: []unikorn.LoadBalancerListener{WebListener("http", 80, unikorn.LoadBalancerMember{Address: "10.0.0.10", Port: 8080})},
			},
			NetworkID: networkID,
		},
	}
}

// CreateLoadBalancer creates a load balancer and returns it as the create response shows it.
func (h *Harness) CreateLoadBalancer(body unikorn.LoadBalancerCreate) unikorn.LoadBalancer {
	h.T.Helper()

	return Created[unikorn.LoadBalancer](h, "/api/v2/loadbalancers", body)
}

// Quota is the fixture organization's quota of kind.
func (h *Harness) Quota(kind string) unikorn.Quota {
	h.T.Helper()

	var quotas unikorn.Quotas

	h.Call(http.MethodGet, OrganizationPath("/quotas"), nil).Expect(http.StatusOK, &quotas)

	for _, quota := range quotas.Quotas {
		if quota.Kind == kind {
			return quota
		}
	}

	require.Failf(h.T, "no such quota", "kind %s", kind)

	return unikorn.Quota{}
}

// Listed lists path as token and returns what key picks out of each item.
func Listed[T any](h *Harness, token, path string, key func(T) string) []string {
	h.T.Helper()

	var items []T

	h.CallAs(token, http.MethodGet, path, nil).Expect(http.StatusOK, &items)

	keys := make([]string, 0, len(items))
	for _, item := range items {
		keys = append(keys, key(item))
	}

	return keys
}

// FileStorageCreate is a valid file storage create body of the standard class in the
// fixture project, attached to the networks given.
func FileStorageCreate(name string, sizeGiB int64, networkIDs ...string) unikorn.FileStorageCreate {
	create := unikorn.FileStorageCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Tags: unikorn.Tags{{Name: "tier", Value: "web"}}},
		Spec: unikorn.FileStorageCreateSpec{
			FileStorageSpec: unikorn.FileStorageSpec{SizeGiB: sizeGiB},
			OrganizationID:  sandbox.OrganizationID,
			ProjectID:       sandbox.ProjectID,
			RegionID:        sandbox.RegionID,
			StorageClassID:  sandbox.StorageClassStandardID,
		},
	}

	if networkIDs != nil {
		create.Spec.Attachments = &unikorn.StorageAttachments{NetworkIDs: networkIDs}
	}

	return create
}

// CreateFileStorage creates file storage and returns it as the create response shows it.
func (h *Harness) CreateFileStorage(create unikorn.FileStorageCreate) unikorn.FileStorage {
	h.T.Helper()

	return Created[unikorn.FileStorage](h, "/api/v2/filestorage", create)
}

// EmptyOrganizationPath is a path of the empty organization's.
func EmptyOrganizationPath(suffix string) string {
	return "/api/v1/organizations/" + sandbox.EmptyOrganizationID + suffix
}

// CreateGroup creates a group as the administrator in the organization organizationPath
// names.
func (h *Harness) CreateGroup(organizationPath func(string) string, name string, spec unikorn.GroupSpec) unikorn.Group {
	h.T.Helper()

	var group unikorn.Group

	h.CallAs(sandbox.AdminToken, http.MethodPost, organizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: name}, Spec: spec}).
		Expect(http.StatusCreated, &group)

	return group
}

// CreateProject creates a project "team" of the groups given as the administrator in
// the organization organizationPath names.
func (h *Harness) CreateProject(organizationPath func(string) string, groupIDs ...string) unikorn.Project {
	h.T.Helper()

	var project unikorn.Project

	h.CallAs(sandbox.AdminToken, http.MethodPost, organizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "team"}, Spec: unikorn.ProjectSpec{GroupIDs: append([]string{}, groupIDs...)},
	}).Expect(http.StatusAccepted, &project)

	return project
}

// ProjectAs reads a project as token.
func (h *Harness) ProjectAs(token, organizationID, projectID string) *Response {
	h.T.Helper()

	return h.CallAs(token, http.MethodGet, "/api/v1/organizations/"+organizationID+"/projects/"+projectID, nil)
}

// InstanceAllocation is the allocation compute makes for an instance: a server, and
// the GPUs and floating IPs given.
func InstanceAllocation(id string, gpus, floatingIPs int) unikorn.AllocationWrite {
	return unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind: InstanceAllocationKind,
			ID:   id,
			Allocations: []unikorn.ResourceAllocation{
				{Kind: "servers", Committed: 1},
				{Kind: "gpus", Committed: gpus},
				{Kind: "floatingips", Committed: floatingIPs},
			},
		},
	}
}

// InstanceAllocationKind is the kind compute charges an instance's quota under.
const InstanceAllocationKind = "computeinstances.compute.unikorn-cloud.org"

// TokenWithRole is the token of a new service account of the fixture organization in
// a new group that holds role.
func (h *Harness) TokenWithRole(roleID string) string {
	h.T.Helper()

	group := h.CreateGroup(OrganizationPath, "holders", unikorn.GroupSpec{RoleIDs: []string{roleID}, ServiceAccountIDs: []string{}})

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, OrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "holder"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).Expect(http.StatusCreated, &account)

	return account.Status.AccessToken
}
