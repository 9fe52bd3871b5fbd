package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Prefix is where the service is served, as its declaration says: its catalogue paths
// are region's too, so it needs a base URL of its own.
var Prefix = services.Kubernetes.SandboxPrefix()

// Config wires the service to the sandbox it runs beside.
type Config struct {
	// Transport carries the service's calls to region and identity, as anyone's.
	Transport http.RoundTripper
	// ServiceToken is the service's own account, which identity's allocations accept.
	ServiceToken string
	Now          func() time.Time
	// Delay is how long a cluster manager takes to provision, and a cluster each step
	// of its making (two, after its manager); DeleteDelay how long a deletion takes.
	Delay, DeleteDelay func() time.Duration
	// Authenticate tells a valid bearer token; Authorize asks identity's ACL for it
	// (nil when it allows the operation, else identity's refusal), in the project, or
	// at the organization's scope when projectID is empty.
	Authenticate func(token string) bool
	Authorize    func(token, organizationID, projectID, endpoint, operation string) error
	// Project reads a project's namespace as the service's Kubernetes client does:
	// whether it exists, and whether it is being deleted.
	Project func(organizationID, projectID string) (exists, deleting bool)
	// State is what Persist last received; empty starts afresh.
	State   json.RawMessage
	Persist func(state json.RawMessage)
	// Cache is what the handlers read through; nil reads the records themselves.
	Cache Cache
	// Options shape the clusters the service makes.
	Options Options
}

// Service is the Kubernetes service's API: its handlers, its records and the
// controllers that act on them. Every request first brings the records up to date, as
// the controllers would have by then, and a timer does while any is being made or
// deleted, so that a cluster's quota is released when it goes, whoever asks.
type Service struct {
	cfg      Config
	mux      *http.ServeMux
	patterns []string

	// mu serialises requests, as one controller acts on one object at a time.
	mu      sync.Mutex
	records *records
	// known is every record as JSON as the cache last saw it change; nil while reads
	// do not trail.
	known map[string]map[string][]byte
	saved []byte
	timer *time.Timer
	// closed stops the timer.
	closed bool
}

// New returns the service, carrying on from cfg.State.
func New(cfg Config) (*Service, error) {
	s := &Service{cfg: cfg, mux: http.NewServeMux(), records: newRecords(), saved: cfg.State}

	if len(cfg.State) > 0 {
		if err := json.Unmarshal(cfg.State, s.records); err != nil {
			return nil, err
		}
	}

	s.routes()

	return s, nil
}

// Patterns lists the route templates the service serves, relative to Prefix.
func (s *Service) Patterns() []string { return s.patterns }

// ServeHTTP serves a request whose Prefix is already stripped.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the controllers' timer.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.closed = true

	if s.timer != nil {
		s.timer.Stop()
	}
}

// request is one call of the service: the caller's token, and a client of region and
// identity as the caller, for what the service asks them on the caller's behalf.
type request struct {
	*http.Request
	token string
	user  *unikorn.Client
	// records are what the handler reads: as the cache shows them for a read.
	records *records
}

type handler func(req *request) (*core.Reply, error)

func (s *Service) handle(pattern string, h handler) {
	s.patterns = append(s.patterns, pattern)

	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		reply, err := s.serve(r, h)
		if errors.Is(err, ErrNoAnswer) {
			// The handler panics, and with no recovery middleware no answer comes.
			panic(http.ErrAbortHandler)
		}

		if err != nil {
			core.WriteError(w, asCoreError(err))

			return
		}

		body := []byte{}
		if reply.Body != nil {
			if raw, ok := reply.Body.([]byte); ok {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Header().Set("Cache-Control", "no-cache")
				w.WriteHeader(reply.Status)
				_, _ = w.Write(raw)

				return
			}

			body, _ = json.Marshal(reply.Body)
			body = append(body, '\n')
		}

		core.WriteJSON(w, reply.Status, "no-cache", body)
	})
}

func (s *Service) serve(r *http.Request, h handler) (*core.Reply, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !s.cfg.Authenticate(token) {
		return nil, &core.Error{Status: http.StatusUnauthorized, Code: unikorn.ErrorAccessDenied, Description: "token validation failed"}
	}

	user, err := newClient(s.cfg.Transport, token)
	if err != nil {
		return nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advance()

	req := &request{Request: r, token: token, user: user, records: s.records}

	if r.Method == http.MethodGet {
		req.records = s.records.view(s.cfg.Cache)

		return h(req)
	}

	var reply *core.Reply

	s.change(func() { reply, err = h(req) })

	return reply, err
}

// change runs a change of the records, tells the cache what it changed, saves them
// and arms the controllers' timer. Callers hold mu.
func (s *Service) change(fn func()) {
	trails := s.cfg.Cache != nil && s.cfg.Cache.Trails()
	if trails && s.known == nil {
		s.known = s.records.encoded()
	}

	fn()

	if trails {
		after := s.records.encoded()
		for kind, records := range after {
			s.cfg.Cache.Record(kind, s.known[kind], records)
		}

		s.known = after
	} else {
		s.known = nil
	}

	s.save()
	s.arm()
}

// save hands the records to Persist when they changed.
func (s *Service) save() {
	data, err := json.Marshal(s.records)
	if err != nil || bytes.Equal(data, s.saved) || s.cfg.Persist == nil {
		return
	}

	s.saved = data
	s.cfg.Persist(data)
}

// arm wakes the controllers when the next transition of a record falls due, or, while
// any record is held, within a delay: a project being deleted tears its clusters
// down without anyone calling the service. Callers hold mu.
func (s *Service) arm() {
	if s.closed || (len(s.records.Clusters) == 0 && len(s.records.Managers) == 0) {
		return
	}

	wait := max(s.cfg.Delay(), 10*time.Millisecond)

	for _, c := range s.records.Clusters {
		if len(c.Lifecycle) > 0 {
			wait = min(wait, max(c.Lifecycle[0].Due.Sub(s.cfg.Now()), 0))
		}
	}

	if s.timer != nil {
		s.timer.Stop()
	}

	s.timer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		defer s.mu.Unlock()

		if !s.closed {
			s.advance()
		}
	})
}

// Clusters returns every cluster as the service shows it, as it is rather than as
// its cache shows it.
func (s *Service) Clusters() []unikorn.KubernetesCluster {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advance()

	out := []unikorn.KubernetesCluster{}
	for _, c := range core.ByID(s.records.Clusters) {
		out = append(out, c.read())
	}

	return out
}

// Managers returns every cluster manager as it is.
func (s *Service) Managers() []unikorn.ClusterManager {
	s.mu.Lock()
	defer s.mu.Unlock()

	out := []unikorn.ClusterManager{}
	for _, m := range core.ByID(s.records.Managers) {
		out = append(out, unikorn.ClusterManager{Metadata: m.Metadata})
	}

	return out
}

// newClient is a wire client that reaches region and identity through transport, as
// the one whose token it is. The host is a placeholder: the transport never dials.
// Retries are off because the service's handlers decide what a failed call means.
func newClient(transport http.RoundTripper, token string) (*unikorn.Client, error) {
	return unikorn.NewClient(unikorn.Config{
		Endpoints:  services.InSandbox("http://sandbox"),
		Token:      token,
		HTTPClient: &http.Client{Transport: transport},
		Retry:      unikorn.RetryPolicy{MaxAttempts: 1},
	})
}

// asCoreError is the answer to err: the service's own, or one of region's or
// identity's passed through as it came, or the service's generic 500.
func asCoreError(err error) error {
	var own *core.Error
	if errors.As(err, &own) {
		return own
	}

	// Any error of the service that is not a typed HTTP error is core's generic 500,
	// whatever it says.
	var refusal *Refusal
	if errors.As(err, &refusal) && refusal.Status == http.StatusBadRequest {
		return core.BadRequest("%s", refusal.Description)
	}

	var upstream *unikorn.APIError
	if errors.As(err, &upstream) && upstream.Code != "" {
		return &core.Error{Status: upstream.StatusCode, Code: upstream.Code, Description: upstream.Description}
	}

	return core.ServerError()
}
