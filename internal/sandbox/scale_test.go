package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// populated is a sandbox holding n compute instances, each with its server, all
// provisioned, on a clock that stands still unless the caller moves it.
type populated struct {
	sb        *Sandbox
	clock     *core.ManualClock
	servers   []string
	instances []string
}

// populate builds the world of n settled instances directly, as a state file would
// hold it, so that filling it costs nothing the benchmark measures. The sandbox then
// runs as the unikorn-sandbox command does: without a state file.
func populate(tb testing.TB, n int, mutate ...func(*Options)) *populated {
	tb.Helper()

	created := core.FixtureTime.Add(time.Hour)
	p := &populated{clock: core.NewManualClock(created.Add(time.Hour))}

	opts := DefaultOptions()
	opts.Now = p.clock.Now

	for _, m := range mutate {
		m(&opts)
	}

	// The fixtures, as a fresh sandbox holds them in its saved form, with the
	// instances, their servers and their allocations added.
	base, err := New(DefaultOptions())
	require.NoError(tb, err)

	var saved map[string]json.RawMessage

	base.core.Read(func(st *core.Store) {
		data, err := json.Marshal(st)
		require.NoError(tb, err)
		require.NoError(tb, json.Unmarshal(data, &saved))
	})

	servers := map[string]any{}
	allocations := map[string]any{}
	instances := map[string]any{}

	for i := range n {
		name := fmt.Sprintf("web-%04d", i)

		id, err := unikorn.DeriveServerID(NetworkDefaultID, name)
		require.NoError(tb, err)

		// Compute's hidden server has an ID of its own; the instance's is the derived one.
		serverID := fmt.Sprintf("f%07x-0000-4000-8000-%012x", i, i)
		tags := unikorn.Tags{{Name: "role", Value: "web"}}
		networking := &unikorn.ServerNetworking{SecurityGroups: []string{SecurityGroupAllowSSHID}}

		metadata := core.ProjectMetadata(serverID, unikorn.WriteMetadata{Name: name, Tags: append(tags, unikorn.Tag{Name: instance.InstanceTag, Value: id})},
			OrganizationID, ProjectID, created)
		core.ApplyProvisioning(&metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

		server := unikorn.Server{
			Metadata: metadata,
			Spec:     unikorn.ServerSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID, Networking: networking},
			Status: unikorn.ServerStatus{
				RegionID: RegionID, NetworkID: NetworkDefaultID, PowerState: unikorn.PowerRunning,
				PrivateIP: fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255), MACAddress: core.MACAddress(uint32(i + 1)), //nolint:gosec // small
			},
		}
		servers[serverID] = map[string]any{"server": server}

		allocationID := fmt.Sprintf("a%07x-0000-4000-8000-%012x", i, i)
		allocations[allocationID] = unikorn.Allocation{}

		instance := unikorn.Instance{
			Metadata: core.ProjectMetadata(id, unikorn.WriteMetadata{Name: name, Tags: tags}, OrganizationID, ProjectID, created),
			Spec:     unikorn.InstanceSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID, Networking: networking},
			Status: unikorn.InstanceStatus{
				RegionID: RegionID, NetworkID: NetworkDefaultID, PowerState: unikorn.PowerRunning,
				PrivateIP: server.Status.PrivateIP, MACAddress: server.Status.MACAddress,
			},
		}
		core.ApplyProvisioning(&instance.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

		instances[id] = struct {
			unikorn.Instance

			AllocationID string `json:"allocationId"`
			ServerID     string `json:"serverId"`
		}{instance, allocationID, serverID}

		p.servers = append(p.servers, serverID)
		p.instances = append(p.instances, id)
	}

	for key, value := range map[string]any{"servers": servers, "compute": instances} {
		saved[key], err = json.Marshal(value)
		require.NoError(tb, err)
	}

	// The fixture networks' allocations stay.
	var fixtureAllocations map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal(saved["allocations"], &fixtureAllocations))

	for id, allocation := range fixtureAllocations {
		allocations[id] = allocation
	}

	saved["allocations"], err = json.Marshal(allocations)
	require.NoError(tb, err)

	state, err := json.Marshal(saved)
	require.NoError(tb, err)

	require.NoError(tb, base.Close())

	// The sandbox then runs as the unikorn-sandbox command does: without a state file.
	p.sb, err = newSandbox(opts, state)
	require.NoError(tb, err)

	tb.Cleanup(func() { require.NoError(tb, p.sb.Close()) })

	return p
}

// serve sends one request straight to the sandbox's handler and requires status.
func (p *populated) serve(tb testing.TB, token, method, path string, status int) {
	tb.Helper()

	p.send(tb, token, method, path, "", status)
}

// send is serve with a body.
func (p *populated) send(tb testing.TB, token, method, path, body string, status int) {
	tb.Helper()

	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}

	request := httptest.NewRequest(method, path, reader)
	request.Header.Set("Authorization", "Bearer "+token)
	request.Header.Set("Content-Type", "application/json")

	recorder := httptest.NewRecorder()
	p.sb.ServeHTTP(recorder, request)
	require.Equal(tb, status, recorder.Code, "%s %s: %s", method, path, recorder.Body)
}

// A read by ID, through region and through the compute service, costs the same
// whatever else the sandbox holds, and a list costs what it returns: compare the
// sizes (go test -bench Sandbox -run '^$' ./internal/sandbox).
func BenchmarkSandboxReadByID(b *testing.B) {
	for _, n := range []int{20, 2000} {
		for _, lag := range []time.Duration{0, 2 * time.Second} {
			p := populate(b, n, func(o *Options) { o.ReadLag = lag })
			middle := n / 2

			if lag > 0 {
				// Something lagging: one server changed, as during any run.
				p.serve(b, ServiceToken, http.MethodDelete, "/api/v2/servers/"+p.servers[0], http.StatusAccepted)
			}

			name := fmt.Sprintf("objects=%d/lag=%s", n, lag)

			// The first request brings the compute service's controller up to date with
			// what it loaded, once.
			p.serve(b, DefaultToken, http.MethodGet, ComputePrefix+"/api/v2/instances/"+p.instances[middle], http.StatusOK)

			b.Run("region/"+name, func(b *testing.B) {
				for b.Loop() {
					p.serve(b, ServiceToken, http.MethodGet, "/api/v2/servers/"+p.servers[middle], http.StatusOK)
				}
			})

			b.Run("compute/"+name, func(b *testing.B) {
				for b.Loop() {
					p.serve(b, DefaultToken, http.MethodGet, ComputePrefix+"/api/v2/instances/"+p.instances[middle], http.StatusOK)
				}
			})

			b.Run("region-list-one/"+name, func(b *testing.B) {
				path := "/api/v2/servers?tag=" + instance.InstanceTag + "=" + p.instances[middle]

				for b.Loop() {
					p.serve(b, ServiceToken, http.MethodGet, path, http.StatusOK)
				}
			})
		}
	}
}

// While the world keeps changing (an apply, a destroy), each request to the compute
// service finds something new, and its controller makes a pass over every instance.
func BenchmarkSandboxComputeWhileChanging(b *testing.B) {
	for _, n := range []int{20, 2000} {
		p := populate(b, n)
		middle := n / 2

		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			for b.Loop() {
				p.clock.Advance(time.Millisecond)
				p.send(b, PlatformAdminToken, http.MethodPut, "/api/v1/organizations/"+OrganizationID+"/quotas", `{"quotas":[{"kind":"servers","quantity":10000}]}`, http.StatusOK)
				p.serve(b, DefaultToken, http.MethodGet, ComputePrefix+"/api/v2/instances/"+p.instances[middle], http.StatusOK)
			}
		})
	}
}
