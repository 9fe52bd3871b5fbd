package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ComputePrefix is where the compute service is mounted, as its declaration says: its
// catalogue paths are the same as region's, so it needs a base URL of its own.
var ComputePrefix = services.Compute.SandboxPrefix()

// internalKey marks a request the compute service makes on its own account.
type internalKey struct{}

func isInternal(r *http.Request) bool {
	internal, _ := r.Context().Value(internalKey{}).(bool)

	return internal
}

// mountCompute serves the compute service under ComputePrefix, as ordinary API routes
// so that stats and fault rules reach them ("GET /compute/api/v2/instances").
func (s *Sandbox) mountCompute() error {
	config := compute.Config{
		Transport:    inProcess{s},
		ServiceToken: ServiceToken,
		Now:          func() time.Time { return s.now() },
		State:        s.world.Compute,
		Cache:        computeCache{s},
		Changes:      s.changes,
		NextChange:   s.nextChange,
		Persist:      s.saveCompute,
		Authenticate: s.validToken,
		Authorize:    s.authorizeCompute,
	}

	service, err := compute.New(config)
	if err != nil {
		return err
	}

	s.compute = service

	s.registerComputeControlRoutes()

	// Compute's generated router binds its path IDs before it authenticates, as
	// region's and identity's do.
	stripped := http.StripPrefix(ComputePrefix, service)
	mounted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := validatePathElements(r); err != nil {
			writeError(w, err)

			return
		}

		stripped.ServeHTTP(w, r)
	})

	for _, pattern := range service.Patterns() {
		method, path, _ := strings.Cut(pattern, " ")
		full := method + " " + ComputePrefix + path
		s.routes[full] = true
		s.api.Handle(full, mounted)
	}

	return nil
}

// authorizeCompute is compute.Config.Authorize: what identity's ACL for the token
// allows in the project, by the rules every service of the sandbox checks, with
// identity's 403 when it does not. Compute calls it holding only its own lock.
func (s *Sandbox) authorizeCompute(token, organizationID, projectID, endpoint, operation string) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	caller, err := s.resolve(token, s.now())
	if err == nil {
		err = allowInProject(caller, organizationID, projectID, endpoint, operation)
	}

	var refusal *apiError
	if errors.As(err, &refusal) {
		return &unikorn.APIError{StatusCode: refusal.status, Code: refusal.code, Description: refusal.description}
	}

	var unauthenticated *errUnauthenticated
	if errors.As(err, &unauthenticated) {
		return &unikorn.APIError{StatusCode: http.StatusUnauthorized, Code: unikorn.ErrorAccessDenied, Description: unauthenticated.cause}
	}

	return err
}

// inProcess carries compute's calls to region and identity through the sandbox's own
// handler, marked so that they are counted apart from the callers' requests.
type inProcess struct{ s *Sandbox }

func (t inProcess) RoundTrip(r *http.Request) (response *http.Response, err error) {
	// A fault that drops the connection aborts the handler; compute sees a lost answer.
	defer func() {
		if recovered := recover(); recovered != nil {
			if recovered != http.ErrAbortHandler { //nolint:errorlint // panics carry the sentinel itself
				panic(recovered)
			}

			response, err = nil, errors.New("connection closed before the answer")
		}
	}()

	recorder := httptest.NewRecorder()
	t.s.ServeHTTP(recorder, r.WithContext(context.WithValue(r.Context(), internalKey{}, true)))

	return recorder.Result(), nil
}

// computeCache serves the compute service's reads through the sandbox's read lag, one
// cache for every service as one setting: compute's handlers read through an informer
// cache as region's do. Compute calls it holding only its own lock.
type computeCache struct{ s *Sandbox }

func (c computeCache) Trails() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	return c.s.lag.max > 0
}

func (c computeCache) Record(kind string, before, after map[string][]byte) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	c.s.lag.recordChanges(objectSnapshot{kind: before}, objectSnapshot{kind: after}, c.s.now())
}

func (c computeCache) Stale(kind string) map[string][]byte {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	return c.s.lag.staleOf(kind, c.s.now())
}

// changes is compute.Config.Changes: it brings the world up to date, as the request a
// pass would send does, and counts every change of the world and of what the cache
// shows. While fault rules are installed any call may fail, so it moves every time.
func (s *Sandbox) changes() uint64 {
	s.faultsMu.Lock()
	faulty := len(s.faults) > 0
	s.faultsMu.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()
	s.lag.sweep(s.now())

	if faulty {
		s.generation++
	}

	return s.generation + s.lag.caughtUp
}

// serversKind names region's servers among the world's kinds of object (objectKinds).
const serversKind = "Servers"

// nextChange is compute.Config.NextChange: when a server's next transition falls
// due, or the lag on one runs out, whichever comes first. Region's servers are what
// compute's controller reads and its watch follows; a change of anything else would
// wake it for a pass that finds nothing new. Compute calls it holding its own lock,
// never from inside a region or identity request.
func (s *Sandbox) nextChange() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()

	next := never
	for _, record := range s.world.Servers {
		earliestDue(reflect.ValueOf(record), &next)
	}

	if caughtUp := s.lag.nextCatchUp(serversKind); !caughtUp.IsZero() && caughtUp.Before(next) {
		next = caughtUp
	}

	if next.Equal(never) {
		return time.Time{}
	}

	return next
}

// saveCompute keeps the compute service's records with the world. Compute calls it
// holding only its own lock, never from inside a region or identity request.
func (s *Sandbox) saveCompute(state []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.world.Compute = state
	// What compute holds may hold a project's deletion.
	s.changed()

	if err := s.saveLocked(); err != nil {
		s.logger.Error("saving sandbox state", "error", err)
	}
}

// InstanceServers returns the region servers behind a compute instance, whatever the
// compute service itself believes: the administrator's view that shows a missing or
// duplicated server.
func (s *Sandbox) InstanceServers(instanceID string) ([]unikorn.Server, error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	servers := []unikorn.Server{}

	for _, record := range s.world.Servers {
		if id, _ := record.Server.Metadata.Tags.Get(compute.InstanceTag); id == instanceID {
			servers = append(servers, record.Server)
		}
	}

	slices.SortFunc(servers, func(a, b unikorn.Server) int { return strings.Compare(a.Metadata.ID, b.Metadata.ID) })

	// A deep copy, so that the caller holds nothing the world changes later.
	data, err := json.Marshal(servers)
	if err != nil {
		return nil, err
	}

	var out []unikorn.Server

	return out, json.Unmarshal(data, &out)
}

func (s *Sandbox) registerComputeControlRoutes() {
	s.handleControl("GET /sandbox/v1/instances/{instanceID}/servers", func(r *http.Request) (*reply, error) {
		servers, err := s.InstanceServers(r.PathValue("instanceID"))
		if err != nil {
			return nil, err
		}

		return replyOK(servers), nil
	})
}
