package compute_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Instances created together wait together: their polls become shared lists of the
// network's servers, not one read per instance.
func TestConcurrentWaitsShareTheirReads(t *testing.T) {
	t.Parallel()

	const instances = 8

	e := newEnv(t)
	require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{ProvisionDelay: "300ms"}))
	e.Sandbox.ResetStats()

	var wg sync.WaitGroup

	for i := range instances {
		wg.Go(func() { e.create(t, standardSpec(fmt.Sprintf("web-%d", i))) })
	}

	wg.Wait()

	routes := e.Sandbox.Stats().Routes
	assert.Equal(t, instances, routes["POST /api/v2/servers"])

	// Alone, each wait would read about 300 ms ÷ 20 ms = 15 times, 120 in all. A wait
	// that finds itself alone on a tick (its peers not waiting yet, on a loaded
	// machine, or done) reads its own server, as it should: those reads count too.
	reads := routes["GET /api/v2/servers"] + routes["GET /api/v2/servers/{serverID}"]
	assert.Less(t, reads, 3*15, "the waits shared their reads")
}

// slowAnswers holds back the answers of server lists after region has produced them,
// as a slow network does: a list on its way then carries the world as it was when
// the list was served.
type slowAnswers struct {
	next  http.RoundTripper
	delay time.Duration
}

func (s slowAnswers) RoundTrip(request *http.Request) (*http.Response, error) {
	response, err := s.next.RoundTrip(request)
	if request.Method == http.MethodGet && request.URL.Path == "/api/v2/servers" {
		time.Sleep(s.delay)
	}

	return response, err
}

// However many reads are on their way, one that starts after a write of this process
// sees it. (Another process's write may be missed for the read lag anyway, and for
// up to a poll interval more by a look-up; see TestALookUpSharesARecentListUntilAWrite.)
func TestAReadAfterAWriteSeesIt(t *testing.T) {
	t.Parallel()

	inBubble(t, func(t *testing.T, e *env) {
		instance := e.create(t, standardSpec("web"))

		slow := slowAnswers{next: e.Transport, delay: 30 * time.Millisecond}
		client := e.NewClient(t, sandbox.ServiceToken, slow)
		// A look-up may take a list sent up to 20 ms ago (the poll interval), less than
		// a list takes to come back: each look-up joins a list, and the readers keep
		// one gathering or on its way at every moment. A list sent before a write and
		// still on its way is then always there for the read after the write to take.
		service := compute.NewService(cloud.NewSession(client, cloud.WithReadLag(testReadLag/10), cloud.WithPollPolicy(cloudtest.Poll)))

		ctx, stop := context.WithCancel(t.Context())
		defer stop()

		var readers sync.WaitGroup

		for range 4 {
			readers.Go(func() {
				for ctx.Err() == nil {
					_, _ = service.Get(ctx, instance.Ref())
				}
			})
		}

		server, err := e.Client.GetServer(t.Context(), instance.ServerID)
		require.NoError(t, err)

		// Each write lands at another point of the readers' cycle: while a list gathers
		// readers (10 ms), and while one is on its way back (30 ms more).
		for i, pause := range []time.Duration{0, 5 * time.Millisecond, 15 * time.Millisecond, 25 * time.Millisecond, 35 * time.Millisecond} {
			time.Sleep(pause)

			description := fmt.Sprintf("revision %d", i)
			_, err := client.UpdateServer(t.Context(), instance.ServerID, unikorn.ServerUpdate{
				Metadata: unikorn.WriteMetadata{Name: server.Metadata.Name, Description: description, Tags: server.Metadata.Tags},
				Spec:     server.Spec,
			})
			require.NoError(t, err)

			got, err := service.Get(t.Context(), instance.Ref())
			require.NoError(t, err)
			assert.Equal(t, description, got.Spec.Description)
		}

		stop()
		readers.Wait()

		// A list the readers left goes on without them; the bubble ends once it is
		// back.
		time.Sleep(compute.DefaultReadGathering + slow.delay)
	})
}

// Terraform refreshes a few instances at a time: a look-up takes the list of the whole
// network another has just made, until the process writes.
func TestALookUpSharesARecentListUntilItsInstanceIsWritten(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	var instances []*compute.Instance
	for i := range 6 {
		instances = append(instances, e.create(t, standardSpec(fmt.Sprintf("web-%d", i))))
	}

	// An operator's token: the session makes a security group too.
	client := e.NewClient(t, sandbox.PlatformAdminToken, nil)

	// A poll interval far longer than the test: only a write ends the sharing.
	service := compute.NewService(cloud.NewSession(client, cloud.WithReadLag(testReadLag), cloud.WithPollPolicy(cloud.PollPolicy{
		Min: 5 * time.Millisecond, Max: time.Minute, Factor: 2,
	})))
	lists := func() int { return e.Sandbox.Stats().Routes["GET /api/v2/servers"] }
	lookUp := func(instance *compute.Instance) error {
		_, err := service.Get(t.Context(), instance.Ref())

		return err
	}

	e.Sandbox.ResetStats()

	// One after another, as no gathering would share them.
	for _, instance := range instances[:4] {
		require.NoError(t, lookUp(instance))
	}

	assert.Equal(t, 1, lists(), "every look-up but the first took the first's list")

	// A write of the process's own to an instance makes that instance's next look-up
	// list again, and see it; the others still take the list from before, which shows
	// them as a new one would.
	require.NoError(t, service.Delete(t.Context(), instances[0].Ref(), instances[0].AllocationID))
	e.Sandbox.ResetStats()

	require.NoError(t, lookUp(instances[1]))
	assert.Equal(t, 0, lists(), "a write to another instance left the list as good as new")

	require.ErrorIs(t, lookUp(instances[0]), compute.ErrNotFound, "the look-up did not take the list from before the delete")
	assert.Equal(t, 1, lists())

	require.NoError(t, lookUp(instances[2]))
	assert.Equal(t, 1, lists(), "a list after the delete, shared by the next look-up")

	// A write that names no instance (here another family's, on the same session) may
	// have changed any of them.
	_, err := networking.NewService(service.Session).CreateSecurityGroup(t.Context(), networking.SecurityGroupCreate{
		SecurityGroupUpdate: networking.SecurityGroupUpdate{Metadata: cloud.WriteMetadata{Name: "web"}},
		NetworkID:           sandbox.NetworkDefaultID,
	})
	require.NoError(t, err)
	e.Sandbox.ResetStats()

	require.NoError(t, lookUp(instances[3]))
	assert.Equal(t, 1, lists(), "a write of anything else ends the sharing")
}

// Terraform plans ten instances at once: their checks of the token's right to call
// region's server API share one probe of the network, and a later check sends none.
func TestConcurrentPlansShareOneServiceRightsProbe(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instances := compute.NewRegionInstances(e.serviceOver(t, nil))
	e.Sandbox.ResetStats()

	var plans sync.WaitGroup

	for i := range 10 {
		plans.Go(func() {
			_, err := instances.Validate(t.Context(), standardSpec(fmt.Sprintf("web-%d", i)))
			assert.NoError(t, err)
		})
	}

	plans.Wait()

	_, err := instances.Validate(t.Context(), standardSpec("later"))
	require.NoError(t, err)
	assert.Equal(t, 1, e.Sandbox.Stats().Routes["GET /api/v2/servers"], "one probe for the network")
}

// A look-up may take a list as old as the read lag, however short the poll interval:
// the cloud's own reads may be that old. Beyond it, a look-up lists again. The
// session's clock is stepped, so that the ages are exact however slowly the test runs.
func TestALookUpSharesAListAsOldAsTheReadLag(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	first, second := e.create(t, standardSpec("web-1")), e.create(t, standardSpec("web-2"))

	client := e.NewClient(t, sandbox.ServiceToken, nil)

	const readLag = 300 * time.Millisecond

	clock := cloudtest.NewClock()
	service := compute.NewService(cloud.NewSession(client, cloud.WithReadLag(readLag), cloud.WithPollPolicy(cloud.PollPolicy{
		Min: time.Millisecond, Max: time.Millisecond, Factor: 2,
	}), cloud.WithClock(clock.Now)))
	lists := func() int { return e.Sandbox.Stats().Routes["GET /api/v2/servers"] }

	e.Sandbox.ResetStats()

	_, err := service.Get(t.Context(), first.Ref())
	require.NoError(t, err)
	clock.Step(readLag)
	_, err = service.Get(t.Context(), second.Ref())
	require.NoError(t, err)
	assert.Equal(t, 1, lists(), "three hundred poll intervals on, the list was as old as the read lag, no older")

	clock.Step(time.Millisecond)
	_, err = service.Get(t.Context(), second.Ref())
	require.NoError(t, err)
	assert.Equal(t, 2, lists(), "past the read lag, a look-up lists again")
}
