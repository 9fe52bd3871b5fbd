package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// StateVersion is bumped whenever the saved form of the store changes incompatibly;
// a family's migration (Migrate) brings an older file up to date.
const StateVersion = 3

// Options configure a Server; the sandbox's Options say what each means to a user.
type Options struct {
	// Token is the fixture user's bearer token; ServiceToken the service principal's,
	// PlatformAdminToken the platform administrator's. Only they may call the
	// control API.
	Token, ServiceToken, PlatformAdminToken string

	ProvisionDelay, DeprovisionDelay, Latency time.Duration

	// StatePath is the state file; empty means no persistence.
	StatePath string
	Logger    *slog.Logger

	ReadLag       time.Duration
	Seed          uint64
	ShowInvisible bool

	// Now is the one clock every lifecycle reads; nil means time.Now.
	Now func() time.Time

	// Saved is a store in its saved form to start from when there is no state file,
	// as a state file holds it: a world made beforehand, however large.
	Saved []byte
}

// Family is one family of a service, as the sandbox's families.go lists them: a folder
// of its own that registers what it owns with the server.
type Family struct {
	Name string
	// Register adds the family's kinds, views, routes, control operations, fixtures,
	// migrations and advances.
	Register func(s *Server) error
}

// Server is the simulation every family is served by: one store of records, one
// clock, one read lag, one set of switches (faults, latency, visibility), one RBAC, one
// quota, as every Unikorn service stands on one Kubernetes API server and on identity.
type Server struct {
	opts   Options
	logger *slog.Logger
	// now is the clock every lifecycle reads.
	now func() time.Time

	reg      *registry
	api      *http.ServeMux
	control  *http.ServeMux
	routes   map[string]bool
	services []*Service
	// contracts judge the paths of services whose own documents lack them (Judge).
	contracts []*Contract
	// prefixed serves, under a service's own base URL, its routes alone.
	prefixed map[string]*http.ServeMux
	// uuidParameters are the path parameters the services' documents declare UUIDs.
	uuidParameters []string

	fixtures       []func(st *Store) error
	migrations     map[int][]func(st *Store) error
	advances       []func(st *Store, now time.Time) bool
	lastAdvances   []func(st *Store, now time.Time) bool
	authenticators []Authenticator
	system         func(st *Store) *Caller
	objectSources  []func() []Object
	opens          []func() error
	closers        []func()
	locals         sync.Map

	// mu guards the store, the delays of the transitions it schedules and what
	// follows.
	mu               sync.Mutex
	store            *Store
	provisionDelay   time.Duration
	deprovisionDelay time.Duration
	// lag keeps what cached reads still show of recent writes; showInvisible turns
	// visibility off.
	lag           *readLag
	showInvisible bool
	// generation counts the changes of the store (writes, transitions, settings).
	generation uint64
	// dueAt is when the next transition falls due, so that requests before it need not
	// look; zero when unknown (a write may have scheduled one).
	dueAt time.Time

	// faultsMu guards what the control API steers per request: stats, faults, latency.
	faultsMu    sync.Mutex
	stats       Stats
	faults      []*fault
	nextFaultID int
	latency     time.Duration
}

// New returns a server of the families given, holding the state saved at
// opts.StatePath when that file exists, else every family's fixtures.
func New(opts Options, families []Family) (*Server, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}

	now := opts.Now
	if now == nil {
		now = time.Now
	}

	s := &Server{
		opts:             opts,
		logger:           logger,
		now:              now,
		reg:              newRegistry(),
		api:              http.NewServeMux(),
		control:          http.NewServeMux(),
		routes:           map[string]bool{},
		prefixed:         map[string]*http.ServeMux{},
		migrations:       map[int][]func(st *Store) error{},
		provisionDelay:   opts.ProvisionDelay,
		deprovisionDelay: opts.DeprovisionDelay,
		latency:          opts.Latency,
		lag:              newReadLag(opts.ReadLag, opts.Seed),
		showInvisible:    opts.ShowInvisible,
		stats:            newStats(),
	}

	s.registerOwn()

	for _, family := range families {
		if err := family.Register(s); err != nil {
			return nil, fmt.Errorf("sandbox family %s: %w", family.Name, err)
		}
	}

	if err := s.open(); err != nil {
		return nil, err
	}

	for _, open := range s.opens {
		if err := open(); err != nil {
			return nil, err
		}
	}

	if err := s.mountServices(); err != nil {
		return nil, err
	}

	return s, nil
}

// registerOwn registers what the server keeps itself: the quota's allocations and
// limits, the cloud's counters, and the control API's own operations.
func (s *Server) registerOwn() {
	Register(s, Allocations)
	RegisterSection(s, quotaLimits)
	RegisterSection(s, macSequence)
	RegisterSection(s, nextPublicHost)

	s.registerControlRoutes()
}

// Fixture registers what a family adds to a fresh sandbox, after the fixtures of the
// families registered before it.
func (s *Server) Fixture(fn func(st *Store) error) {
	s.fixtures = append(s.fixtures, fn)
}

// Migrate registers what brings a state file saved at version up to StateVersion, after
// the migrations of the families registered before it.
func (s *Server) Migrate(version int, fn func(st *Store) error) {
	s.migrations[version] = append(s.migrations[version], fn)
}

// OnOpen registers what runs once the store is loaded or made, before the first
// request: a service with records of its own reads its section then.
func (s *Server) OnOpen(fn func() error) {
	s.opens = append(s.opens, fn)
}

// OnClose registers what stops before the server saves for the last time; it runs
// without the server's lock.
func (s *Server) OnClose(fn func()) {
	s.closers = append(s.closers, fn)
}

// open loads the store saved at the state path, or makes the fixtures.
func (s *Server) open() error {
	if s.opts.StatePath != "" {
		st, ok, err := s.load(s.opts.StatePath)
		if err != nil {
			return err
		}

		if ok {
			s.store = st

			return nil
		}
	}

	if s.opts.Saved != nil {
		st, err := s.decode(s.opts.Saved, "given")
		if err != nil {
			return err
		}

		s.store = st

		return nil
	}

	s.store = newStore(s.reg)

	for _, fixture := range s.fixtures {
		if err := fixture(s.store); err != nil {
			return err
		}
	}

	return nil
}

// load reads a saved store; ok is false when the file does not exist.
func (s *Server) load(path string) (st *Store, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}

	if err != nil {
		return nil, false, fmt.Errorf("reading sandbox state: %w", err)
	}

	st, err = s.decode(data, path)

	return st, err == nil, err
}

// decode reads a saved store and brings it up to date.
func (s *Server) decode(data []byte, origin string) (*Store, error) {
	st := newStore(s.reg)
	st.version = 0

	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("decoding sandbox state %s: %w", origin, err)
	}

	if migrations, known := s.migrations[st.version]; known && st.version < StateVersion {
		for _, migrate := range migrations {
			if err := migrate(st); err != nil {
				return nil, fmt.Errorf("migrating sandbox state %s from version %d: %w", origin, st.version, err)
			}
		}

		st.version = StateVersion
	}

	if st.version != StateVersion {
		return nil, fmt.Errorf("sandbox state %s has version %d, this sandbox reads version %d", origin, st.version, StateVersion)
	}

	return st, nil
}

// save writes the store atomically: a reader, or a crash halfway, sees either the old
// file or the new one, never a torn mix.
func (st *Store) save(path string) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding sandbox state: %w", err)
	}

	temp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	defer os.Remove(temp.Name())

	if _, err := temp.Write(append(data, '\n')); err != nil {
		temp.Close()

		return fmt.Errorf("saving sandbox state: %w", err)
	}

	if err := temp.Close(); err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	if err := os.Rename(temp.Name(), path); err != nil {
		return fmt.Errorf("saving sandbox state: %w", err)
	}

	return nil
}

// saveLocked persists the store when a state path is configured. Callers hold mu.
func (s *Server) saveLocked() error {
	if s.opts.StatePath == "" {
		return nil
	}

	return s.store.save(s.opts.StatePath)
}

// Close stops what runs on its own (a service's controller), then brings every due
// transition up to date and saves the state.
func (s *Server) Close() error {
	for _, closer := range s.closers {
		closer()
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advance(s.now())

	return s.saveLocked()
}

// Now is the clock every lifecycle reads.
func (s *Server) Now() time.Time {
	return s.now()
}

// Options are the server's options as it was made.
func (s *Server) Options() Options {
	return s.opts
}

// ProvisionDelay is how long a create or an update takes to settle now. Callers hold
// the lock: a handler, an advance, Read or Change.
func (s *Server) ProvisionDelay() time.Duration {
	return s.provisionDelay
}

// DeprovisionDelay is how long a deleted object stays deprovisioning now. Callers hold
// the lock.
func (s *Server) DeprovisionDelay() time.Duration {
	return s.deprovisionDelay
}

// Local is state a family keeps per server beyond its records, such as what tests
// told it (image sources) or a signing key: Set when the family registers, Get from
// its exported functions.
type Local[T any] struct{ _ byte }

// Set keeps value for the server.
func (l *Local[T]) Set(s *Server, value *T) {
	s.locals.Store(l, value)
}

// Get is what Set kept for the server.
func (l *Local[T]) Get(s *Server) *T {
	value, _ := s.locals.Load(l)

	return value.(*T) //nolint:forcetypeassert // Set stores only *T
}

// Read runs fn against the store brought up to date, as it is rather than as a lagging
// read shows it: a control operation's view.
func (s *Server) Read(fn func(st *Store)) {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()
	fn(s.store)
}

// Change runs fn against the store brought up to date and saves what it changed, which
// readers see through the read lag as any change: a control operation that changes the
// cloud (a server that fails, a share's usage report).
func (s *Server) Change(fn func(st *Store, now time.Time) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	now := s.now()
	before := s.lag.snapshot(s.store)

	defer s.lag.record(before, s.store, now)

	if err := fn(s.store, now); err != nil {
		return err
	}

	s.changed()

	return s.saveLocked()
}

// Current runs fn with the store brought up to date and saved, as a request handler
// runs, but with no read lag: identity checks a token against what it issued.
func (s *Server) Current(fn func(st *Store, now time.Time)) {
	s.mu.Lock()
	defer s.mu.Unlock()

	now := s.now()

	if s.advanceLagged(now) {
		if err := s.saveLocked(); err != nil {
			s.logger.Error("saving sandbox state", "error", err)
		}
	}

	fn(s.store, now)
}

// Cached is the store as region's cache shows it to a handler now: what a read would
// see. Writes act on the request's store, which is always current.
func (s *Server) Cached(req *Request) *Store {
	return s.lag.view(s.store, req.Now)
}

// advanceLocked brings the store up to date for a control call. Callers hold mu.
// Transitions it applies lag for readers like those applied during an API request.
func (s *Server) advanceLocked() {
	if s.advanceLagged(s.now()) {
		if err := s.saveLocked(); err != nil {
			s.logger.Error("saving sandbox state", "error", err)
		}
	}
}

// Store is the live store. Only what runs under the server's lock may use it: a
// handler, an advance, a fixture, Read, Change or Current, and OnOpen before the
// first request.
func (s *Server) Store() *Store {
	return s.store
}

// Generation counts the changes of what reads see: every write, transition and
// setting, and every lag that runs out. An index of records may be kept while it
// stands still. Callers hold the lock.
func (s *Server) Generation() uint64 {
	return s.generation + s.lag.caughtUp
}
