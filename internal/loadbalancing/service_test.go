package loadbalancing_test

import (
	"context"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// env is the load balancing façade over a fresh sandbox, as the fixture project's
// user, and a client of its own for changes behind the façade's back.
type env struct {
	world   *cloudtest.World
	url     string
	sandbox *sandbox.Sandbox
	client  *unikorn.Client
	service *loadbalancing.Service
}

// newEnv starts a sandbox whose reads lag by up to readLag, and a façade that knows it.
func newEnv(t *testing.T, readLag time.Duration) *env {
	t.Helper()

	world := cloudtest.Start(t, cloudtest.Config{ReadLag: readLag, Seed: 3, ProvisionDelay: 60 * time.Millisecond})

	return &env{world: world, url: world.URL, sandbox: world.Sandbox, client: world.Client, service: loadbalancing.NewService(world.Session)}
}

func (e *env) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)

	return ctx
}

// records are the sandbox's own load balancers, not as a lagging read shows them.
func (e *env) records() []unikorn.LoadBalancer {
	return e.sandbox.LoadBalancers()
}

func (e *env) allocations() []unikorn.Allocation {
	var found []unikorn.Allocation

	for _, allocation := range e.sandbox.Allocations() {
		if allocation.Spec.Kind == "loadbalancers.region.unikorn-cloud.org" {
			found = append(found, allocation)
		}
	}

	return found
}

func (e *env) requests(route string) int {
	return e.sandbox.Stats().Routes[route]
}

func frontend(publicIP bool) loadbalancing.Create {
	return loadbalancing.Create{
		NetworkID: sandbox.NetworkDefaultID,
		Spec: loadbalancing.Spec{
			Name: "front", Tags: map[string]string{"tier": "web"}, PublicIP: publicIP,
			Listeners: []loadbalancing.Listener{{
				Name: "web", Protocol: loadbalancing.ProtocolTCP, Port: 80,
				Members: []loadbalancing.Member{{Address: "10.0.0.21", Port: 8080}},
			}},
		},
	}
}

func TestCreateWaitsForTheAddresses(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)

	lb, err := e.service.Create(e.ctx(t), frontend(true))
	require.NoError(t, err)

	assert.Equal(t, loadbalancing.StatusProvisioned, lb.ProvisioningStatus)
	assert.True(t, netip.MustParsePrefix("10.0.0.0/24").Contains(netip.MustParseAddr(lb.VIPAddress)), lb.VIPAddress)
	assert.NotEmpty(t, lb.PublicIPAddress)
	assert.Equal(t, sandbox.ProjectID, lb.ProjectID)
	assert.Equal(t, loadbalancing.DefaultIdleTimeoutSeconds, lb.Listeners[0].IdleTimeoutSeconds, "read back with region's default")
}

// A create whose answer is lost after region acted is found on the network by its
// name, past the read lag, and adopted: one POST, one load balancer.
func TestCreateWhoseAnswerWasLostIsAdopted(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 300*time.Millisecond)

	_, err := e.sandbox.AddFault(sandbox.FaultRule{
		Method: http.MethodPost, Route: "/api/v2/loadbalancers", Status: http.StatusBadGateway, Count: 1, Phase: sandbox.FaultPhaseAfter,
	})
	require.NoError(t, err)

	lb, err := e.service.Create(e.ctx(t), frontend(false))
	require.NoError(t, err)

	records := e.records()
	require.Len(t, records, 1, "never posted again")
	assert.Equal(t, records[0].Metadata.ID, lb.ID)
	assert.Equal(t, 1, e.requests("POST /api/v2/loadbalancers"))
	assert.NotEmpty(t, lb.VIPAddress)
}

// Region reads the version it locks from its cache: after a change behind the
// façade's back, the update meets a conflict until the cache catches up, and then
// takes.
func TestUpdateRidesOutTheOptimisticLock(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 400*time.Millisecond)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)

	// Someone else changes the description, with the whole document.
	current, err := e.client.GetLoadBalancer(ctx, lb.ID)
	require.NoError(t, err)

	current.Metadata.Description = "changed elsewhere"
	_, err = e.client.UpdateLoadBalancer(ctx, lb.ID, unikorn.LoadBalancerUpdate{Metadata: current.Metadata.WriteMetadata, Spec: current.Spec})
	require.NoError(t, err)

	spec := lb.Spec
	spec.Listeners = append(spec.Listeners, loadbalancing.Listener{Name: "dns", Protocol: loadbalancing.ProtocolUDP, Port: 53, Members: []loadbalancing.Member{}})

	// The cache may have caught up already (its lag is random): the next PUT meets a
	// conflict whatever it drew, so that the test always sees one.
	_, err = e.sandbox.AddFault(sandbox.FaultRule{
		Method: http.MethodPut, Route: "/api/v2/loadbalancers/{loadBalancerID}", Status: http.StatusConflict, Count: 1,
	})
	require.NoError(t, err)

	before := e.requests("PUT /api/v2/loadbalancers/{loadBalancerID}")

	updated, err := e.service.Update(ctx, lb.ID, spec)
	require.NoError(t, err)

	assert.Greater(t, e.requests("PUT /api/v2/loadbalancers/{loadBalancerID}")-before, 1, "the conflict was met and the document sent again")
	assert.Len(t, updated.Listeners, 2)
	assert.Empty(t, updated.Description, "the desired document, not the one changed elsewhere")
	assert.Equal(t, lb.VIPAddress, updated.VIPAddress)
	assert.Len(t, e.records()[0].Spec.Listeners, 2)
}

// The public IP comes and goes asynchronously; the update waits for it, and the VIP stays.
func TestUpdateWaitsForThePublicIP(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 200*time.Millisecond)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)
	require.Empty(t, lb.PublicIPAddress)

	spec := lb.Spec
	spec.PublicIP = true

	public, err := e.service.Update(ctx, lb.ID, spec)
	require.NoError(t, err)
	assert.NotEmpty(t, public.PublicIPAddress)
	assert.Equal(t, lb.VIPAddress, public.VIPAddress)
	assert.Equal(t, []unikorn.ResourceAllocation{{Kind: "loadbalancers", Committed: 1}, {Kind: "publicips", Committed: 1}}, e.allocations()[0].Spec.Allocations)

	spec.PublicIP = false

	private, err := e.service.Update(ctx, lb.ID, spec)
	require.NoError(t, err)
	assert.Empty(t, private.PublicIPAddress)
	assert.Equal(t, lb.VIPAddress, private.VIPAddress)
	assert.Empty(t, e.records()[0].Status.PublicIP)
}

func TestUpdateRefusesChangingAListenerWithoutSendingIt(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)

	spec := lb.Spec
	spec.Listeners[0].Port = 8080

	unchanged, err := e.service.Update(ctx, lb.ID, spec)

	var problems *loadbalancing.ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, loadbalancing.FieldPort, problems.Problems[0].Field)
	assert.Equal(t, 80, unchanged.Listeners[0].Port, "what region has")
	assert.Zero(t, e.requests("PUT /api/v2/loadbalancers/{loadBalancerID}"))
}

func TestInvalidDocumentIsNotSent(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)

	create := frontend(false)
	create.Listeners[0].Protocol = loadbalancing.ProtocolUDP
	create.Listeners[0].ProxyProtocolV2 = true

	_, err := e.service.Create(e.ctx(t), create)

	var problems *loadbalancing.ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, "web", problems.Problems[0].Listener)
	assert.Zero(t, e.requests("POST /api/v2/loadbalancers"))
}

func TestQuotaErrorNamesTheQuota(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	service := e.world.NewClient(t, sandbox.ServiceToken, nil)

	_, err := service.CreateAllocation(ctx, sandbox.OrganizationID, sandbox.ProjectID, unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{Kind: "test.example.com", ID: "filler",
			Allocations: []unikorn.ResourceAllocation{{Kind: "loadbalancers", Committed: 5}}},
	})
	require.NoError(t, err)

	_, err = e.service.Create(ctx, frontend(true))

	var quota *loadbalancing.QuotaError
	require.ErrorAs(t, err, &quota)
	assert.Equal(t, []string{"loadbalancers"}, quota.Kinds)
	assert.Contains(t, err.Error(), "`loadbalancers` quota")
	assert.Empty(t, e.records())
}

// A VIP another load balancer holds fails the second in the cloud: the create says
// so, and still returns what exists, so that its caller keeps track of it.
func TestProvisioningFailureReturnsWhatExists(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	first := frontend(false)
	first.VIPAddress = "10.0.0.200"

	_, err := e.service.Create(ctx, first)
	require.NoError(t, err)

	second := first
	second.Name = "clash"

	lb, err := e.service.Create(ctx, second)

	var failed *loadbalancing.ProvisioningFailedError
	require.ErrorAs(t, err, &failed)
	require.NotNil(t, lb)
	assert.Equal(t, lb.ID, failed.ID)
	assert.Equal(t, unikorn.ProvisioningError, lb.ProvisioningStatus)
}

func TestDeleteWaitsUntilItIsGoneWithItsQuota(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 200*time.Millisecond)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(true))
	require.NoError(t, err)

	require.NoError(t, e.service.Delete(ctx, lb.ID, time.Time{}))
	assert.Empty(t, e.records())
	assert.Empty(t, e.allocations())

	read, err := e.service.Read(ctx, lb.ID)
	require.NoError(t, err)
	assert.Nil(t, read)
}

func TestUpdateOfALoadBalancerBeingDeleted(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	require.NoError(t, e.sandbox.UpdateSettings(sandbox.Settings{DeprovisionDelay: "1h"}))

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)
	require.NoError(t, e.client.DeleteLoadBalancer(ctx, lb.ID))

	_, err = e.service.Update(ctx, lb.ID, lb.Spec)

	var deleting *loadbalancing.DeletingError
	require.ErrorAs(t, err, &deleting)
}

func TestListAndNetworkPrefix(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)

	found, err := e.service.List(ctx, loadbalancing.Query{OrganizationID: sandbox.OrganizationID, NetworkID: sandbox.NetworkDefaultID, Tags: map[string]string{"tier": "web"}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, lb.ID, found[0].ID)

	none, err := e.service.List(ctx, loadbalancing.Query{NetworkID: sandbox.NetworkSecondaryID})
	require.NoError(t, err)
	assert.Empty(t, none)

	prefix, err := e.service.NetworkPrefix(ctx, sandbox.NetworkDefaultID)
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.0/24", prefix)
}

// A failed read or PUT that is no answer (region's 500s are not retried by the client)
// is ridden out: the document is sent again, which replacing the whole is safe.
func TestUpdateRidesOutFailuresThatAreNoAnswer(t *testing.T) {
	t.Parallel()

	e := newEnv(t, 0)
	ctx := e.ctx(t)

	lb, err := e.service.Create(ctx, frontend(false))
	require.NoError(t, err)

	for _, method := range []string{http.MethodGet, http.MethodPut} {
		_, err := e.sandbox.AddFault(sandbox.FaultRule{
			Method: method, Route: "/api/v2/loadbalancers/{loadBalancerID}", Status: http.StatusInternalServerError, Count: 1,
		})
		require.NoError(t, err)
	}

	spec := lb.Spec
	spec.Description = "after two failures"

	updated, err := e.service.Update(ctx, lb.ID, spec)
	require.NoError(t, err)
	assert.Equal(t, "after two failures", updated.Description)
	assert.Equal(t, 2, e.requests("PUT /api/v2/loadbalancers/{loadBalancerID}"))
}
