package unikorn

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// recorder stands in for one service: it records the last request and answers with
// whatever the test set.
type recorder struct {
	mu     sync.Mutex
	method string
	path   string
	query  string
	body   string
	status int
	reply  string
	calls  int
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)

	r.mu.Lock()
	r.method, r.path, r.query, r.body = req.Method, req.URL.EscapedPath(), req.URL.RawQuery, string(body)
	r.calls++
	status, reply := r.status, r.reply
	r.mu.Unlock()

	answer(status, reply)(w, req)
}

func (r *recorder) respond(status int, reply string) {
	r.mu.Lock()
	defer r.mu.Unlock()

	r.status, r.reply, r.calls = status, reply, 0
}

// startServices starts every declared service (region, identity, compute, …), so that
// tests see which one a call went to, by name. Those the sandbox serves under a path
// prefix sit under it here too, as they may behind a shared host.
func startServices(t *testing.T) (*Client, map[string]*recorder) {
	t.Helper()

	recorders := map[string]*recorder{}

	var endpoints services.Endpoints

	for _, service := range services.All() {
		recorders[service.Name()] = &recorder{}

		mux := http.NewServeMux()
		prefix := service.SandboxPrefix()
		mux.Handle(prefix+"/", http.StripPrefix(prefix, recorders[service.Name()]))

		server := httptest.NewServer(mux)
		t.Cleanup(server.Close)

		// A trailing slash is ignored.
		endpoints[service] = server.URL + prefix + "/"
	}

	client := newTestClientFor(t, endpoints[services.Region], endpoints[services.Identity], func(cfg *Config) {
		cfg.Endpoints = endpoints
	})

	return client, recorders
}

const (
	regionService   = "region"
	identityService = "identity"
	computeService  = "compute"
)

type endpointCase struct {
	call    func(context.Context, *Client) (any, error)
	service string
	method  string
	path    string
	query   string
	body    string // the JSON the call must send; empty for none
	status  int    // the contract's success status
	reply   string // empty for operations without an answer body
}

const (
	objectReply = `{"metadata":{"id":"a-1","name":"reply"}}`
	listReply   = `[` + objectReply + `]`
)

var (
	sshPort       = 22
	writeMetadata = WriteMetadata{Name: "web", Tags: Tags{{Name: "env", Value: "test"}}}
	allocation    = AllocationWrite{
		Metadata: WriteMetadata{Name: "undefined"},
		Spec: AllocationSpec{
			Kind: "computeinstances.compute.unikorn-cloud.org", ID: "i-1",
			Allocations: []ResourceAllocation{{Kind: "servers", Committed: 1}},
		},
	}
)

const (
	writeMetadataJSON = `{"name":"web","tags":[{"name":"env","value":"test"}]}`
	allocationJSON    = `{"metadata":{"name":"undefined"},"spec":{"kind":"computeinstances.compute.unikorn-cloud.org","id":"i-1",` +
		`"allocations":[{"kind":"servers","committed":1,"reserved":0}]}}`
)

// endpoints is the contract, one row per client method: the request it must send and
// the success status it must expect.
var endpoints = map[string]endpointCase{
	"ListRegions": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListRegions(ctx, "o-1") },
		service: regionService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions",
		status: http.StatusOK, reply: listReply,
	},
	"ListFlavors": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListFlavors(ctx, "o-1", "r-1") },
		service: regionService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/flavors",
		status: http.StatusOK, reply: listReply,
	},
	"ListImages": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListImages(ctx, "o-1", "r-1") },
		service: regionService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/images",
		status: http.StatusOK, reply: listReply,
	},
	"ListImagesV2": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListImagesV2(ctx, "r-1", ImageQuery{OrganizationIDs: []string{"o-1"}, Scope: ImageScopeOwned, Status: []string{ImageReady, ImageFailed}})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/regions/r-1/images",
		query:  "organizationID=o-1&scope=owned&status=ready&status=failed",
		status: http.StatusOK, reply: listReply,
	},
	"CreateImage": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateImage(ctx, "o-1", "r-1", ImageCreate{Metadata: writeMetadata, Spec: ImageCreateSpec{
				URI: "https://example.com/a.raw", Architecture: ArchitectureX86_64, Virtualization: VirtualizationAny,
				OS: ImageOS{Kernel: "linux", Family: "debian", Distro: "debian", Version: "12"},
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v1/organizations/o-1/regions/r-1/images",
		body: `{"metadata":` + writeMetadataJSON + `,"spec":{"uri":"https://example.com/a.raw","architecture":"x86_64",` +
			`"virtualization":"any","os":{"kernel":"linux","family":"debian","distro":"debian","version":"12"}}}`,
		status: http.StatusOK, reply: objectReply,
	},
	"DeleteImage": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteImage(ctx, "o-1", "r-1", "i-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v1/organizations/o-1/regions/r-1/images/i-1",
		status: http.StatusAccepted,
	},
	"ListNetworks": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListNetworks(ctx, NetworkQuery{
				Tags:            Tags{{Name: "compute.unikorn-cloud.org/instance-id", Value: "i-1"}},
				OrganizationIDs: []string{"o-1"}, ProjectIDs: []string{"p-1", "p-2"}, RegionIDs: []string{"r-1"},
			})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/networks",
		query:  "organizationID=o-1&projectID=p-1&projectID=p-2&regionID=r-1&tag=compute.unikorn-cloud.org%2Finstance-id%3Di-1",
		status: http.StatusOK, reply: listReply,
	},
	"CreateNetwork": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateNetwork(ctx, NetworkCreate{Metadata: writeMetadata, Spec: NetworkCreateSpec{
				NetworkSpec:    NetworkSpec{DNSNameservers: []string{}},
				OrganizationID: "o-1", ProjectID: "p-1", RegionID: "r-1", Prefix: "10.0.0.0/24",
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/networks",
		body: `{"metadata":` + writeMetadataJSON + `,"spec":{"dnsNameservers":[],"organizationId":"o-1","projectId":"p-1",` +
			`"regionId":"r-1","prefix":"10.0.0.0/24"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetNetwork": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetNetwork(ctx, "n-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/networks/n-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateNetwork": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateNetwork(ctx, "n-1", NetworkUpdate{Metadata: writeMetadata, Spec: NetworkSpec{DNSNameservers: []string{"8.8.8.8"}}})
		},
		service: regionService, method: http.MethodPut, path: "/api/v2/networks/n-1",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"dnsNameservers":["8.8.8.8"]}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"DeleteNetwork": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteNetwork(ctx, "n-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v2/networks/n-1",
		status: http.StatusAccepted,
	},
	"ListSecurityGroups": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListSecurityGroups(ctx, SecurityGroupQuery{NetworkIDs: []string{"n-1", "n-2"}})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/securitygroups",
		query: "networkID=n-1&networkID=n-2", status: http.StatusOK, reply: listReply,
	},
	"CreateSecurityGroup": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateSecurityGroup(ctx, SecurityGroupCreate{Metadata: writeMetadata, Spec: SecurityGroupCreateSpec{
				SecurityGroupSpec: SecurityGroupSpec{Rules: []SecurityGroupRule{{Direction: "ingress", Protocol: "tcp", Port: &sshPort}}},
				NetworkID:         "n-1",
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/securitygroups",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"rules":[{"direction":"ingress","protocol":"tcp","port":22}],"networkId":"n-1"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetSecurityGroup": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetSecurityGroup(ctx, "sg-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/securitygroups/sg-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateSecurityGroup": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateSecurityGroup(ctx, "sg-1", SecurityGroupUpdate{Metadata: writeMetadata, Spec: SecurityGroupSpec{Rules: []SecurityGroupRule{}}})
		},
		service: regionService, method: http.MethodPut, path: "/api/v2/securitygroups/sg-1",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"rules":[]}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"DeleteSecurityGroup": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteSecurityGroup(ctx, "sg-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v2/securitygroups/sg-1",
		status: http.StatusAccepted,
	},
	"ListSSHCertificateAuthorities": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListSSHCertificateAuthorities(ctx, SSHCertificateAuthorityQuery{OrganizationIDs: []string{"o-1"}, ProjectIDs: []string{"p-1"}})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/sshcertificateauthorities",
		query: "organizationID=o-1&projectID=p-1", status: http.StatusOK, reply: listReply,
	},
	"CreateSSHCertificateAuthority": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateSSHCertificateAuthority(ctx, SSHCertificateAuthorityCreate{Metadata: writeMetadata, Spec: SSHCertificateAuthorityCreateSpec{
				SSHCertificateAuthoritySpec: SSHCertificateAuthoritySpec{PublicKey: "ssh-ed25519 AAAA"},
				OrganizationID:              "o-1", ProjectID: "p-1",
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/sshcertificateauthorities",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"publicKey":"ssh-ed25519 AAAA","organizationId":"o-1","projectId":"p-1"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetSSHCertificateAuthority": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetSSHCertificateAuthority(ctx, "ca-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/sshcertificateauthorities/ca-1",
		status: http.StatusOK, reply: objectReply,
	},
	"DeleteSSHCertificateAuthority": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteSSHCertificateAuthority(ctx, "ca-1")
		},
		service: regionService, method: http.MethodDelete, path: "/api/v2/sshcertificateauthorities/ca-1",
		status: http.StatusAccepted,
	},
	"ListServers": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListServers(ctx, ServerQuery{
				Tags:            Tags{{Name: "a", Value: "b"}, {Name: "c", Value: "d"}},
				OrganizationIDs: []string{"o-1", "o-2"}, ProjectIDs: []string{"p-1"}, RegionIDs: []string{"r-1"}, NetworkIDs: []string{"n-1"},
			})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/servers",
		query:  "networkID=n-1&organizationID=o-1&organizationID=o-2&projectID=p-1&regionID=r-1&tag=a%3Db&tag=c%3Dd",
		status: http.StatusOK, reply: listReply,
	},
	"CreateServer": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateServer(ctx, ServerCreate{Metadata: writeMetadata, Spec: ServerCreateSpec{
				ServerSpec: ServerSpec{FlavorID: "f-1", ImageID: "i-1", Networking: &ServerNetworking{PublicIP: true}},
				NetworkID:  "n-1",
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/servers",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"flavorId":"f-1","imageId":"i-1","networking":{"publicIP":true},"networkId":"n-1"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetServer(ctx, "s/1 x") },
		service: regionService, method: http.MethodGet, path: "/api/v2/servers/s%2F1%20x",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateServer": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateServer(ctx, "s-1", ServerUpdate{Metadata: writeMetadata, Spec: ServerSpec{FlavorID: "f-1", ImageID: "i-1"}})
		},
		service: regionService, method: http.MethodPut, path: "/api/v2/servers/s-1",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"flavorId":"f-1","imageId":"i-1"}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"DeleteServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteServer(ctx, "s-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v2/servers/s-1",
		status: http.StatusAccepted,
	},
	"StartServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.StartServer(ctx, "s-1") },
		service: regionService, method: http.MethodPost, path: "/api/v2/servers/s-1/start",
		status: http.StatusAccepted,
	},
	"StopServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.StopServer(ctx, "s-1") },
		service: regionService, method: http.MethodPost, path: "/api/v2/servers/s-1/stop",
		status: http.StatusAccepted,
	},
	"SoftRebootServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.SoftRebootServer(ctx, "s-1") },
		service: regionService, method: http.MethodPost, path: "/api/v2/servers/s-1/softreboot",
		status: http.StatusAccepted,
	},
	"HardRebootServer": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.HardRebootServer(ctx, "s-1") },
		service: regionService, method: http.MethodPost, path: "/api/v2/servers/s-1/hardreboot",
		status: http.StatusAccepted,
	},
	"GetServerSSHKey": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetServerSSHKey(ctx, "s-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/servers/s-1/sshkey",
		status: http.StatusOK, reply: `{"privateKey":"reply"}`,
	},
	"GetServerConsoleSession": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetServerConsoleSession(ctx, "s-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/servers/s-1/consolesessions",
		status: http.StatusOK, reply: `{"url":"reply"}`,
	},
	"GetServerConsoleOutput whole": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetServerConsoleOutput(ctx, "s-1", 0) },
		service: regionService, method: http.MethodGet, path: "/api/v2/servers/s-1/consoleoutput",
		status: http.StatusOK, reply: `{"contents":"reply"}`,
	},
	"GetServerConsoleOutput tail": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetServerConsoleOutput(ctx, "s-1", 25) },
		service: regionService, method: http.MethodGet, path: "/api/v2/servers/s-1/consoleoutput", query: "length=25",
		status: http.StatusOK, reply: `{"contents":"reply"}`,
	},
	"SnapshotServer": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.SnapshotServer(ctx, "s-1", SnapshotCreate{Metadata: writeMetadata})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/servers/s-1/snapshot",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"ListOrganizations": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListOrganizations(ctx) },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations",
		status: http.StatusOK, reply: listReply,
	},
	"GetOrganization": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetOrganization(ctx, "o-1") },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations/o-1",
		status: http.StatusOK, reply: objectReply,
	},
	"ListProjects": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListProjects(ctx, "o-1") },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations/o-1/projects",
		status: http.StatusOK, reply: listReply,
	},
	"GetProject": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetProject(ctx, "o-1", "p-1") },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations/o-1/projects/p-1",
		status: http.StatusOK, reply: objectReply,
	},
	"GetQuotas": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetQuotas(ctx, "o-1") },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations/o-1/quotas",
		status: http.StatusOK, reply: `{"quotas":[{"kind":"reply"}]}`,
	},
	"CreateAllocation": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateAllocation(ctx, "o-1", "p-1", allocation)
		},
		service: identityService, method: http.MethodPost, path: "/api/v1/organizations/o-1/projects/p-1/allocations",
		body: allocationJSON, status: http.StatusCreated, reply: objectReply,
	},
	"GetAllocation": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetAllocation(ctx, "o-1", "p-1", "al-1") },
		service: identityService, method: http.MethodGet, path: "/api/v1/organizations/o-1/projects/p-1/allocations/al-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateAllocation": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateAllocation(ctx, "o-1", "p-1", "al-1", allocation)
		},
		service: identityService, method: http.MethodPut, path: "/api/v1/organizations/o-1/projects/p-1/allocations/al-1",
		body: allocationJSON, status: http.StatusOK, reply: objectReply,
	},
	"DeleteAllocation": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteAllocation(ctx, "o-1", "p-1", "al-1")
		},
		service: identityService, method: http.MethodDelete, path: "/api/v1/organizations/o-1/projects/p-1/allocations/al-1",
		status: http.StatusAccepted,
	},
	"ListComputeRegions": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListComputeRegions(ctx, "o-1") },
		service: computeService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions",
		status: http.StatusOK, reply: listReply,
	},
	"ListComputeFlavors": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListComputeFlavors(ctx, "o-1", "r-1") },
		service: computeService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/flavors",
		status: http.StatusOK, reply: listReply,
	},
	"ListComputeImages": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListComputeImages(ctx, "o-1", "r-1") },
		service: computeService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/images",
		status: http.StatusOK, reply: listReply,
	},
	"GetComputeVersion": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetComputeVersion(ctx) },
		service: computeService, method: http.MethodGet, path: "/api/version",
		status: http.StatusOK, reply: `{"name":"reply","version":"v1.17.0"}`,
	},
	"ListInstances": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListInstances(ctx, InstanceQuery{
				Tags:            Tags{{Name: "env", Value: "test"}},
				OrganizationIDs: []string{"o-1"}, ProjectIDs: []string{"p-1"}, RegionIDs: []string{"r-1"}, NetworkIDs: []string{"n-1", "n-2"},
			})
		},
		service: computeService, method: http.MethodGet, path: "/api/v2/instances",
		query:  "networkID=n-1&networkID=n-2&organizationID=o-1&projectID=p-1&regionID=r-1&tag=env%3Dtest",
		status: http.StatusOK, reply: listReply,
	},
	"CreateInstance": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateInstance(ctx, InstanceCreate{Metadata: writeMetadata, Spec: InstanceCreateSpec{
				InstanceSpec: InstanceSpec{
					FlavorID: "f-1", ImageID: "i-1", SSHCertificateAuthorityID: "ca-1", UserData: "I2Nsb3VkLWNvbmZpZw==",
					Networking: &ServerNetworking{SecurityGroups: []string{"sg-1"}, PublicIP: true},
				},
				OrganizationID: "o-1", ProjectID: "p-1", NetworkID: "n-1",
			}})
		},
		service: computeService, method: http.MethodPost, path: "/api/v2/instances",
		body: `{"metadata":` + writeMetadataJSON + `,"spec":{"flavorId":"f-1","imageId":"i-1",` +
			`"networking":{"securityGroups":["sg-1"],"publicIP":true},"sshCertificateAuthorityId":"ca-1",` +
			`"userData":"I2Nsb3VkLWNvbmZpZw==","organizationId":"o-1","projectId":"p-1","networkId":"n-1"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetInstance": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetInstance(ctx, "in-1") },
		service: computeService, method: http.MethodGet, path: "/api/v2/instances/in-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateInstance": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateInstance(ctx, "in-1", InstanceUpdate{Metadata: writeMetadata, Spec: InstanceSpec{FlavorID: "f-2", ImageID: "i-1"}})
		},
		service: computeService, method: http.MethodPut, path: "/api/v2/instances/in-1",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"flavorId":"f-2","imageId":"i-1"}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"DeleteInstance": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteInstance(ctx, "in-1") },
		service: computeService, method: http.MethodDelete, path: "/api/v2/instances/in-1",
		status: http.StatusAccepted,
	},
	"StartInstance": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.StartInstance(ctx, "in-1") },
		service: computeService, method: http.MethodPost, path: "/api/v2/instances/in-1/start",
		status: http.StatusAccepted,
	},
	"StopInstance": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.StopInstance(ctx, "in-1") },
		service: computeService, method: http.MethodPost, path: "/api/v2/instances/in-1/stop",
		status: http.StatusAccepted,
	},
	"RebootInstance": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.RebootInstance(ctx, "in-1", true) },
		service: computeService, method: http.MethodPost, path: "/api/v2/instances/in-1/reboot",
		query: "hard=true", status: http.StatusAccepted,
	},
	"GetInstanceSSHKey": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetInstanceSSHKey(ctx, "in-1") },
		service: computeService, method: http.MethodGet, path: "/api/v2/instances/in-1/sshkey",
		status: http.StatusOK, reply: `{"privateKey":"reply"}`,
	},
	"GetInstanceConsoleSession": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetInstanceConsoleSession(ctx, "in-1") },
		service: computeService, method: http.MethodGet, path: "/api/v2/instances/in-1/consolesession",
		status: http.StatusOK, reply: `{"url":"reply"}`,
	},
	"GetInstanceConsoleOutput": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetInstanceConsoleOutput(ctx, "in-1", 50) },
		service: computeService, method: http.MethodGet, path: "/api/v2/instances/in-1/consoleoutput",
		query: "length=50", status: http.StatusOK, reply: `{"contents":"reply"}`,
	},
	"SnapshotInstance": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.SnapshotInstance(ctx, "in-1", InstanceSnapshotCreate{Metadata: WriteMetadata{Name: "web-snapshot"}})
		},
		service: computeService, method: http.MethodPost, path: "/api/v2/instances/in-1/snapshot",
		body:   `{"metadata":{"name":"web-snapshot"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
}

func TestEndpointsFollowTheContract(t *testing.T) {
	t.Parallel()

	for name, endpoint := range endpoints {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			client, recorders := startServices(t)

			target := recorders[endpoint.service]
			target.respond(endpoint.status, endpoint.reply)

			result, err := endpoint.call(t.Context(), client)
			require.NoError(t, err)

			for service, other := range recorders {
				if other != target {
					assert.Zero(t, other.calls, "sent to %s instead of %s", service, endpoint.service)
				}
			}

			assert.Equal(t, 1, target.calls)
			assert.Equal(t, endpoint.method, target.method)
			assert.Equal(t, endpoint.path, target.path)
			assert.Equal(t, endpoint.query, target.query)

			if endpoint.body == "" {
				assert.Empty(t, target.body)
			} else {
				assert.JSONEq(t, endpoint.body, target.body)
			}

			if endpoint.reply == "" {
				assert.Nil(t, result)
			} else {
				decoded, err := json.Marshal(result)
				require.NoError(t, err)
				assert.Contains(t, string(decoded), `"reply"`, "the answer must decode into the result")
			}
		})
	}
}

// Any other success status than the contract's is an error too: it means the client
// and the service disagree about what happened.
func TestEndpointsRejectOtherSuccessStatuses(t *testing.T) {
	t.Parallel()

	for name, endpoint := range endpoints {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			client, recorders := startServices(t)

			other := http.StatusOK
			if endpoint.status == http.StatusOK {
				other = http.StatusNoContent
			}

			for _, service := range recorders {
				service.respond(other, endpoint.reply)
			}

			_, err := endpoint.call(t.Context(), client)

			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, other, apiErr.StatusCode)
			assert.Equal(t, endpoint.method, apiErr.Method)
			assert.Equal(t, endpoint.path, apiErr.Path)
		})
	}
}

func TestListsAcceptNullAndEmpty(t *testing.T) {
	t.Parallel()

	for _, body := range []string{`null`, `[]`, " [ ]\n"} {
		client := newTestClient(t, answer(http.StatusOK, body))

		servers, err := client.ListServers(t.Context(), ServerQuery{})
		require.NoError(t, err, body)
		assert.Empty(t, servers, body)
	}
}

func TestMalformedAnswersAreErrors(t *testing.T) {
	t.Parallel()

	tests := map[string]struct {
		body    string
		call    func(*Client) error
		wantErr string
	}{
		"null object": {
			body:    `null`,
			call:    func(c *Client) error { _, err := c.GetNetwork(context.Background(), "n-1"); return err },
			wantErr: "GET /api/v2/networks/n-1: decoding the answer: the answer is null",
		},
		"empty object": {
			body:    ``,
			call:    func(c *Client) error { _, err := c.GetNetwork(context.Background(), "n-1"); return err },
			wantErr: "GET /api/v2/networks/n-1: decoding the answer: unexpected end of JSON input",
		},
		"object for a list": {
			body:    `{"metadata":{}}`,
			call:    func(c *Client) error { _, err := c.ListNetworks(context.Background(), NetworkQuery{}); return err },
			wantErr: "GET /api/v2/networks: decoding the answer: json: cannot unmarshal object",
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			client := newTestClient(t, answer(http.StatusOK, test.body))

			err := test.call(client)
			require.ErrorContains(t, err, test.wantErr)
		})
	}
}

func TestGetImage(t *testing.T) {
	t.Parallel()

	images := `[
		{"metadata":{"id":"i-ready","name":"ubuntu"},"status":{"state":"ready"}},
		{"metadata":{"id":"i-snapshot","name":"web-snapshot"},"status":{"state":"creating"}}
	]`

	client, recorders := startServices(t)
	region := recorders[regionService]
	region.respond(http.StatusOK, images)

	image, err := client.GetImage(t.Context(), "o-1", "r-1", "i-snapshot")
	require.NoError(t, err)
	assert.Equal(t, "web-snapshot", image.Metadata.Name)
	assert.Equal(t, ImageCreating, image.Status.State)

	assert.Equal(t, "/api/v2/regions/r-1/images", region.path)
	assert.Equal(t, "organizationID=o-1&scope=available&status=pending&status=creating&status=ready&status=failed", region.query)

	_, err = client.GetImage(t.Context(), "o-1", "r-1", "i-gone")
	require.True(t, IsNotFound(err), "got %v", err)

	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, ErrorNotFound, apiErr.Code)
	assert.EqualError(t, err, "GET /api/v2/regions/r-1/images: 404 not_found: image i-gone is not available to organization o-1")
}

// Without a compute or identity endpoint a call to that service fails before anything
// is sent, rather than reaching some other service by a relative URL.
func TestOptionalServicesNeedAnEndpoint(t *testing.T) {
	t.Parallel()

	var calls atomic.Int32

	client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusOK)
	}), func(c *Config) { c.Endpoints[services.Identity] = "" })

	_, err := client.GetInstance(t.Context(), "in-1")
	require.ErrorIs(t, err, ErrNoComputeEndpoint)
	assert.EqualError(t, err, "GET /api/v2/instances/in-1: no compute endpoint is configured")

	_, err = client.GetAllocation(t.Context(), "o-1", "p-1", "a-1")
	require.ErrorIs(t, err, ErrNoIdentityEndpoint)
	assert.EqualError(t, err, "GET /api/v1/organizations/o-1/projects/p-1/allocations/a-1: no identity endpoint is configured")

	assert.Zero(t, calls.Load())
}

// A soft reboot is the default and carries no query: compute reads a missing `hard`
// as false.
func TestSoftRebootInstanceSendsNoQuery(t *testing.T) {
	t.Parallel()

	client, recorders := startServices(t)
	compute := recorders[computeService]
	compute.respond(http.StatusAccepted, "")

	require.NoError(t, client.RebootInstance(t.Context(), "in-1", false))
	assert.Equal(t, "/api/v2/instances/in-1/reboot", compute.path)
	assert.Empty(t, compute.query)
}

// A create is never retried: a lost answer may hide an instance that exists.
func TestCreateInstanceIsNotRetried(t *testing.T) {
	t.Parallel()

	client, recorders := startServices(t)
	compute := recorders[computeService]
	compute.respond(http.StatusServiceUnavailable, `{"error":"server_error","error_description":"busy"}`)

	_, err := client.CreateInstance(t.Context(), InstanceCreate{})
	require.Error(t, err)
	assert.Equal(t, 1, compute.calls)

	_, err = client.GetInstance(t.Context(), "in-1")
	require.Error(t, err)
	assert.Greater(t, compute.calls, 1, "a read is retried")
}
