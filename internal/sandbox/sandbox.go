// Package sandbox is an in-memory simulation of the Unikorn region and identity APIs,
// and of compute's under its compute prefix (internal/sandbox/compute): the same
// paths, bodies, status codes, list semantics and asynchronous lifecycles as the real
// services, with fixed fixtures, fault injection and a control API for tests and
// benchmarks. README.md's "Trying configurations against the sandbox" says what it
// promises users.
//
// It can be as harsh as production: Options.ReadLag serves reads from a cache that
// trails writes (seeded by Options.Seed), fault rules of phase "after" lose the answer
// of a request that took effect, and lists drop what the token may not read unless
// Options.ShowInvisible flatters the caller. ForeignToken reads as a member of another
// organization.
package sandbox

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute"
)

// Options configure a Sandbox.
type Options struct {
	// Token is the bearer token of the fixture user; empty means DefaultToken.
	Token string
	// ProvisionDelay is how long a create or update takes to settle. Zero means zero:
	// the create response still says pending, the next read says provisioned.
	ProvisionDelay time.Duration
	// DeprovisionDelay is how long a deleted object stays deprovisioning before it is gone.
	DeprovisionDelay time.Duration
	// Latency is added to every API request, to make benchmarks realistic.
	Latency time.Duration
	// StatePath is a JSON file loaded at start when it exists and saved after every
	// change and on Close; empty means no persistence.
	StatePath string
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger

	// ReadLag is the longest time reads trail a write, as real Unikorn's cached lists
	// and reads do: after each write, for a seeded-random time in [0, ReadLag] chosen
	// per written object, lists and GETs may answer the object's previous version, or
	// miss an object just created. Zero means reads are always exact.
	ReadLag time.Duration
	// Seed makes the read lags reproducible: the same seed and the same requests give
	// the same lags.
	Seed uint64
	// ShowInvisible makes lists flatter the caller: they include objects of projects
	// and organizations the token may not read. Off, lists drop them silently, as
	// region's do.
	ShowInvisible bool
	// Quotas overrides quantities of the fixture organization's quota by kind (e.g.
	// "servers": 2), over the fixtures' or the loaded state's, so that a test can make
	// quota run out. Identity's quota update changes them at run time.
	Quotas map[string]int
}

// DefaultOptions are the documented defaults of the unikorn-sandbox command.
func DefaultOptions() Options {
	return Options{
		Token:            DefaultToken,
		ProvisionDelay:   time.Second,
		DeprovisionDelay: 500 * time.Millisecond,
	}
}

// Sandbox is the simulated region and identity service. It is an http.Handler that
// serves both APIs and the /sandbox/v1 control API.
type Sandbox struct {
	token     string
	statePath string
	logger    *slog.Logger
	// now is the clock every lifecycle reads; tests replace it to step time exactly.
	now func() time.Time

	api     *http.ServeMux
	control *http.ServeMux
	// region serves region's routes alone under RegionPrefix, region's base URL.
	region *http.ServeMux
	// routes holds every API route template, to reject fault rules that could never match.
	routes map[string]bool

	// mu guards the world and the delays of the transitions it schedules.
	mu               sync.Mutex
	world            *world
	provisionDelay   time.Duration
	deprovisionDelay time.Duration

	// lag keeps what cached reads still show of recent writes; showInvisible turns
	// visibility off. mu guards both.
	lag           *readLag
	showInvisible bool
	// generation counts the changes of the world (writes, transitions, settings); mu
	// guards it. See changes.
	generation uint64
	// dueAt is when the next transition of the world falls due, so that requests before
	// it need not look; zero when unknown (a write may have scheduled one). mu guards it.
	dueAt time.Time
	// serverTags indexes the servers by tag for lists by tag; mu guards it.
	serverTags *serverTags
	// imageSources are what tests said image imports find at a URI; mu guards them.
	imageSources map[string]ImageSource

	// compute is the compute service mounted under ComputePrefix.
	compute *compute.Service

	// signing signs the passports identity's token exchange mints.
	signing *signingKey

	// faultsMu guards what the control API steers per request: stats, faults, latency.
	faultsMu    sync.Mutex
	stats       Stats
	faults      []*fault
	nextFaultID int
	latency     time.Duration
}

// New returns a sandbox holding the fixtures, or the world saved at opts.StatePath
// when that file exists.
func New(opts Options) (*Sandbox, error) {
	if opts.Token == "" {
		opts.Token = DefaultToken
	}

	if opts.Token == OutsiderToken || opts.Token == ForeignToken || opts.Token == ServiceToken {
		return nil, fmt.Errorf("the fixture user's token must differ from the fixture tokens %q, %q and %q", OutsiderToken, ForeignToken, ServiceToken)
	}

	w, err := loadOrCreateWorld(opts.StatePath)
	if err != nil {
		return nil, err
	}

	return newSandbox(opts, w)
}

// newSandbox returns a sandbox holding w.
func newSandbox(opts Options, w *world) (*Sandbox, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}

	s := &Sandbox{
		token:            opts.Token,
		statePath:        opts.StatePath,
		logger:           logger,
		now:              time.Now,
		routes:           map[string]bool{},
		provisionDelay:   opts.ProvisionDelay,
		deprovisionDelay: opts.DeprovisionDelay,
		latency:          opts.Latency,
		lag:              newReadLag(opts.ReadLag, opts.Seed),
		showInvisible:    opts.ShowInvisible,
		stats:            newStats(),
		world:            w,
		imageSources:     map[string]ImageSource{},
	}

	if err := s.world.overrideQuotas(OrganizationID, opts.Quotas); err != nil {
		return nil, err
	}

	signing, err := newSigningKey()
	if err != nil {
		return nil, err
	}

	s.signing = signing

	s.registerRoutes()
	s.registerControlRoutes()

	if err := s.mountCompute(); err != nil {
		return nil, err
	}

	s.mountRegion()

	// The services' OpenAPI contracts, once per process, before the first request.
	if _, err := contracts(); err != nil {
		return nil, err
	}

	return s, nil
}

// loadOrCreateWorld is the world saved at statePath, or the fixtures when there is none.
func loadOrCreateWorld(statePath string) (*world, error) {
	if statePath != "" {
		w, ok, err := loadWorld(statePath)
		if err != nil || ok {
			return w, err
		}
	}

	return fixtureWorld()
}

// Close stops the compute controller's passes, then brings every due transition up
// to date and saves the state. A pass saves through mu, so it is waited for first.
func (s *Sandbox) Close() error {
	if s.compute != nil {
		s.compute.Close()
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.world.advance(s.now())

	return s.saveLocked()
}

// saveLocked persists the world when a state path is configured. Callers hold mu.
func (s *Sandbox) saveLocked() error {
	if s.statePath == "" {
		return nil
	}

	return s.world.save(s.statePath)
}
