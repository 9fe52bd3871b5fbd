package sandbox

import (
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const loadBalancersPath = "/api/v2/loadbalancers"

// webListener is a TCP listener on port with one member.
func webListener(name string, port int, members ...unikorn.LoadBalancerMember) unikorn.LoadBalancerListener {
	if members == nil {
		members = []unikorn.LoadBalancerMember{}
	}

	return unikorn.LoadBalancerListener{Name: name, Protocol: unikorn.LoadBalancerProtocolTCP, Port: port, Pool: unikorn.LoadBalancerPool{Members: members}}
}

func loadBalancerCreate(name, networkID string, publicIP bool) unikorn.LoadBalancerCreate {
	return unikorn.LoadBalancerCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.LoadBalancerCreateSpec{
			LoadBalancerSpec: unikorn.LoadBalancerSpec{
				PublicIP:  &publicIP,
				Listeners: []unikorn.LoadBalancerListener{webListener("http", 80, unikorn.LoadBalancerMember{Address: "10.0.0.10", Port: 8080})},
			},
			NetworkID: networkID,
		},
	}
}

func (h *harness) createLoadBalancer(body unikorn.LoadBalancerCreate) unikorn.LoadBalancer {
	h.t.Helper()

	var lb unikorn.LoadBalancer

	h.call(http.MethodPost, loadBalancersPath, body).expect(http.StatusCreated, &lb)

	return lb
}

func (h *harness) getLoadBalancer(id string) unikorn.LoadBalancer {
	h.t.Helper()

	var lb unikorn.LoadBalancer

	h.call(http.MethodGet, loadBalancersPath+"/"+id, nil).expect(http.StatusOK, &lb)

	return lb
}

// update is the PUT body that keeps a load balancer's metadata with spec.
func update(lb unikorn.LoadBalancer, spec unikorn.LoadBalancerSpec) unikorn.LoadBalancerUpdate {
	return unikorn.LoadBalancerUpdate{Metadata: lb.Metadata.WriteMetadata, Spec: spec}
}

// loadBalancerAllocations returns the allocations region made for load balancers.
func (h *harness) loadBalancerAllocations() []unikorn.Allocation {
	var found []unikorn.Allocation

	for _, allocation := range h.sb.Allocations() {
		if allocation.Spec.Kind == loadbalancing.AllocationKind {
			found = append(found, allocation)
		}
	}

	return found
}

func TestLoadBalancerLifecycle(t *testing.T) {
	h := newHarness(t)

	lb := h.createLoadBalancer(loadBalancerCreate("front", NetworkDefaultID, true))
	assert.Equal(t, unikorn.ProvisioningPending, lb.Metadata.ProvisioningStatus)
	assert.Equal(t, ProjectID, lb.Metadata.ProjectID, "the project is the network's")
	assert.Equal(t, RegionID, lb.Status.RegionID)
	assert.Equal(t, NetworkDefaultID, lb.Status.NetworkID)
	assert.Empty(t, lb.Status.VIPAddress, "no address before it is provisioned")
	assert.Empty(t, lb.Status.PublicIP)

	allocations := h.loadBalancerAllocations()
	require.Len(t, allocations, 1)
	assert.Equal(t, lb.Metadata.ID, allocations[0].Spec.ID)
	assert.Equal(t, loadbalancing.Allocations(true), allocations[0].Spec.Allocations)

	h.clock.Advance(settle)

	lb = h.getLoadBalancer(lb.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)
	assert.True(t, netip.MustParsePrefix("10.0.0.0/24").Contains(netip.MustParseAddr(lb.Status.VIPAddress)), lb.Status.VIPAddress)
	assert.True(t, core.PublicPool.Contains(netip.MustParseAddr(lb.Status.PublicIP)), lb.Status.PublicIP)

	vip, publicIP := lb.Status.VIPAddress, lb.Status.PublicIP

	// Dropping the public IP keeps the VIP, and the status says what it said until the
	// controller takes the change up.
	spec := lb.Spec
	spec.PublicIP = new(bool)

	var updated unikorn.LoadBalancer

	h.call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, spec)).expect(http.StatusAccepted, &updated)
	assert.False(t, *updated.Spec.PublicIP)
	assert.Equal(t, unikorn.ProvisioningProvisioned, updated.Metadata.ProvisioningStatus, "no observed generation: still provisioned")
	assert.Equal(t, publicIP, updated.Status.PublicIP, "the public IP goes when the controller acts")
	assert.Equal(t, loadbalancing.Allocations(false), h.loadBalancerAllocations()[0].Spec.Allocations, "the quota moves with the write")

	h.clock.Advance(settle)

	lb = h.getLoadBalancer(lb.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)
	assert.Equal(t, vip, lb.Status.VIPAddress)
	assert.Empty(t, lb.Status.PublicIP)

	// And asking for one again fills it in, still with the same VIP.
	spec.PublicIP = new(bool)
	*spec.PublicIP = true
	h.call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, spec)).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)

	lb = h.getLoadBalancer(lb.Metadata.ID)
	assert.Equal(t, vip, lb.Status.VIPAddress)
	assert.NotEmpty(t, lb.Status.PublicIP)

	path := loadBalancersPath + "/" + lb.Metadata.ID
	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, h.getLoadBalancer(lb.Metadata.ID).Metadata.ProvisioningStatus)
	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodPut, path, update(lb, spec)).expectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)

	h.clock.Advance(settle)
	h.call(http.MethodGet, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Empty(t, h.loadBalancerAllocations(), "the quota is released once it is gone")
	assert.Empty(t, h.sb.LoadBalancers())
}

func TestLoadBalancerStoresRegionsDefaults(t *testing.T) {
	h := newHarness(t)

	body := `{"metadata":{"name":"defaults"},"spec":{"networkId":"` + NetworkDefaultID + `","listeners":[
		{"name":"web","protocol":"tcp","port":80,"allowedCidrs":["192.0.2.9/24"],"pool":{"members":[],"healthCheck":{}}},
		{"name":"dns","protocol":"udp","port":53,"allowedCidrs":[],"pool":{"members":[{"address":"10.0.0.9","port":53}]}}]}}`

	var lb unikorn.LoadBalancer

	h.call(http.MethodPost, loadBalancersPath, body).expect(http.StatusCreated, &lb)
	h.clock.Advance(settle)

	read := h.call(http.MethodGet, loadBalancersPath+"/"+lb.Metadata.ID, nil)
	read.expect(http.StatusOK, &lb)

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
	assert.NotContains(t, string(read.body), `"allowedCidrs":[]`, "an empty CIDR list reads back absent")
	assert.Contains(t, string(read.body), `"members":[]`, "members are never null")
}

func intPointer(i int) *int { return &i }

func TestLoadBalancerRefusals(t *testing.T) {
	h := newHarness(t)

	otherNetwork := NetworkSecondaryID

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
			b.Spec.Listeners = append(b.Spec.Listeners, webListener("other", 80))
		}, http.StatusUnprocessableEntity},
		"secondary network, VIP of the default one": {func(b *unikorn.LoadBalancerCreate) {
			b.Spec.NetworkID, b.Spec.VIPAddress = otherNetwork, "10.0.0.5"
		}, http.StatusUnprocessableEntity},
	} {
		t.Run(name, func(t *testing.T) {
			body := loadBalancerCreate("refused", NetworkDefaultID, false)
			tc.mutate(&body)
			assert.Equal(t, tc.status, h.call(http.MethodPost, loadBalancersPath, body).status)
		})
	}

	missing := `{"metadata":{"name":"x"},"spec":{"networkId":"` + NetworkDefaultID + `","listeners":[{"name":"web","protocol":"tcp","port":80,"pool":{}}]}}`
	body := h.call(http.MethodPost, loadBalancersPath, missing).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, body.ErrorDescription, `Error at "/listeners/0/pool/members": property "members" is missing`)

	// Another organization's member is refused its network, never told it is missing.
	h.callAs(ForeignToken, http.MethodPost, loadBalancersPath, loadBalancerCreate("foreign", NetworkDefaultID, false)).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	assert.Empty(t, h.sb.LoadBalancers(), "nothing refused was made")
	assert.Empty(t, h.loadBalancerAllocations(), "nothing refused was charged")
}

func TestLoadBalancerUpdateRefusesChangingAListenerInPlace(t *testing.T) {
	h := newHarness(t)

	lb := h.createLoadBalancer(loadBalancerCreate("front", NetworkDefaultID, false))
	h.clock.Advance(settle)
	lb = h.getLoadBalancer(lb.Metadata.ID)
	path := loadBalancersPath + "/" + lb.Metadata.ID

	moved := lb.Spec
	moved.Listeners = []unikorn.LoadBalancerListener{webListener("http", 8080)}
	body := h.call(http.MethodPut, path, update(lb, moved)).expectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
	assert.Equal(t, "listener port cannot be changed for an existing listener name", body.ErrorDescription)

	// Under another name it is a removal and an addition, which region takes.
	moved.Listeners[0].Name = "http-alt"
	h.call(http.MethodPut, path, update(lb, moved)).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)
	assert.Equal(t, "http-alt", h.getLoadBalancer(lb.Metadata.ID).Spec.Listeners[0].Name)
}

func TestLoadBalancerUpdateThatChangesNothingLeavesItProvisioned(t *testing.T) {
	h := newHarness(t)

	lb := h.createLoadBalancer(loadBalancerCreate("front", NetworkDefaultID, false))
	h.clock.Advance(settle)
	lb = h.getLoadBalancer(lb.Metadata.ID)

	h.call(http.MethodPut, loadBalancersPath+"/"+lb.Metadata.ID, update(lb, lb.Spec)).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle / 4)
	assert.Equal(t, lb, h.getLoadBalancer(lb.Metadata.ID))
}

func TestLoadBalancerQuota(t *testing.T) {
	h := newHarness(t)

	h.callAs(PlatformAdminToken, http.MethodPut, organizationPath("/quotas"), unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{
		{Kind: "loadbalancers", Quantity: 2}, {Kind: "publicips", Quantity: 1},
	}}).expect(http.StatusOK, nil)

	public := h.createLoadBalancer(loadBalancerCreate("public", NetworkDefaultID, true))
	assert.Equal(t, 1, h.quota("publicips").Used)

	body := h.call(http.MethodPost, loadBalancersPath, loadBalancerCreate("second-public", NetworkDefaultID, true)).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total publicips allocation of 2 would exceed quota limit of 1", body.ErrorDescription)

	private := h.createLoadBalancer(loadBalancerCreate("private", NetworkDefaultID, false))

	body = h.call(http.MethodPost, loadBalancersPath, loadBalancerCreate("third", NetworkDefaultID, false)).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total loadbalancers allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	// A public IP asked for by an update is charged too, and refused over quota with
	// nothing changed.
	h.clock.Advance(settle)
	private = h.getLoadBalancer(private.Metadata.ID)
	spec := private.Spec
	spec.PublicIP = new(bool)
	*spec.PublicIP = true

	h.call(http.MethodPut, loadBalancersPath+"/"+private.Metadata.ID, update(private, spec)).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.False(t, *h.getLoadBalancer(private.Metadata.ID).Spec.PublicIP)
	assert.Equal(t, 1, h.quota("publicips").Used)

	h.call(http.MethodDelete, loadBalancersPath+"/"+public.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)
	h.call(http.MethodPut, loadBalancersPath+"/"+private.Metadata.ID, update(private, spec)).expect(http.StatusAccepted, nil)
	assert.Equal(t, 2-1, h.quota("loadbalancers").Used)
}

func TestLoadBalancerVIP(t *testing.T) {
	h := newHarness(t)

	pinned := loadBalancerCreate("pinned", NetworkDefaultID, false)
	pinned.Spec.VIPAddress = "10.0.0.200"
	first := h.createLoadBalancer(pinned)

	h.clock.Advance(settle / 4)

	pinned.Metadata.Name = "clash"
	clash := h.createLoadBalancer(pinned)

	automatic := h.createLoadBalancer(loadBalancerCreate("automatic", NetworkDefaultID, false))

	h.clock.Advance(settle)

	assert.Equal(t, "10.0.0.200", h.getLoadBalancer(first.Metadata.ID).Status.VIPAddress)

	// The cloud refuses a port on an address another one holds.
	failed := h.getLoadBalancer(clash.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningError, failed.Metadata.ProvisioningStatus)
	assert.Empty(t, failed.Status.VIPAddress)

	chosen := h.getLoadBalancer(automatic.Metadata.ID).Status.VIPAddress
	assert.NotEqual(t, "10.0.0.200", chosen)

	// A server on the network does not get an address a load balancer holds.
	server := h.createReadyServer("backend")
	assert.NotContains(t, []string{"10.0.0.200", chosen}, server.Status.PrivateIP)
}

func TestLoadBalancerListFiltersAndSortsByName(t *testing.T) {
	h := newHarness(t)

	tagged := loadBalancerCreate("zulu", NetworkDefaultID, false)
	tagged.Metadata.Tags = unikorn.Tags{{Name: "tier", Value: "web"}}
	h.createLoadBalancer(tagged)
	h.createLoadBalancer(loadBalancerCreate("alpha", NetworkDefaultID, false))
	h.createLoadBalancer(loadBalancerCreate("mike", NetworkSecondaryID, false))
	h.createLoadBalancer(loadBalancerCreate("other", NetworkOtherID, false))

	names := func(token, query string) []string {
		return listed(h, token, loadBalancersPath+query, func(lb unikorn.LoadBalancer) string { return lb.Metadata.Name })
	}

	assert.Equal(t, []string{"alpha", "mike", "other", "zulu"}, names(DefaultToken, ""))
	assert.Equal(t, []string{"alpha", "zulu"}, names(DefaultToken, "?networkID="+NetworkDefaultID))
	assert.Equal(t, []string{"zulu"}, names(DefaultToken, "?tag=tier%3Dweb"))
	assert.Equal(t, []string{"other"}, names(DefaultToken, "?projectID="+OtherProjectID))
	assert.Equal(t, []string{"alpha", "mike", "zulu"}, names(DefaultToken, "?organizationID="+OrganizationID+"&projectID="+ProjectID+"&regionID="+RegionID))
	assert.Empty(t, names(ForeignToken, ""), "another organization sees none of them")
}

func TestNetworkDeleteTakesItsLoadBalancers(t *testing.T) {
	h := newHarness(t)

	network := h.createNetwork("doomed", "10.30.0.0/24")
	h.clock.Advance(settle)

	lb := h.createLoadBalancer(loadBalancerCreate("front", network.Metadata.ID, true))
	kept := h.createLoadBalancer(loadBalancerCreate("kept", NetworkDefaultID, false))
	h.clock.Advance(settle)

	h.call(http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, h.getLoadBalancer(lb.Metadata.ID).Metadata.ProvisioningStatus)

	h.clock.Advance(settle)
	h.call(http.MethodGet, loadBalancersPath+"/"+lb.Metadata.ID, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	allocations := h.loadBalancerAllocations()
	require.Len(t, allocations, 1, "the quota of the load balancer taken along is released")
	assert.Equal(t, kept.Metadata.ID, allocations[0].Spec.ID)
}

// Region's handlers read through the controller's cache: a write right after another
// acts on what the cache shows.
func TestLoadBalancerHandlersReadThroughTheCache(t *testing.T) {
	h := newHarness(t, withReadLag(7))

	// A network the cache has not seen yet is not found.
	network := h.createNetwork("fresh", "10.31.0.0/24")
	h.call(http.MethodPost, loadBalancersPath, loadBalancerCreate("early", network.Metadata.ID, false)).
		expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.clock.Advance(testReadLag + settle)

	lb := h.createLoadBalancer(loadBalancerCreate("front", network.Metadata.ID, false))
	path := loadBalancersPath + "/" + lb.Metadata.ID

	// Nor is a load balancer the cache has not seen, to a delete or an update.
	h.call(http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodPut, path, update(lb, lb.Spec)).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.settleLagged(lb.Metadata.ID)
	lb = h.getLoadBalancer(lb.Metadata.ID)
	require.Equal(t, unikorn.ProvisioningProvisioned, lb.Metadata.ProvisioningStatus)

	spec := lb.Spec
	spec.Listeners[0].Pool.Members = []unikorn.LoadBalancerMember{{Address: "10.31.0.20", Port: 8080}}
	h.call(http.MethodPut, path, update(lb, spec)).expect(http.StatusAccepted, nil)

	// The optimistic lock holds the version the cache shows, which trails the write.
	spec.Listeners[0].Pool.Members = []unikorn.LoadBalancerMember{{Address: "10.31.0.21", Port: 8080}}
	h.call(http.MethodPut, path, update(lb, spec)).expectError(http.StatusConflict, unikorn.ErrorConflict)

	h.settleLagged(lb.Metadata.ID)
	h.call(http.MethodPut, path, update(lb, spec)).expect(http.StatusAccepted, nil)
	h.settleLagged(lb.Metadata.ID)
	assert.Equal(t, "10.31.0.21", h.getLoadBalancer(lb.Metadata.ID).Spec.Listeners[0].Pool.Members[0].Address)
}

// settleLagged lets a load balancer finish what it is doing and the cache catch up:
// the read that applies a transition starts its lag.
func (h *harness) settleLagged(id string) {
	h.t.Helper()

	h.clock.Advance(settle)
	h.call(http.MethodGet, loadBalancersPath+"/"+id, nil)
	h.clock.Advance(testReadLag)
}

func TestLoadBalancersSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	withState := func(o *Options) { o.StatePath = statePath }

	first := newHarness(t, withState)
	ready := first.createLoadBalancer(loadBalancerCreate("ready", NetworkDefaultID, true))
	first.clock.Advance(settle)
	ready = first.getLoadBalancer(ready.Metadata.ID)
	pending := first.createLoadBalancer(loadBalancerCreate("pending", NetworkDefaultID, false))
	require.NoError(t, first.sb.Close())

	_, err := os.Stat(statePath)
	require.NoError(t, err)

	second := newHarness(t, withState)
	second.clock.now = first.clock.Now()

	assert.Equal(t, ready, second.getLoadBalancer(ready.Metadata.ID))
	assert.Equal(t, unikorn.ProvisioningPending, second.getLoadBalancer(pending.Metadata.ID).Metadata.ProvisioningStatus)
	assert.Len(t, second.loadBalancerAllocations(), 2)

	second.clock.Advance(settle)
	assert.NotEmpty(t, second.getLoadBalancer(pending.Metadata.ID).Status.VIPAddress)
}
