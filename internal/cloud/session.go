package cloud

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Session is what the façade's families share in one provider process: the API
// client, the poll grid their waits fall on, what they learn of how long changes
// take, and the reads many callers make alike (Shared), so that what one family
// writes the others read afresh. It is safe for concurrent use.
type Session struct {
	client *unikorn.Client
	poll   PollPolicy
	// readLag is how long the cloud's caches may take to show a write (see
	// PastReadLag).
	readLag time.Duration
	// pollEpoch anchors the poll grid (see WaitFor).
	pollEpoch time.Time
	// pacer learns how long changes take (see WaitForChange).
	pacer *pacer
	// shared keeps the reads that many callers make alike (see Shared).
	shared *sharedReads
	// now is the clock that dates reads (see Now).
	now func() time.Time
}

// PollPolicy paces the waits for asynchronous changes: intervals start at Min and
// grow by Factor up to Max. A low Max keeps the delay between the cloud reaching a
// state and the façade noticing it short. With Factor 2 and Max a power-of-two
// multiple of Min, the ticks of every interval fall on the ticks of the shorter ones,
// so that waits at different stages still share their reads.
//
// A wait still going after Patience is for a slow change (a bare-metal machine takes
// many minutes), where noticing it a second later costs nothing: its intervals keep
// growing, up to Slow, so that a long wait costs few requests.
type PollPolicy struct {
	Min    time.Duration
	Max    time.Duration
	Factor float64

	Patience time.Duration
	Slow     time.Duration
}

// DefaultPollPolicy notices a change within a quarter of a second (plus a round trip)
// of it happening, with no more than four reads a second for all the waits on one
// network. Measured with Terraform creating 100 instances ten at a time (see
// BENCHMARKS-HISTORY.md), a cap of 400 ms left a run 17% above its lower bound, 250 ms about
// 12%. A constant interval reads at most once more than the change lasts in
// intervals; a shorter first one would add a read. After half a minute the change is
// a slow one, and reads slow down to one every two seconds.
func DefaultPollPolicy() PollPolicy {
	return PollPolicy{
		Min: 250 * time.Millisecond, Max: 250 * time.Millisecond, Factor: 2,
		Patience: 30 * time.Second, Slow: 2 * time.Second,
	}
}

// minPollInterval keeps a misconfigured policy from polling in a busy loop.
const minPollInterval = time.Millisecond

// DefaultReadLag is how long a direct read must keep answering 404 before an object
// is taken for gone: region serves reads from caches that can miss a write for a few
// seconds.
const DefaultReadLag = 2 * time.Second

// Option configures a Session.
type Option func(*Session)

// WithPollPolicy replaces DefaultPollPolicy.
func WithPollPolicy(policy PollPolicy) Option {
	return func(s *Session) { s.poll = policy }
}

// WithReadLag replaces DefaultReadLag.
func WithReadLag(lag time.Duration) Option {
	return func(s *Session) { s.readLag = lag }
}

// WithClock replaces the clock that dates reads (see Now): a test steps it to show
// what a read's age decides without waiting for the read to grow old.
func WithClock(now func() time.Time) Option {
	return func(s *Session) { s.now = now }
}

// NewSession returns a Session that calls Unikorn through client.
func NewSession(client *unikorn.Client, options ...Option) *Session {
	session := &Session{
		client:  client,
		poll:    DefaultPollPolicy(),
		readLag: DefaultReadLag,
		shared:  newSharedReads(),
		now:     time.Now,
	}

	for _, option := range options {
		option(session)
	}

	session.shared.now = session.now

	session.poll.Min = max(session.poll.Min, minPollInterval)
	session.poll.Max = max(session.poll.Max, session.poll.Min)
	session.poll.Factor = max(session.poll.Factor, 1)
	// Probes fall on a grid a tenth of the shortest interval fine, and a span a few
	// of those wide is as good as known; changes whose ends lie an interval apart are
	// read on the ticks.
	session.pacer = newPacer(session.poll.Min/10, session.poll.Min)

	// A random phase keeps provider processes, each polling on its own grid, out of
	// step with each other; within one process the waits are in step on purpose.
	session.pollEpoch = time.Now().Add(-rand.N(session.poll.Max)) //nolint:gosec // a phase needs no cryptographic randomness

	return session
}

// Client returns the API client the session uses.
func (s *Session) Client() *unikorn.Client {
	return s.client
}

// Poll returns the session's poll policy, with its bounds applied.
func (s *Session) Poll() PollPolicy {
	return s.poll
}

// ReadLag returns how long the cloud's caches may take to show a write.
func (s *Session) ReadLag() time.Duration {
	return s.readLag
}

// Now is the time by the session's clock, which dates the reads it keeps and judges
// whether one is still young enough to answer (Shared, and the families' shared
// lists). Waits run on timers, not on this clock.
func (s *Session) Now() time.Time {
	return s.now()
}

// Settings say where Unikorn is and how to reach it, in the façade's terms.
type Settings struct {
	// Endpoints are the services' base URLs; only those the declaration requires
	// must be set (see services.Service.Required).
	Endpoints services.Endpoints
	// Token is sent as the bearer token of every request.
	Token string
	// UserAgent names the caller, e.g. "terraform-provider-unikorn/1.2.3".
	UserAgent string
	// CACertificate is an optional PEM bundle trusted in addition to the system's.
	CACertificate string
	// Insecure skips TLS certificate verification.
	Insecure bool
	// RequestTimeout bounds each attempt of a request; zero means the client's default.
	RequestTimeout time.Duration
	// Logger receives the API client's log lines; nil logs nothing.
	Logger Logger
	// OmitBodies keeps request and response bodies (the LogTrace lines) from Logger,
	// for a caller whose logs are off.
	OmitBodies bool
}

// LogLevel says how much a line of the API client's log matters.
type LogLevel int

// The levels of the API client's lines.
const (
	// LogDebug is one line per attempt and per retry.
	LogDebug LogLevel = iota
	// LogTrace carries request and response bodies.
	LogTrace
)

// Logger receives the API client's log lines. The client masks what it knows to be
// secret in a body; the logger masks the token, which its caller gave.
type Logger func(ctx context.Context, level LogLevel, message string, fields map[string]any)

// wire is the API client's configuration of settings.
func (s Settings) wire() unikorn.Config {
	config := unikorn.Config{
		Endpoints: s.Endpoints, Token: s.Token, UserAgent: s.UserAgent,
		CACertificate: s.CACertificate, Insecure: s.Insecure, RequestTimeout: s.RequestTimeout,
		OmitBodies: s.OmitBodies,
	}

	if logger := s.Logger; logger != nil {
		config.Logger = func(ctx context.Context, level unikorn.LogLevel, message string, fields map[string]any) {
			logger(ctx, logLevelFromWire(level), message, fields)
		}
	}

	return config
}

// logLevelFromWire is the client's level of a line in the façade's terms.
func logLevelFromWire(level unikorn.LogLevel) LogLevel {
	if level == unikorn.LogTrace {
		return LogTrace
	}

	return LogDebug
}

// Connect returns a Session over a new API client for settings.
func Connect(settings Settings, options ...Option) (*Session, error) {
	client, err := unikorn.NewClient(settings.wire())
	if err != nil {
		return nil, err
	}

	return NewSession(client, options...), nil
}
