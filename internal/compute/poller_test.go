package compute

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

var testScope = scope{"org", "project", "region", "network"}

// versionedLists answers every list with one server whose name is the version of the
// world when the list was sent.
type versionedLists struct {
	version atomic.Int64
	calls   atomic.Int64
	queries chan unikorn.ServerQuery
}

func (v *versionedLists) list(_ context.Context, query unikorn.ServerQuery) ([]unikorn.Server, error) {
	v.calls.Add(1)

	if v.queries != nil {
		v.queries <- query
	}

	server := unikorn.Server{}
	server.Metadata.Name = string(rune('a' + v.version.Load()))

	return []unikorn.Server{server}, nil
}

// one answers a read of one server from list, as region would from a list of its tag:
// the server of the instance, in testScope.
func one(list func(context.Context, unikorn.ServerQuery) ([]unikorn.Server, error)) func(context.Context, string) (*unikorn.Server, error) {
	return func(ctx context.Context, instanceID string) (*unikorn.Server, error) {
		servers, err := list(ctx, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: InstanceIDTag, Value: instanceID}}})
		if err != nil {
			return nil, err
		}

		server := servers[0]
		server.Metadata.ID, server.Metadata.Tags = instanceID, unikorn.Tags{{Name: InstanceIDTag, Value: instanceID}}
		server.Metadata.OrganizationID, server.Metadata.ProjectID = testScope.organizationID, testScope.projectID
		server.Status.RegionID, server.Status.NetworkID = testScope.regionID, testScope.networkID

		return &server, nil
	}
}

func TestReadersThatGatherTogetherShareOneList(t *testing.T) {
	t.Parallel()

	lists := &versionedLists{}
	l := newServerLists(lists.list, one(lists.list), 100*time.Millisecond)

	var wg sync.WaitGroup

	for range 20 {
		wg.Go(func() {
			servers, err := l.read(t.Context(), testScope, "instance")
			assert.NoError(t, err)
			assert.Len(t, servers, 1)
		})
	}

	wg.Wait()
	assert.Equal(t, int64(1), lists.calls.Load())

	_, err := l.read(t.Context(), scope{"org", "project", "region", "other-network"}, "instance")
	require.NoError(t, err)
	assert.Equal(t, int64(2), lists.calls.Load(), "another network is another list")
}

// A list shared by several instances asks for the whole scope; a read of one instance
// asks for its server alone.
func TestAListAsksForItsWholeScopeOnlyWhenShared(t *testing.T) {
	t.Parallel()

	lists := &versionedLists{queries: make(chan unikorn.ServerQuery, 1)}
	read := one(new(versionedLists).list)
	asked := make(chan string, 1)
	l := newServerLists(lists.list, func(ctx context.Context, id string) (*unikorn.Server, error) {
		asked <- id

		return read(ctx, id)
	}, 100*time.Millisecond)

	servers, err := l.read(t.Context(), testScope, "web")
	require.NoError(t, err)
	assert.Equal(t, "web", <-asked)
	assert.Len(t, servers, 1)

	var wg sync.WaitGroup
	for _, instanceID := range []string{"web", "db", "web"} {
		wg.Go(func() {
			_, err := l.read(t.Context(), testScope, instanceID)
			assert.NoError(t, err)
		})
	}

	wg.Wait()

	whole := unikorn.ServerQuery{
		OrganizationIDs: []string{"org"}, ProjectIDs: []string{"project"},
		RegionIDs: []string{"region"}, NetworkIDs: []string{"network"},
	}
	assert.Equal(t, whole, <-lists.queries)
	assert.Empty(t, asked, "the shared list asks for no server alone")
}

// A read of one server alone answers what a list of the instance's tag in the scope
// would: a 404 as an absentError, for a wait's confirmation to take; a server of that
// ID that is not the instance's, or lies elsewhere, as nothing; a 403 as lost access
// to the instance, not to region's server API.
func TestAReadOfOneServerAnswersAsTheListOfItsTag(t *testing.T) {
	t.Parallel()

	readWith := func(get func(context.Context, string) (*unikorn.Server, error)) ([]unikorn.Server, error) {
		return newServerLists(nil, get, time.Millisecond).read(t.Context(), testScope, "web")
	}
	answer := func(err error) func(context.Context, string) (*unikorn.Server, error) {
		return func(context.Context, string) (*unikorn.Server, error) { return nil, err }
	}
	server := func(change func(*unikorn.Server)) func(context.Context, string) (*unikorn.Server, error) {
		return func(ctx context.Context, id string) (*unikorn.Server, error) {
			found, err := one(new(versionedLists).list)(ctx, id)
			change(found)

			return found, err
		}
	}

	_, err := readWith(answer(&unikorn.APIError{StatusCode: http.StatusNotFound}))
	require.ErrorAs(t, err, new(*absentError))

	_, err = readWith(answer(&unikorn.APIError{StatusCode: http.StatusForbidden, Path: "/api/v2/servers/web"}))
	require.ErrorAs(t, err, new(*AccessError))
	assert.NotErrorAs(t, serviceRights(err), new(*ServiceRightsError))

	servers, err := readWith(server(func(s *unikorn.Server) { s.Metadata.Tags = nil }))
	require.NoError(t, err)
	assert.Empty(t, servers, "a server of that ID without the instance's tag")

	servers, err = readWith(server(func(s *unikorn.Server) { s.Status.NetworkID = "another" }))
	require.NoError(t, err)
	assert.Empty(t, servers, "the instance's server on another network")

	servers, err = readWith(server(func(*unikorn.Server) {}))
	require.NoError(t, err)
	assert.Len(t, servers, 1)
}

// A read that starts after a write must not be answered by a list sent before it,
// even while that list is still on its way.
func TestAReadAfterAWriteNeverSharesAnEarlierList(t *testing.T) {
	t.Parallel()

	sent := make(chan struct{})
	release := make(chan struct{})
	lists := &versionedLists{}

	var first atomic.Bool

	list := func(ctx context.Context, query unikorn.ServerQuery) ([]unikorn.Server, error) {
		servers, err := lists.list(ctx, query)
		if first.CompareAndSwap(false, true) {
			close(sent)
			<-release // the answer to the first list is slow to come back
		}

		return servers, err
	}
	l := newServerLists(list, one(list), time.Millisecond)

	before := make(chan []unikorn.Server, 1)

	go func() {
		servers, err := l.read(context.Background(), testScope, "instance")
		assert.NoError(t, err)
		before <- servers
	}()

	<-sent
	lists.version.Store(1) // the write completes while the first list is in flight

	// Were the read to join the list in flight, it would wait for its answer, held
	// back until this read returns.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()

	after, err := l.read(ctx, testScope, "instance")
	require.NoError(t, err)
	assert.Equal(t, "b", after[0].Metadata.Name, "the read after the write sees it")

	close(release)
	assert.Equal(t, "a", (<-before)[0].Metadata.Name, "the read before the write got the list it joined")
	assert.Equal(t, int64(2), lists.calls.Load())
}

func TestAReaderThatGivesUpLeavesTheOthersTheirAnswer(t *testing.T) {
	t.Parallel()

	lists := &versionedLists{}
	l := newServerLists(lists.list, one(lists.list), 50*time.Millisecond)

	impatient, cancel := context.WithCancel(t.Context())
	cancel()

	_, err := l.read(impatient, testScope, "instance")
	require.ErrorIs(t, err, context.Canceled)

	servers, err := l.read(t.Context(), testScope, "instance")
	require.NoError(t, err)
	assert.Len(t, servers, 1)
	assert.Equal(t, int64(1), lists.calls.Load(), "both joined the same list")
}

func TestTaggedServersPicksTheInstancesOwn(t *testing.T) {
	t.Parallel()

	server := func(id string, tags ...unikorn.Tag) unikorn.Server {
		s := unikorn.Server{}
		s.Metadata.ID, s.Metadata.Tags = id, tags

		return s
	}

	servers := []unikorn.Server{
		server("s1", unikorn.Tag{Name: InstanceIDTag, Value: "i1"}),
		server("s2", unikorn.Tag{Name: "team", Value: "i1"}),
		server("s3"),
		server("s4", unikorn.Tag{Name: "team", Value: "web"}, unikorn.Tag{Name: InstanceIDTag, Value: "i1"}),
		server("s5", unikorn.Tag{Name: InstanceIDTag, Value: "i2"}),
	}

	ids := func(servers []unikorn.Server) []string {
		var ids []string
		for _, s := range servers {
			ids = append(ids, s.Metadata.ID)
		}

		return ids
	}

	assert.Equal(t, []string{"s1", "s4"}, ids(taggedServers(servers, "i1")))
	assert.Empty(t, taggedServers(servers, "i3"))
}

func TestScopeNeedsEveryPart(t *testing.T) {
	t.Parallel()

	_, ok := scopeOf(Ref{ID: "i", OrganizationID: "o", ProjectID: "p", RegionID: "r", NetworkID: "n"})
	assert.True(t, ok)

	_, ok = scopeOf(Ref{ID: "i", OrganizationID: "o", ProjectID: "p", RegionID: "r"})
	assert.False(t, ok, "an import by ID knows no network")
}
