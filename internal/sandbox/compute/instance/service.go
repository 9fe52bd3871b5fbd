package instance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const (
	// InstanceTag is the reserved tag that ties a hidden region server to its instance.
	InstanceTag = "compute.unikorn-cloud.org/instance-id"
	// snapshotTagPrefix marks the provenance tags of images; the colon form is the one
	// compute writes on images, unlike the slash form of the server tag.
	snapshotTagPrefix = "compute.unikorn-cloud.org:"
	snapshotTag       = snapshotTagPrefix + "instance-id"
	// AllocationKind is the kind compute charges an instance's quota under.
	AllocationKind = "computeinstances.compute.unikorn-cloud.org"
	// Version is the release the simulated service reports.
	Version = "1.17.0"
)

// Config wires the service to the sandbox it runs beside: what core offers a service
// that serves itself (register wires them).
type Config struct {
	// Transport carries compute's calls to region and identity. The sandbox gives one
	// that serves them in process and counts them apart from the callers' requests.
	Transport http.RoundTripper
	// ServiceToken is compute's own account, the only one region's servers and
	// identity's allocations accept.
	ServiceToken string
	// Now is the clock of creation and deletion times.
	Now func() time.Time
	// Authenticate tells a valid bearer token, as identity would.
	Authenticate func(token string) bool
	// Authorize is the ACL identity gives compute for a bearer token, asked whether it
	// allows an operation on an endpoint in a project (identity's rbac
	// AllowProjectScope): nil when it does, else identity's refusal as an
	// *unikorn.APIError. Nil allows everything.
	Authorize func(token, organizationID, projectID, endpoint, operation string) error
	// State is what Persist last received, to carry on from; empty starts afresh.
	State []byte
	// Persist receives the encoded records after every request that changed them.
	Persist func(state []byte)
	// Cache is what compute's reads go through; nil reads the records themselves.
	Cache Cache
	// Changes, when set, is a count that moves whenever region's and identity's answers
	// to compute may have changed: with every write, every transition that falls due,
	// every cached read that catches up, and at every call while fault rules may fail
	// one. A pass of the controller that found nothing to do is not made again until
	// it moves, as a watch wakes the real controller only on a change; without it,
	// every request makes a pass.
	Changes func() uint64
	// NextChange, when set, is when region's and identity's answers to compute next
	// change with no call made (a transition falling due, what region's cache shows
	// catching up), or the zero time for never. The controller is woken then, as the
	// real one's watch on region's servers wakes it, rather than at the next request:
	// under read lag, what compute shows of a change trails from the moment region
	// showed it, not from whenever someone next called.
	NextChange func() time.Time
}

// Cache is the informer cache the real service's handlers read its instances through:
// a read may miss an instance just created or show one as it was before a change, for
// up to the read lag. Writes act on the records themselves.
type Cache interface {
	// Trails reports whether reads may trail writes at all; if not, nothing is recorded.
	Trails() bool
	// Record notes which objects of kind changed between before and after (each the
	// JSON of every object, by ID), so that reads go on seeing the old versions a while.
	Record(kind string, before, after map[string][]byte)
	// Stale is the version of each lagging object of kind that reads still see, by ID:
	// nil for one not seen at all yet.
	Stale(kind string) map[string][]byte
}

// instancesKind names compute's instances to the Cache.
const instancesKind = "compute.instances"

// Service is the compute API. It keeps its instances in memory. Its controller
// reconciles every instance against region at the start of each request, as compute's
// reverse watch would have by then; once more right after each write, as the watch on
// instances wakes compute's controller without waiting for another request; and when
// region's answers next change on their own (Config.NextChange), as the reverse watch
// wakes it. Reads see the instances through the Cache.
type Service struct {
	mux        *http.ServeMux
	transport  http.RoundTripper
	service    *unikorn.Client
	now        func() time.Time
	auth       func(token string) bool
	authorize  func(token, organizationID, projectID, endpoint, operation string) error
	persist    func(state []byte)
	cache      Cache
	changes    func() uint64
	nextChange func() time.Time
	patterns   []string

	// mu serialises requests, as one controller would act on one object at a time.
	mu        sync.Mutex
	instances map[string]*instance
	// saved is the encoding last persisted, so that only changes are written, and
	// unsaved says the instances may have changed since.
	saved   []byte
	unsaved bool
	// known is every instance as JSON as the last change the cache recorded left it;
	// nil while reads do not trail.
	known map[string][]byte
	// idle says the last pass found nothing to do, when Changes stood at idleAt.
	idle   bool
	idleAt uint64

	// woken is set while a pass a write asked for waits for mu, so that a burst of
	// writes shares one pass; closed stops new passes, and passes counts those running.
	woken  atomic.Bool
	closed bool
	passes sync.WaitGroup

	// watchTimer wakes the controller at watchAt, the next change of what it reads.
	watchTimer *time.Timer
	watchAt    time.Time
}

// instance is compute's record: what the user asked for, and where its quota is held.
type instance struct {
	unikorn.Instance

	AllocationID string `json:"allocationId"`
	// ServerID is the backing server compute last made or saw, so that a list that
	// misses it is not taken for region saying it is gone.
	ServerID string `json:"serverId,omitempty"`
}

// New returns the service.
func New(cfg Config) (*Service, error) {
	service, err := newClient(cfg.Transport, cfg.ServiceToken)
	if err != nil {
		return nil, err
	}

	s := &Service{
		mux:        http.NewServeMux(),
		transport:  cfg.Transport,
		service:    service,
		now:        cfg.Now,
		auth:       cfg.Authenticate,
		authorize:  cfg.Authorize,
		persist:    cfg.Persist,
		cache:      cfg.Cache,
		changes:    cfg.Changes,
		nextChange: cfg.NextChange,
		instances:  map[string]*instance{},
		saved:      cfg.State,
	}

	if len(cfg.State) > 0 {
		if err := json.Unmarshal(cfg.State, &s.instances); err != nil {
			return nil, fmt.Errorf("compute state: %w", err)
		}
	}

	s.registerRoutes()

	return s, nil
}

// Patterns lists the route templates the service serves, relative to its mount point.
func (s *Service) Patterns() []string {
	return s.patterns
}

// ServeHTTP serves a request whose mount prefix is already stripped.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// newClient is a wire client that reaches region and identity through transport. The
// host is a placeholder: the transport never dials. Retries are off because compute's
// own handler decides what a failed call means.
func newClient(transport http.RoundTripper, token string) (*unikorn.Client, error) {
	return unikorn.NewClient(unikorn.Config{
		Endpoints:  services.Endpoints{services.Region: "http://sandbox", services.Identity: "http://sandbox"},
		Token:      token,
		HTTPClient: &http.Client{Transport: transport},
		Retry:      unikorn.RetryPolicy{MaxAttempts: 1},
	})
}

// request is one compute call and the caller's own client, for what compute does as
// the caller.
type request struct {
	*http.Request
	user  *unikorn.Client
	token string
}

// RBAC endpoint and operations of compute's instances, as identity's roles name them.
const (
	rbacInstances = "compute:instances"
	opCreate      = "create"
)

// allowProject asks identity's ACL for the caller whether it may act on the endpoint
// in the project, as compute's handlers do before anything else.
func (s *Service) allowProject(req *request, organizationID, projectID, endpoint, operation string) error {
	if s.authorize == nil {
		return nil
	}

	return s.authorize(req.token, organizationID, projectID, endpoint, operation)
}

type handler func(req *request) (int, any, error)

func (s *Service) handle(pattern string, h handler) {
	s.patterns = append(s.patterns, pattern)

	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		status, body, err := s.serve(r, h)
		if err != nil {
			writeError(w, err)

			return
		}

		writeJSON(w, status, body)
	})
}

func (s *Service) serve(r *http.Request, h handler) (int, any, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !s.auth(token) {
		return 0, nil, &apiError{http.StatusUnauthorized, unikorn.ErrorAccessDenied, "token validation failed"}
	}

	user, err := newClient(s.transport, token)
	if err != nil {
		return 0, nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	defer s.save()

	var (
		status int
		body   any
	)

	// What the pass changes the cache trails before the request is served: a read must
	// not see what the next read hides again.
	s.pass(r.Context())

	req := &request{Request: r, user: user, token: token}

	if r.Method == http.MethodGet {
		latest := s.instances
		s.instances = s.cachedView()

		defer func() { s.instances = latest }()

		return h(req)
	}

	s.cached(func() { status, body, err = h(req) })
	s.idle, s.unsaved = false, true
	s.wake()

	return status, body, err
}

// pass runs the controller, unless the last pass found nothing to do and nothing it
// reads has changed since: the same answers would find nothing again. Callers hold mu.
func (s *Service) pass(ctx context.Context) {
	if len(s.instances) == 0 {
		return
	}

	var changes uint64

	if s.changes != nil {
		// Counted before the pass reads anything, so that a change while it runs makes
		// the next pass run too.
		changes = s.changes()
		if s.idle && changes == s.idleAt {
			return
		}
	}

	var acted bool

	s.cached(func() { acted = s.reconcile(ctx) })
	s.unsaved = true

	s.idle, s.idleAt = !acted && s.changes != nil, changes

	s.watchNextChange()
}

// watchNextChange wakes the controller when what it reads next changes: whatever
// changed before, the pass that just ran has seen. Callers hold mu.
func (s *Service) watchNextChange() {
	if s.nextChange == nil || s.closed {
		return
	}

	// A change already watched for is not watched for again: with fault rules
	// installed every pass runs, and one that found the change not yet made (a clock
	// stepped back) would arm a timer that fires at once, for ever.
	next := s.nextChange()
	if next.IsZero() || next.Equal(s.watchAt) {
		return
	}

	if s.watchTimer != nil {
		s.watchTimer.Stop()
	}

	s.watchAt = next
	s.watchTimer = time.AfterFunc(max(next.Sub(s.now()), 0), func() {
		s.mu.Lock()
		defer s.mu.Unlock()

		s.wake()
	})
}

// cached runs change, which may change the instances, and tells the cache what it
// changed. Callers hold mu.
func (s *Service) cached(change func()) {
	if s.cache == nil || !s.cache.Trails() {
		s.known = nil

		change()

		return
	}

	if s.known == nil {
		s.known = s.encodedInstances()
	}

	change()

	after := s.encodedInstances()
	s.cache.Record(instancesKind, s.known, after)
	s.known = after
}

func (s *Service) encodedInstances() map[string][]byte {
	encoded := make(map[string][]byte, len(s.instances))

	for id, in := range s.instances {
		data, err := json.Marshal(in)
		if err != nil {
			panic(err) // The records are saved as JSON, so every one encodes.
		}

		encoded[id] = data
	}

	return encoded
}

// cachedView is the instances as the cache shows them now. Callers hold mu.
func (s *Service) cachedView() map[string]*instance {
	if s.cache == nil {
		return s.instances
	}

	stale := s.cache.Stale(instancesKind)
	if len(stale) == 0 {
		return s.instances
	}

	view := maps.Clone(s.instances)

	for id, data := range stale {
		if data == nil {
			delete(view, id)

			continue
		}

		old := &instance{}
		if err := json.Unmarshal(data, old); err != nil {
			panic(err) // encodedInstances wrote it.
		}

		view[id] = old
	}

	return view
}

// wake runs a pass of the controller as soon as its caller lets go of mu: after a
// write has answered, so that the hidden server of a new instance is created then and
// not at the next request, or when what the controller reads changes. Callers hold mu.
func (s *Service) wake() {
	if s.closed || !s.woken.CompareAndSwap(false, true) {
		return
	}

	s.passes.Add(1)

	go func() {
		defer s.passes.Done()

		s.mu.Lock()
		defer s.mu.Unlock()

		s.woken.Store(false)

		if s.closed {
			return
		}

		defer s.save()

		s.pass(context.Background())
	}()
}

// Instances returns compute's records as they are, not as its cache shows them.
func (s *Service) Instances() []unikorn.Instance {
	s.mu.Lock()
	defer s.mu.Unlock()

	instances := make([]unikorn.Instance, 0, len(s.instances))
	for _, in := range s.instances {
		instances = append(instances, in.Instance)
	}

	return instances
}

// Close waits for the controller's passes under way and starts no more.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true

	if s.watchTimer != nil {
		s.watchTimer.Stop()
	}
	s.mu.Unlock()

	s.passes.Wait()
}

// save hands the records to Persist when they changed. Only a write or a pass of the
// controller changes them: a read alone encodes nothing, however many there are.
func (s *Service) save() {
	if s.persist == nil || !s.unsaved {
		return
	}

	s.unsaved = false

	data, err := json.Marshal(s.instances)
	if err != nil || bytes.Equal(data, s.saved) {
		return
	}

	s.saved = data
	s.persist(data)
}
