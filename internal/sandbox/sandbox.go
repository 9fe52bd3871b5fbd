// Package sandbox is an in-memory simulation of the Unikorn region and identity APIs,
// and of compute's under its compute prefix (internal/sandbox/compute/instance): the same
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
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
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
	// Now is the one clock every lifecycle reads; nil means time.Now. Tests give a
	// clock of their own to step time exactly.
	Now func() time.Time
}

// DefaultOptions are the documented defaults of the unikorn-sandbox command.
func DefaultOptions() Options {
	return Options{
		Token:            DefaultToken,
		ProvisionDelay:   time.Second,
		DeprovisionDelay: 500 * time.Millisecond,
	}
}

// Sandbox is the simulated region, identity and compute services. It is an
// http.Handler that serves their APIs and the /sandbox/v1 control API.
type Sandbox struct {
	core *core.Server
}

// New returns a sandbox holding the fixtures, or the world saved at opts.StatePath
// when that file exists.
func New(opts Options) (*Sandbox, error) {
	return newSandbox(opts, nil)
}

// newSandbox is New starting from a saved store, when saved is not nil and there is no
// state file.
func newSandbox(opts Options, saved []byte) (*Sandbox, error) {
	if opts.Token == "" {
		opts.Token = DefaultToken
	}

	if opts.Token == OutsiderToken || opts.Token == ForeignToken || opts.Token == ServiceToken || opts.Token == KubernetesServiceToken {
		return nil, fmt.Errorf("the fixture user's token must differ from the fixture tokens %q, %q, %q and %q",
			OutsiderToken, ForeignToken, ServiceToken, KubernetesServiceToken)
	}

	sb := &Sandbox{}

	server, err := core.New(core.Options{
		Token:              opts.Token,
		ServiceToken:       ServiceToken,
		PlatformAdminToken: PlatformAdminToken,
		ProvisionDelay:     opts.ProvisionDelay,
		DeprovisionDelay:   opts.DeprovisionDelay,
		Latency:            opts.Latency,
		StatePath:          opts.StatePath,
		Logger:             opts.Logger,
		ReadLag:            opts.ReadLag,
		Seed:               opts.Seed,
		ShowInvisible:      opts.ShowInvisible,
		Now:                opts.Now,
		Saved:              saved,
	}, families())
	if err != nil {
		return nil, err
	}

	sb.core = server

	if err := server.OverrideQuotas(OrganizationID, opts.Quotas); err != nil {
		return nil, err
	}

	return sb, nil
}

// ServeHTTP serves the services' APIs and the control API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.core.ServeHTTP(w, r)
}

// Close stops the compute controller's passes, then brings every due transition up
// to date and saves the state.
func (s *Sandbox) Close() error {
	return s.core.Close()
}
