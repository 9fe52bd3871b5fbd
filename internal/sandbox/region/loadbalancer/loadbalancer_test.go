package loadbalancer_test

import (
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/loadbalancer"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const loadBalancersPath = "/api/v2/loadbalancers"

func getLoadBalancer(h *sandboxtest.Harness, id string) unikorn.LoadBalancer {
	h.T.Helper()

	var lb unikorn.LoadBalancer

	h.Call(http.MethodGet, loadBalancersPath+"/"+id, nil).Expect(http.StatusOK, &lb)

	return lb
}

// update is the PUT body that keeps a load balancer's metadata with spec.
func update(lb unikorn.LoadBalancer, spec unikorn.LoadBalancerSpec) unikorn.LoadBalancerUpdate {
	return unikorn.LoadBalancerUpdate{Metadata: lb.Metadata.WriteMetadata, Spec: spec}
}

// loadBalancerAllocations returns the allocations region made for load balancers.
func loadBalancerAllocations(h *sandboxtest.Harness) []unikorn.Allocation {
	var found []unikorn.Allocation

	for _, allocation := range h.Sandbox.Allocations() {
		if allocation.Spec.Kind == loadbalancer.AllocationKind {
			found = append(found, allocation)
		}
	}

	return found
}

func TestLoadBalancerLifecycle(t *testing.T) {
	h := sandboxtest.New(t)

	lb := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("front", sandbox.NetworkDefaultID, true))
	assert.Equal(t, unikorn.ProvisioningPending, lb.Metadata.ProvisioningStatus)
	assert.Equal(t, sandbox.ProjectID, lb.Metadata.ProjectID, "the project is the network's")
	assert.Equal(t, sandbox.RegionID, lb.Status.RegionID)
	assert.Equal(t, sandbox.NetworkDefaultID, lb.Status.NetworkID)
	assert.Empty(t, lb.Status.VIPAddress, "no address before it is provisioned")
	assert.Empty(t, lb.Status.PublicIP)

	allocations := loadBalancerAllocations(h)
	require.Len(t, allocations, 1)
	assert.Equal(t, lb.Metadata.ID, allocations[0].Spec.ID)
	assert.Equal(t, loadbalancer.Allocations(true), allocations[0].Spec.Allocations)

	h.Clock.Advance(sandboxtest.Settle)

	lb = getLoadBalancer(h, lb.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)
	assert.True(t, netip.MustParsePrefix("10.0.0.0/24").Contains(netip.MustParseAddr(lb.Status.VIPAddress)), lb.Status.VIPAddress)
	assert.True(t, core.PublicPool.Contains(netip.MustParseAddr(lb.Status.PublicIP)), lb.Status.PublicIP)

	vip, publicIP := lb.Status.VIPAddress, lb.Status.PublicIP

	// Dropping the public IP keeps the VIP, and the status says what it said until the
	// controller takes the change up.
	spec := lb.Spec
	spec.PublicIP = new(bool)

	var updated unikorn.LoadBalancer

	h.Call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, spec)).Expect(http.StatusAccepted, &updated)
	assert.False(t, *updated.Spec.PublicIP)
	assert.Equal(t, unikorn.ProvisioningProvisioned, updated.Metadata.ProvisioningStatus, "no observed generation: still provisioned")
	assert.Equal(t, publicIP, updated.Status.PublicIP, "the public IP goes when the controller acts")
	assert.Equal(t, loadbalancer.Allocations(false), loadBalancerAllocations(h)[0].Spec.Allocations, "the quota moves with the write")

	h.Clock.Advance(sandboxtest.Settle)

	lb = getLoadBalancer(h, lb.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)
	assert.Equal(t, vip, lb.Status.VIPAddress)
	assert.Empty(t, lb.Status.PublicIP)

	// And asking for one again fills it in, still with the same VIP.
	spec.PublicIP = new(bool)
	*spec.PublicIP = true
	h.Call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, spec)).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	lb = getLoadBalancer(h, lb.Metadata.ID)
	assert.Equal(t, vip, lb.Status.VIPAddress)
	assert.NotEmpty(t, lb.Status.PublicIP)

	path := loadBalancersPath + "/" + lb.Metadata.ID
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, getLoadBalancer(h, lb.Metadata.ID).Metadata.ProvisioningStatus)
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodPut, path, update(lb, spec)).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Empty(t, loadBalancerAllocations(h), "the quota is released once it is gone")
	assert.Empty(t, h.Sandbox.LoadBalancers())
}

func TestLoadBalancerStoresRegionsDefaults(t *testing.T) {
	h := sandboxtest.New(t)

	body := `{"metadata":{"name":"defaults"},"spec":{"networkId":"` + sandbox.NetworkDefaultID + `","listeners":[
		{"name":"web","protocol":"tcp","port":80,"allowedCidrs":["192.0.2.9/24"],"pool":{"members":[],"healthCheck":{}}},
		{"name":"dns","protocol":"udp","port":53,"allowedCidrs":[],"pool":{"members":[{"address":"10.0.0.9","port":53}]}}]}}`

	var lb unikorn.LoadBalancer

	h.Call(http.MethodPost, loadBalancersPath, body).Expect(http.StatusCreated, &lb)
	h.Clock.Advance(sandboxtest.Settle)

	read := h.Call(http.MethodGet, loadBalancersPath+"/"+lb.Metadata.ID, nil)
	read.Expect(http.StatusOK, &lb)

	assert.False(t, *lb.Spec.PublicIP, "booleans are always present")

	web, dns := lb.Spec.Listeners[0], lb.Spec.Listeners[1]
	assert.Equal(t, []string{"192.0.2.0/24"}, web.AllowedCIDRs, "CIDRs are stored as networks")
	assert.Equal(t, 60, *web.IdleTimeoutSeconds)
	assert.Equal(t, &unikorn.LoadBalancerHealthCheck{
		IntervalSeconds: intPointer(10), TimeoutSeconds: intPointer(5), HealthyThreshold: intPointer(2), UnhealthyThreshold: intPointer(2),
	}, web.Pool.HealthCheck)
	assert.False(t, *web.Pool.ProxyProtocolV2)

	assert.Nil(t, dns.IdleTimeoutSeconds, "UDP has no idle timeout")
	assert.Nil(t, dns.Pool.HealthCheck, "an absent health check stays absent")
	assert.NotContains(t, string(read.Body), `"allowedCidrs":[]`, "an empty CIDR list reads back absent")
	assert.Contains(t, string(read.Body), `"members":[]`, "members are never null")
}

func intPointer(i int) *int { return &i }

func TestLoadBalancerRefusals(t *testing.T) {
	h := sandboxtest.New(t)

	otherNetwork := sandbox.NetworkSecondaryID

	for name, tc := range map[string]struct {
		mutate func(*unikorn.LoadBalancerCreate)
		status int
	}{
		"missing network":       {func(b *unikorn.LoadBalancerCreate) { b.Spec.NetworkID = "c0000000-0000-4000-8000-0000000000ff" }, http.StatusNotFound},
		"network not a UUID":    {func(b *unikorn.LoadBalancerCreate) { b.Spec.NetworkID = "default" }, http.StatusBadRequest},
		"no listener":           {func(b *unikorn.LoadBalancerCreate) { b.Spec.Listeners = nil }, http.StatusBadRequest},
		"VIP outside network":   {func(b *unikorn.LoadBalancerCreate) { b.Spec.VIPAddress = "10.9.0.5" }, http.StatusUnprocessableEntity},
		"VIP not an address":    {func(b *unikorn.LoadBalancerCreate) { b.Spec.VIPAddress = "10.0.0.300" }, http.StatusBadRequest},
		"member not an address": {func(b *unikorn.LoadBalancerCreate) { b.Spec.Listeners[0].Pool.Members[0].Address = "web" }, http.StatusBadRequest},
		"listener name":         {func(b *unikorn.LoadBalancerCreate) { b.Spec.Listeners[0].Name = "HTTP" }, http.StatusBadRequest},
		"duplicate port": {func(b *unikorn.LoadBalancerCreate) {
			b.Spec.Listeners = append(b.Spec.Listeners, sandboxtest.WebListener("other", 80))
		}, http.StatusUnprocessableEntity},
		"secondary network, VIP of the default one": {func(b *unikorn.LoadBalancerCreate) {
			b.Spec.NetworkID, b.Spec.VIPAddress = otherNetwork, "10.0.0.5"
		}, http.StatusUnprocessableEntity},
	} {
		t.Run(name, func(t *testing.T) {
			body := sandboxtest.LoadBalancerCreate("refused", sandbox.NetworkDefaultID, false)
			tc.mutate(&body)
			assert.Equal(t, tc.status, h.Call(http.MethodPost, loadBalancersPath, body).Status)
		})
	}

	missing := `{"metadata":{"name":"x"},"spec":{"networkId":"` + sandbox.NetworkDefaultID + `","listeners":[{"name":"web","protocol":"tcp","port":80,"pool":{}}]}}`
	body := h.Call(http.MethodPost, loadBalancersPath, missing).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, body.ErrorDescription, `Error at "/listeners/0/pool/members": property "members" is missing`)

	// Another organization's member is refused its network, never told it is missing.
	h.CallAs(sandbox.ForeignToken, http.MethodPost, loadBalancersPath, sandboxtest.LoadBalancerCreate("foreign", sandbox.NetworkDefaultID, false)).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	assert.Empty(t, h.Sandbox.LoadBalancers(), "nothing refused was made")
	assert.Empty(t, loadBalancerAllocations(h), "nothing refused was charged")
}

func TestLoadBalancerUpdateRefusesChangingAListenerInPlace(t *testing.T) {
	h := sandboxtest.New(t)

	lb := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("front", sandbox.NetworkDefaultID, false))
	h.Clock.Advance(sandboxtest.Settle)
	lb = getLoadBalancer(h, lb.Metadata.ID)
	path := loadBalancersPath + "/" + lb.Metadata.ID

	moved := lb.Spec
	moved.Listeners = []unikorn.LoadBalancerListener{sandboxtest.WebListener("http", 8080)}
	body := h.Call(http.MethodPut, path, update(lb, moved)).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
	assert.Equal(t, "listener port cannot be changed for an existing listener name", body.ErrorDescription)

	// Under another name it is a removal and an addition, which region takes.
	moved.Listeners[0].Name = "http-alt"
	h.Call(http.MethodPut, path, update(lb, moved)).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, "http-alt", getLoadBalancer(h, lb.Metadata.ID).Spec.Listeners[0].Name)
}

func TestLoadBalancerUpdateThatChangesNothingLeavesItProvisioned(t *testing.T) {
	h := sandboxtest.New(t)

	lb := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("front", sandbox.NetworkDefaultID, false))
	h.Clock.Advance(sandboxtest.Settle)
	lb = getLoadBalancer(h, lb.Metadata.ID)

	h.Call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, lb.Spec)).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle / 4)
	assert.Equal(t, lb, getLoadBalancer(h, lb.Metadata.ID))
}

func TestLoadBalancerQuota(t *testing.T) {
	h := sandboxtest.New(t)

	h.CallAs(sandbox.PlatformAdminToken, http.MethodPut, sandboxtest.OrganizationPath("/quotas"), unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{
		{Kind: "loadbalancers", Quantity: 2}, {Kind: "publicips", Quantity: 1},
	}}).Expect(http.StatusOK, nil)

	public := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("public", sandbox.NetworkDefaultID, true))
	assert.Equal(t, 1, h.Quota("publicips").Used)

	body := h.Call(http.MethodPost, loadBalancersPath, sandboxtest.LoadBalancerCreate("second-public", sandbox.NetworkDefaultID, true)).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total publicips allocation of 2 would exceed quota limit of 1", body.ErrorDescription)

	private := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("private", sandbox.NetworkDefaultID, false))

	body = h.Call(http.MethodPost, loadBalancersPath, sandboxtest.LoadBalancerCreate("third", sandbox.NetworkDefaultID, false)).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total loadbalancers allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	// A public IP asked for by an update is charged too, and refused over quota with
	// nothing changed.
	h.Clock.Advance(sandboxtest.Settle)
	private = getLoadBalancer(h, private.Metadata.ID)
	spec := private.Spec
	spec.PublicIP = new(bool)
	*spec.PublicIP = true

	h.Call(http.MethodPut, loadBalancersPath+"/"+private.Metadata.ID, update(private, spec)).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.False(t, *getLoadBalancer(h, private.Metadata.ID).Spec.PublicIP)
	assert.Equal(t, 1, h.Quota("publicips").Used)

	h.Call(http.MethodDelete, loadBalancersPath+"/"+public.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodPut, loadBalancersPath+"/"+private.Metadata.ID, update(private, spec)).Expect(http.StatusAccepted, nil)
	assert.Equal(t, 2-1, h.Quota("loadbalancers").Used)
}

func TestLoadBalancerVIP(t *testing.T) {
	h := sandboxtest.New(t)

	pinned := sandboxtest.LoadBalancerCreate("pinned", sandbox.NetworkDefaultID, false)
	pinned.Spec.VIPAddress = "10.0.0.200"
	first := h.CreateLoadBalancer(pinned)

	h.Clock.Advance(sandboxtest.Settle / 4)

	pinned.Metadata.Name = "clash"
	clash := h.CreateLoadBalancer(pinned)

	automatic := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("automatic", sandbox.NetworkDefaultID, false))

	h.Clock.Advance(sandboxtest.Settle)

	assert.Equal(t, "10.0.0.200", getLoadBalancer(h, first.Metadata.ID).Status.VIPAddress)

	// The cloud refuses a port on an address another one holds.
	failed := getLoadBalancer(h, clash.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningError, failed.Metadata.ProvisioningStatus)
	assert.Empty(t, failed.Status.VIPAddress)

	chosen := getLoadBalancer(h, automatic.Metadata.ID).Status.VIPAddress
	assert.NotEqual(t, "10.0.0.200", chosen)

	// A server on the network does not get an address a load balancer holds.
	server := h.CreateReadyServer("backend")
	assert.NotContains(t, []string{"10.0.0.200", chosen}, server.Status.PrivateIP)
}

func TestLoadBalancerListFiltersAndSortsByName(t *testing.T) {
	h := sandboxtest.New(t)

	tagged := sandboxtest.LoadBalancerCreate("zulu", sandbox.NetworkDefaultID, false)
	tagged.Metadata.Tags = unikorn.Tags{{Name: "tier", Value: "web"}}
	h.CreateLoadBalancer(tagged)
	h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("alpha", sandbox.NetworkDefaultID, false))
	h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("mike", sandbox.NetworkSecondaryID, false))
	h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("other", sandbox.NetworkOtherID, false))

	names := func(token, query string) []string {
		return sandboxtest.Listed(h, token, loadBalancersPath+query, func(lb unikorn.LoadBalancer) string { return lb.Metadata.Name })
	}

	assert.Equal(t, []string{"alpha", "mike", "other", "zulu"}, names(sandbox.DefaultToken, ""))
	assert.Equal(t, []string{"alpha", "zulu"}, names(sandbox.DefaultToken, "?networkID="+sandbox.NetworkDefaultID))
	assert.Equal(t, []string{"zulu"}, names(sandbox.DefaultToken, "?tag=tier%3Dweb"))
	assert.Equal(t, []string{"other"}, names(sandbox.DefaultToken, "?projectID="+sandbox.OtherProjectID))
	assert.Equal(t, []string{"alpha", "mike", "zulu"}, names(sandbox.DefaultToken, "?organizationID="+sandbox.OrganizationID+"&projectID="+sandbox.ProjectID+"&regionID="+sandbox.RegionID))
	assert.Empty(t, names(sandbox.ForeignToken, ""), "another organization sees none of them")
}

func TestNetworkDeleteTakesItsLoadBalancers(t *testing.T) {
	h := sandboxtest.New(t)

	network := h.CreateNetwork("doomed", "10.30.0.0/24")
	h.Clock.Advance(sandboxtest.Settle)

	lb := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("front", network.Metadata.ID, true))
	kept := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("kept", sandbox.NetworkDefaultID, false))
	h.Clock.Advance(sandboxtest.Settle)

	h.Call(http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, getLoadBalancer(h, lb.Metadata.ID).Metadata.ProvisioningStatus)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, loadBalancersPath+"/"+lb.Metadata.ID, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	allocations := loadBalancerAllocations(h)
	require.Len(t, allocations, 1, "the quota of the load balancer taken along is released")
	assert.Equal(t, kept.Metadata.ID, allocations[0].Spec.ID)
}

// Region's handlers read through the controller's cache: a write right after another
// acts on what the cache shows.
func TestLoadBalancerHandlersReadThroughTheCache(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(7))

	// A network the cache has not seen yet is not found.
	network := h.CreateNetwork("fresh", "10.31.0.0/24")
	h.Call(http.MethodPost, loadBalancersPath, sandboxtest.LoadBalancerCreate("early", network.Metadata.ID, false)).
		ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Clock.Advance(sandboxtest.ReadLag + sandboxtest.Settle)

	lb := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("front", network.Metadata.ID, false))
	path := loadBalancersPath + "/" + lb.Metadata.ID

	// Nor is a load balancer the cache has not seen, to a delete or an update.
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodPut, path, update(lb, lb.Spec)).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	settleLagged(h, lb.Metadata.ID)
	lb = getLoadBalancer(h, lb.Metadata.ID)
	require.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)

	spec := lb.Spec
	spec.Listeners[0].Pool.Members = []unikorn.LoadBalancerMember{{Address: "10.31.0.20", Port: 8080}}
	h.Call(http.MethodPut, path, update(lb, spec)).Expect(http.StatusAccepted, nil)

	// The optimistic lock holds the version the cache shows, which trails the write.
	spec.Listeners[0].Pool.Members = []unikorn.LoadBalancerMember{{Address: "10.31.0.21", Port: 8080}}
	h.Call(http.MethodPut, path, update(lb, spec)).ExpectError(http.StatusConflict, unikorn.ErrorConflict)

	settleLagged(h, lb.Metadata.ID)
	h.Call(http.MethodPut, path, update(lb, spec)).Expect(http.StatusAccepted, nil)
	settleLagged(h, lb.Metadata.ID)
	assert.Equal(t, "10.31.0.21", getLoadBalancer(h, lb.Metadata.ID).Spec.Listeners[0].Pool.Members[0].Address)
}

// settleLagged lets a load balancer finish what it is doing and the cache catch up:
// the read that applies a transition starts its lag.
func settleLagged(h *sandboxtest.Harness, id string) {
	h.T.Helper()

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, loadBalancersPath+"/"+id, nil)
	h.Clock.Advance(sandboxtest.ReadLag)
}

func TestLoadBalancersSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	withState := func(o *sandbox.Options) { o.StatePath = statePath }

	first := sandboxtest.New(t, withState)
	ready := first.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("ready", sandbox.NetworkDefaultID, true))
	first.Clock.Advance(sandboxtest.Settle)
	ready = getLoadBalancer(first, ready.Metadata.ID)
	pending := first.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("pending", sandbox.NetworkDefaultID, false))
	require.NoError(t, first.Sandbox.Close())

	_, err := os.Stat(statePath)
	require.NoError(t, err)

	second := sandboxtest.New(t, withState)
	second.Clock.Set(first.Clock.Now())

	assert.Equal(t, ready, getLoadBalancer(second, ready.Metadata.ID))
	assert.Equal(t, unikorn.ProvisioningPending, getLoadBalancer(second, pending.Metadata.ID).Metadata.ProvisioningStatus)
	assert.Len(t, loadBalancerAllocations(second), 2)

	second.Clock.Advance(sandboxtest.Settle)
	assert.NotEmpty(t, getLoadBalancer(second, pending.Metadata.ID).Status.VIPAddress)
}
