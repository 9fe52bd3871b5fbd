package compute_test

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// harshNetwork stands between the façade and the sandbox as real Unikorn's caches and
// gateways do: it can serve a server list empty (a cache that has not caught up, or a
// token that may not see the server), and lose the answer to a request the sandbox
// has already carried out.
type harshNetwork struct {
	mu sync.Mutex
	// emptyLists is how many server lists still come back empty.
	emptyLists int
	// lose is how many answers to requests matching method and path prefix are lost.
	lose       int
	loseMethod string
	losePath   string
}

func (h *harshNetwork) RoundTrip(request *http.Request) (*http.Response, error) {
	response, err := http.DefaultTransport.RoundTrip(request)
	if err != nil {
		return response, err
	}

	h.mu.Lock()
	defer h.mu.Unlock()

	switch {
	case h.lose > 0 && request.Method == h.loseMethod && strings.HasPrefix(request.URL.Path, h.losePath):
		h.lose--
		_ = response.Body.Close()

		return nil, syscall.ECONNRESET
	case h.emptyLists > 0 && request.Method == http.MethodGet && request.URL.Path == serverListRoute:
		h.emptyLists--
		_ = response.Body.Close()
		response.Body = io.NopCloser(strings.NewReader("[]"))
		response.ContentLength = 2
		response.Header.Del("Content-Length")
	}

	return response, nil
}

func (h *harshNetwork) set(change func(*harshNetwork)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	change(h)
}

func (e *env) writes() int {
	count := 0

	for route, n := range e.Sandbox.Stats().Routes {
		if !strings.HasPrefix(route, http.MethodGet+" ") {
			count += n
		}
	}

	return count
}

// One stale, empty list does not make a running instance gone: a read looks for its
// server directly, and a delete of what it believes gone charges nothing back.
func TestAnEmptyListDoesNotMakeAnInstanceGone(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	network := &harshNetwork{}
	service := e.serviceOver(t, network)

	network.set(func(h *harshNetwork) { h.emptyLists = 1 })
	e.Sandbox.ResetStats()

	got, err := service.Get(t.Context(), instance.Ref())
	require.NoError(t, err)
	assert.Equal(t, instance.ServerID, got.ServerID)
	assert.Zero(t, e.writes(), "a read never writes")

	// Destroy with one empty list: the server is deleted and waited for, and the quota
	// goes only with it.
	network.set(func(h *harshNetwork) { h.emptyLists = 1 })
	require.NoError(t, service.Delete(t.Context(), instance.Ref(), instance.AllocationID))
	assert.Empty(t, e.servers(t))
	assert.Empty(t, e.allocationsFor(instance.ID))
}

// A list that keeps coming back empty while the server runs (lists drop what a token
// may not see) still does not release the quota: the look-up before the delete
// confirms its miss directly, and the wait, alone, reads the server itself.
func TestDestroyKeepsTheQuotaWhileTheServerExists(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	network := &harshNetwork{emptyLists: 1 << 30}
	service := e.serviceOver(t, network)

	require.NoError(t, service.Delete(t.Context(), instance.Ref(), instance.AllocationID))
	assert.Empty(t, e.servers(t), "the server was found directly and deleted")
	assert.Empty(t, e.allocationsFor(instance.ID))
}

// A token that cannot read the instance's network has lost access; that is never
// taken for the instance being gone.
func TestLostAccessIsAnErrorNotGone(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	service := e.serviceOver(t, &harshNetwork{emptyLists: 1 << 30})

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: "/api/v2/networks/{networkID}", Status: http.StatusForbidden})
	require.NoError(t, err)

	_, err = service.Get(t.Context(), instance.Ref())

	var access *compute.AccessError
	require.ErrorAs(t, err, &access)
	assert.NotErrorIs(t, err, compute.ErrNotFound)

	err = service.Delete(t.Context(), instance.Ref(), instance.AllocationID)
	require.ErrorAs(t, err, &access)
	assert.Len(t, e.servers(t), 1)
	assert.Len(t, e.allocationsFor(instance.ID), 1, "no quota released on lost access")
}

// A server deleted out of band is gone once a direct read has said 404 for the read
// lag, and reading that costs no write.
func TestAnInstanceIsGoneOnADefiniteAnswer(t *testing.T) {
	t.Parallel()

	inBubble(t, func(t *testing.T, e *env) {
		instance := e.create(t, standardSpec("web"))

		require.NoError(t, e.Client.DeleteServer(t.Context(), instance.ServerID))
		require.Eventually(t, func() bool { return len(e.servers(t)) == 0 }, 2*time.Second, 5*time.Millisecond)

		e.Sandbox.ResetStats()

		_, err := e.service.Get(t.Context(), instance.Ref())
		require.ErrorIs(t, err, compute.ErrNotFound)

		stats := e.Sandbox.Stats().Routes
		assert.Positive(t, stats["GET /api/v2/servers/{serverID}"], "the list miss was confirmed directly")
		assert.Zero(t, e.writes(), "a read never writes")
	})
}

// The answer to a server POST is lost and the next list is stale: the server is found
// directly and adopted, keeping its quota.
func TestALostCreateAnswerIsAdoptedPastAStaleList(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost, losePath: "/api/v2/servers", emptyLists: 1}
	service := e.serviceOver(t, network)

	instance, err := service.Create(t.Context(), standardSpec("web"))
	require.NoError(t, err)

	ready, err := service.WaitReady(t.Context(), instance)
	require.NoError(t, err)
	assert.Len(t, e.servers(t), 1)
	assert.Len(t, e.allocationsFor(ready.ID), 1, "the running server stays charged")
	assert.Equal(t, 1, e.Sandbox.Stats().Routes["POST /api/v2/servers"], "a create is never repeated")
}

// A lost answer to the allocation POST cannot be undone; the error says quota may be
// charged, and nothing else is created.
func TestALostChargeAnswerIsReported(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost, losePath: "/api/v1/organizations/"}
	service := e.serviceOver(t, network)

	_, err := service.Create(t.Context(), standardSpec("web"))

	var charge *compute.ChargeUnknownError
	require.ErrorAs(t, err, &charge)
	assert.Contains(t, err.Error(), "quota may have been charged for instance "+charge.InstanceID)
	assert.Empty(t, e.servers(t))
}

// The answer to a server PUT is lost on every attempt, but the update landed: the
// quota that pays for it stays where it is.
func TestALostUpdateAnswerKeepsTheQuotaThatPaysForIt(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	network := &harshNetwork{lose: 5, loseMethod: http.MethodPut, losePath: "/api/v2/servers/"}
	service := e.serviceOver(t, network)

	spec := standardSpec("web")
	spec.PublicIP = true

	updated, err := service.Update(t.Context(), instance.Ref(), spec)
	require.NoError(t, err)
	assert.True(t, updated.Spec.PublicIP)
	assert.Equal(t, 1, committed(e.allocationsFor(instance.ID)[0], compute.QuotaFloatingIPs))
}

// Interrupting a create once its writes are sent does not leave them half done.
func TestAnInterruptedCreateFinishesItsWrites(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	ctx, cancel := context.WithCancel(t.Context())
	network := &cancelAfter{method: http.MethodPost, path: "/api/v1/organizations/", cancel: cancel}
	service := e.serviceOver(t, network)

	instance, err := service.Create(ctx, standardSpec("web"))
	require.NoError(t, err, "the create that was under way when cancelled is seen through")
	assert.Len(t, e.servers(t), 1)
	assert.Len(t, e.allocationsFor(instance.ID), 1)
}

// cancelAfter cancels the caller's context as soon as a matching request is sent,
// as Ctrl-C does while an answer is in flight.
type cancelAfter struct {
	method, path string
	cancel       context.CancelFunc
}

func (c *cancelAfter) RoundTrip(request *http.Request) (*http.Response, error) {
	if request.Method == c.method && strings.HasPrefix(request.URL.Path, c.path) {
		c.cancel()
	}

	response, err := http.DefaultTransport.RoundTrip(request)
	if err != nil && errors.Is(err, context.Canceled) {
		return nil, err
	}

	return response, err
}

// Changing nothing the cloud keeps (only the timeouts) sends no write.
func TestAnUpdateThatChangesNothingWritesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	spec := standardSpec("web")
	spec.Tags = map[string]string{"tier": "front"}
	instance := e.create(t, spec)

	e.Sandbox.ResetStats()

	_, err := e.service.Update(t.Context(), instance.Ref(), spec)
	require.NoError(t, err)
	assert.Zero(t, e.writes())
}

// An undo that fails once is repeated: giving up would leak the quota it releases.
func TestAnUndoIsRepeatedUntilItIsDone(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: serverListRoute, Status: http.StatusUnprocessableEntity, Count: 1})
	require.NoError(t, err)
	_, err = e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodDelete,
		Route: "/api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", Status: http.StatusInternalServerError, Count: 2})
	require.NoError(t, err)

	_, err = e.service.Create(t.Context(), standardSpec("web"))
	require.Error(t, err)

	var compensation *compute.CompensationError
	assert.NotErrorAs(t, err, &compensation)
	assert.Zero(t, e.instanceAllocations(), "the charge was undone")
}

// When a create got no clear answer, the read that decides whether to keep or release
// its quota rides out failures of its own rather than keep the quota for nothing.
func TestTheFateOfALostCreateIsReadThroughFailures(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	_, err := e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: serverListRoute, Status: http.StatusServiceUnavailable, Count: 1})
	require.NoError(t, err)
	_, err = e.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverListRoute, Status: http.StatusInternalServerError, Count: 2})
	require.NoError(t, err)

	_, err = e.service.Create(t.Context(), standardSpec("web"))
	require.Error(t, err)

	var compensation *compute.CompensationError
	assert.NotErrorAs(t, err, &compensation)
	assert.Zero(t, e.instanceAllocations(), "the charge was undone once the server was known not to exist")
}

// After a delete, caches hide an instance only while its creation is recent: a 404 for
// one created longer ago than the read lag (and a margin for whole-second creation
// times and clock skew) is definite at the first direct read, while the 404 for a
// young one is read again until the read lag has passed.
func TestADeleteBelievesA404AtOnceOnlyForAnInstanceOlderThanTheReadLag(t *testing.T) {
	t.Parallel()

	const readLag = time.Second

	inBubble(t, func(t *testing.T, e *env) {
		notFound := &notFoundReads{next: e.Transport}
		client := e.NewClient(t, sandbox.ServiceToken, notFound)

		service := compute.NewService(e.NewSession(client, readLag))

		young := e.create(t, standardSpec("young"))
		old := e.create(t, standardSpec("old"))

		started := time.Now()
		require.NoError(t, service.Delete(t.Context(), young.Ref(), young.AllocationID))
		assert.GreaterOrEqual(t, time.Since(started), readLag, "a young instance's 404 is believed only past the read lag")
		assert.Greater(t, notFound.count(), 1)
		assert.Empty(t, e.allocationsFor(young.ID))

		// Creation times are whole seconds: past this, the old instance is older than the
		// read lag and the margin, whatever fraction of a second it was created in.
		time.Sleep(time.Until(old.CreationTime.Add(readLag + 3*time.Second)))

		notFound.reset()
		require.NoError(t, service.Delete(t.Context(), old.Ref(), old.AllocationID))
		assert.Equal(t, 1, notFound.count(), "one 404 is definite for an instance older than the read lag")
		assert.Empty(t, e.servers(t))
		assert.Empty(t, e.allocationsFor(old.ID))
	})
}

// The moment this provider saw its create answered bounds the instance's creation on
// its own clock, with none of the margin the cloud's whole-second creationTime needs:
// a destroy right after the apply, past the read lag from that moment but within the
// margin, believes the first 404 on either back end. Without it, the 404 is read
// again until the creationTime and its margin are past.
func TestADeleteBelievesA404ByWhenTheCreateWasAnswered(t *testing.T) {
	t.Parallel()

	// Long enough that WaitReady still leaves the sleep below within the margin from
	// the creationTime, which gives about a second whatever the lag.
	const readLag = 2 * time.Second

	for _, backEnd := range []struct {
		name      string
		path      string
		instances func(*testing.T, *env, http.RoundTripper) compute.Instances
	}{
		{"region", "", func(t *testing.T, e *env, transport http.RoundTripper) compute.Instances {
			return compute.NewRegionInstances(compute.NewService(e.NewSession(e.NewClient(t, sandbox.ServiceToken, transport), readLag)))
		}},
		{"compute", sandbox.ComputePrefix + "/api/v2/instances/", func(t *testing.T, e *env, transport http.RoundTripper) compute.Instances {
			return compute.NewComputeInstances(compute.NewService(e.NewSession(e.NewComputeClient(t, sandbox.DefaultToken, transport), readLag)))
		}},
	} {
		t.Run(backEnd.name, func(t *testing.T) {
			t.Parallel()

			inBubble(t, func(t *testing.T, e *env) {
				notFound := &notFoundReads{next: e.Transport, path: backEnd.path}
				instances := backEnd.instances(t, e, notFound)

				before := time.Now()
				created, err := instances.Create(t.Context(), standardSpec("answered-"+backEnd.name))
				require.NoError(t, err)
				assert.WithinRange(t, created.CreateAnswered, before, time.Now(), "the create's answer is timed")

				ready, err := instances.WaitReady(t.Context(), created)
				require.NoError(t, err)

				// As state keeps it (private state keeps the answer's time), past the
				// read lag from the answer, within the margin from the creationTime.
				time.Sleep(time.Until(created.CreateAnswered.Add(readLag + 50*time.Millisecond)))
				require.True(t, time.Now().Before(ready.CreationTime.Add(readLag+cloud.CreationMargin)), "still young by its creationTime")

				last := compute.Seen(ready.Ref(), ready.Spec.FlavorID, ready.CreationTime)
				last.CreateAnswered = created.CreateAnswered

				require.NoError(t, instances.Delete(t.Context(), last, ready.Handle))
				assert.Equal(t, 1, notFound.count(), "the first 404 is believed")
				assert.Empty(t, e.servers(t))
			})
		})
	}
}

// A deletion waited for alone reads its server by ID, as the confirmation of a miss
// would: a list of the servers carrying its tag, then a read of the server, cost two
// requests where one says the same.
func TestARegionDeletionWaitedForAloneReadsItsServerByID(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	e.Sandbox.ResetStats()
	require.NoError(t, e.service.Delete(t.Context(), instance.Ref(), instance.AllocationID))

	routes := e.Sandbox.Stats().Routes
	assert.Equal(t, 1, routes["GET "+serverListRoute], "one list: the look-up before the delete")
	assert.Positive(t, routes["GET "+serverRoute], "the wait reads the server itself")
	assert.Empty(t, e.servers(t))
	assert.Empty(t, e.allocationsFor(instance.ID))
}

// A deletion's wait reads the instance's network as it begins, beside the deletion:
// the confirmation of the 404 needs a read of it begun within the read lag, and finds
// that read made, rather than making it a round trip after the 404. The one read
// serves the confirmation.
func TestADeletionReadsItsNetworkBesideItsWait(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	// A process of its own, which has read nothing of the network yet.
	timed := &timedRequests{next: http.DefaultTransport}
	service := compute.NewService(e.NewSession(e.NewClient(t, sandbox.ServiceToken, timed), time.Second))
	require.NoError(t, service.Delete(t.Context(), instance.Ref(), instance.AllocationID))

	network := timed.matching(http.MethodGet, "/api/v2/networks/", http.StatusOK)
	gone := timed.matching(http.MethodGet, "/api/v2/servers/", http.StatusNotFound)
	require.Len(t, network, 1, "one read of the network")
	require.NotEmpty(t, gone)
	assert.True(t, network[0].sent.Before(gone[0].answered), "the network was read before the 404 came, not after it")
	assert.Empty(t, e.servers(t))
}

// timedRequests records when each request was sent and answered.
type timedRequests struct {
	next http.RoundTripper
	mu   sync.Mutex
	log  []timedRequest
}

type timedRequest struct {
	method, path   string
	status         int
	sent, answered time.Time
}

func (c *timedRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	sent := time.Now()

	response, err := c.next.RoundTrip(r)
	if err == nil {
		c.mu.Lock()
		c.log = append(c.log, timedRequest{r.Method, r.URL.Path, response.StatusCode, sent, time.Now()})
		c.mu.Unlock()
	}

	return response, err
}

// matching are the requests of method under path answered with status, in the order
// they were answered.
func (c *timedRequests) matching(method, path string, status int) []timedRequest {
	c.mu.Lock()
	defer c.mu.Unlock()

	var found []timedRequest

	for _, request := range c.log {
		if request.method == method && strings.HasPrefix(request.path, path) && request.status == status {
			found = append(found, request)
		}
	}

	return found
}

// notFoundReads counts the direct reads under path (region's servers unless set) that
// are answered 404.
type notFoundReads struct {
	next http.RoundTripper
	path string
	n    atomic.Int32
}

func (c *notFoundReads) RoundTrip(r *http.Request) (*http.Response, error) {
	response, err := c.next.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet && response.StatusCode == http.StatusNotFound &&
		strings.HasPrefix(r.URL.Path, cmp.Or(c.path, "/api/v2/servers/")) {
		c.n.Add(1)
	}

	return response, err
}

func (c *notFoundReads) count() int { return int(c.n.Load()) }

func (c *notFoundReads) reset() { c.n.Store(0) }
