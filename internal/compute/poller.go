package compute

import (
	"context"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// DefaultReadGathering is how long a server list waits for more readers before it is
// sent. Terraform starts the reads of a run's instances within a few milliseconds of
// each other, and waits that end on the same poll tick wake together; this window
// lets each group share one request, and costs a single read no more than a fraction
// of one round trip.
const DefaultReadGathering = 10 * time.Millisecond

// scope is the narrowest set of servers one request can list for many instances at
// once: those on one network, in the network's organization, project and region.
type scope struct {
	organizationID, projectID, regionID, networkID string
}

// scopeOf returns the scope of a reference that names every part of it.
func scopeOf(ref Ref) (scope, bool) {
	sc := scope{ref.OrganizationID, ref.ProjectID, ref.RegionID, ref.NetworkID}

	return sc, sc.organizationID != "" && sc.projectID != "" && sc.regionID != "" && sc.networkID != ""
}

// sharedLists coalesces concurrent reads of the instances in one scope into one list
// request. Terraform reads and waits for many instances at once in one provider
// process, so instead of one request per instance, every reader of a network that
// arrives while a list is gathering shares that list. T is what the back end lists:
// region's servers or compute's instances.
//
// A reader (read) never shares a list that was sent before it arrived: a read that
// follows a write (a create, an update, a delete) always sees a list taken after the
// write, and each poll of a wait sees something new. A look-up (readRecent, as
// Terraform's refresh makes) may also take the answer of a list of the whole scope
// sent a moment ago (see Service.lookupWindow), when the client has written nothing to
// that instance since:
// Terraform refreshes only a few instances at a time, so the lists of one refresh
// would otherwise be nearly as many as its instances, and during a destroy each
// deletion would look its instance up anew while the waits of the others list the
// network every poll interval.
type sharedLists[T any] struct {
	// list lists sc; only is the one instance whose reader joined, or empty when
	// several share the list, so that a lone read can ask for less.
	list   func(ctx context.Context, sc scope, only string) ([]T, error)
	gather time.Duration
	// recentFor is how old a list readRecent takes may be (zero: none); writer is the
	// client whose writes a list must show (see unikorn.WrittenSince).
	recentFor time.Duration
	writer    *unikorn.Client
	// now dates the lists sent, to judge their age against recentFor.
	now func() time.Time

	mu sync.Mutex
	// gathering holds, per scope, the list that readers can still join.
	gathering map[scope]*sharedList[T]
	// recent holds, per scope, the last list of the whole scope that was sent.
	recent map[scope]*sharedList[T]
}

// sharedList is one list request and, once done is closed, its answer. The answer is
// shared by every reader, so nobody may modify it.
type sharedList[T any] struct {
	// instances are the instances whose readers joined, and whole whether a reader
	// asked for the whole scope (for later look-ups to share); both are guarded by
	// sharedLists.mu until the list is sent.
	instances map[string]struct{}
	whole     bool

	// sent and mark say when the list was sent and what the client had written by
	// then; set when it is sent.
	sent time.Time
	mark unikorn.WriteMark

	done  chan struct{}
	items []T
	err   error
}

func newSharedLists[T any](list func(context.Context, scope, string) ([]T, error), gather time.Duration) *sharedLists[T] {
	return &sharedLists[T]{list: list, gather: gather, now: time.Now, gathering: map[scope]*sharedList[T]{}, recent: map[scope]*sharedList[T]{}}
}

// shareRecent lets look-ups (readRecent) take lists sent up to window ago, by the
// clock now, while writer has written nothing to their instance since.
func (l *sharedLists[T]) shareRecent(window time.Duration, writer *unikorn.Client, now func() time.Time) {
	l.recentFor, l.writer, l.now = window, writer, now
}

// newServerLists shares region's server lists. A network may hold many servers: a
// lone reader asks for its instance's server by ID (the instance's own, see
// unikorn.DeriveServerID), as a read of that instance alone would, and a 404 for it is
// an absentError, a direct read's answer that a confirmation need not ask again. A
// server of that ID that is not the instance's, or lies outside the scope, is not
// there; a 403 for it is lost access to that instance (AccessError), not to region's
// server API, which the token has been using.
func newServerLists(list func(context.Context, unikorn.ServerQuery) ([]unikorn.Server, error),
	get func(context.Context, string) (*unikorn.Server, error), gather time.Duration,
) *sharedLists[unikorn.Server] {
	return newSharedLists(func(ctx context.Context, sc scope, only string) ([]unikorn.Server, error) {
		if only != "" {
			server, err := readAlone(ctx, only, get)

			switch {
			case unikorn.IsForbidden(err):
				return nil, &AccessError{InstanceID: only, What: "its server " + only, Err: err}
			case err != nil:
				return nil, err
			}

			instance := instanceFromServer(server)
			if instance.ID != only || !instance.inScope(Ref{
				OrganizationID: sc.organizationID, ProjectID: sc.projectID, RegionID: sc.regionID, NetworkID: sc.networkID,
			}) {
				return nil, nil
			}

			return []unikorn.Server{*server}, nil
		}

		return list(ctx, unikorn.ServerQuery{
			OrganizationIDs: []string{sc.organizationID},
			ProjectIDs:      []string{sc.projectID},
			RegionIDs:       []string{sc.regionID},
			NetworkIDs:      []string{sc.networkID},
		})
	}, gather)
}

// read returns, from a list request sent after the call began, the items in sc that
// may be instanceID: every item in sc when readers of several instances share the
// list, only those of instanceID when it is read alone, a read that may answer an
// absentError (see instanceReader), which only waits read.
func (l *sharedLists[T]) read(ctx context.Context, sc scope, instanceID string) ([]T, error) {
	return l.join(ctx, sc, instanceID, false)
}

// readRecent is read for a look-up that need not come after anything: it takes the
// last list of the whole scope when it was sent within the window shareRecent set and
// the client has written nothing to instanceID since, as that list shows everything of
// it a new one would but what the cloud did meanwhile. Otherwise it joins a new list of
// the whole scope, for the look-ups after it to share.
func (l *sharedLists[T]) readRecent(ctx context.Context, sc scope, instanceID string) ([]T, error) {
	l.mu.Lock()
	recent := l.recent[sc]
	reusable := recent != nil && l.stillShows(recent, instanceID)
	l.mu.Unlock()

	if reusable {
		select {
		case <-recent.done:
			if recent.err == nil {
				return recent.items, nil
			}
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}

	return l.join(ctx, sc, instanceID, true)
}

// stillShows reports whether a sent list may answer a look-up of instanceID now.
func (l *sharedLists[T]) stillShows(call *sharedList[T], instanceID string) bool {
	return l.writer != nil && l.now().Sub(call.sent) <= l.recentFor && !unikorn.WrittenSince(l.writer, call.mark, instanceID)
}

// join adds a reader of instanceID to the list of sc that is gathering, or starts one.
func (l *sharedLists[T]) join(ctx context.Context, sc scope, instanceID string, whole bool) ([]T, error) {
	l.mu.Lock()

	call, ok := l.gathering[sc]
	if !ok {
		call = &sharedList[T]{instances: map[string]struct{}{}, done: make(chan struct{})}
		l.gathering[sc] = call

		// The request outlives any one reader, which may give up while others
		// still wait for it; the client's own timeouts bound it.
		go l.send(context.WithoutCancel(ctx), sc, call)
	}

	call.instances[instanceID] = struct{}{}
	call.whole = call.whole || whole
	l.mu.Unlock()

	select {
	case <-call.done:
		return call.items, call.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// send closes the gathering window of call, then sends it.
func (l *sharedLists[T]) send(ctx context.Context, sc scope, call *sharedList[T]) {
	if l.gather > 0 {
		time.Sleep(l.gather)
	}

	// From here on, new readers start a new list: this one is about to be sent, and
	// may not see what happens after.
	l.mu.Lock()
	delete(l.gathering, sc)

	var only string
	if len(call.instances) == 1 && !call.whole {
		for instanceID := range call.instances {
			only = instanceID
		}
	}

	if only == "" && l.writer != nil {
		call.sent = l.now()
		call.mark = unikorn.WriteMarkOf(l.writer)
		l.recent[sc] = call
	}
	l.mu.Unlock()

	call.items, call.err = l.list(ctx, sc, only)
	close(call.done)
}

// taggedServers returns the servers that carry the instance tag of instanceID.
func taggedServers(servers []unikorn.Server, instanceID string) []unikorn.Server {
	var tagged []unikorn.Server

	for i := range servers {
		if value, ok := servers[i].Metadata.Tags.Get(InstanceIDTag); ok && value == instanceID {
			tagged = append(tagged, servers[i])
		}
	}

	return tagged
}
