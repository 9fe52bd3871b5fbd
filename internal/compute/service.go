package compute

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Service is the instance façade over one API client. It is safe for concurrent use,
// and is meant to be shared by everything in one provider process so that they share
// its catalogue cache and their reads of servers.
type Service struct {
	client    *unikorn.Client
	catalogue *catalogue
	servers   *sharedLists[unikorn.Server]
	poll      PollPolicy
	// readLag is how long region's caches may take to show a write (see confirmGone).
	readLag time.Duration
	// pollEpoch anchors the service's poll grid (see waitFor).
	pollEpoch time.Time
	// pacer learns how long changes take (see waitForChange).
	pacer *pacer
	// rights holds, per network, the probe of region's server API for the token (see
	// checkServiceRights): the rights of a token do not change within a run.
	rightsMu sync.Mutex
	rights   map[string]*rightsProbe
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
// BENCHMARKS.md), a cap of 400 ms left a run 17% above its lower bound, 250 ms about
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

// Option configures a Service.
type Option func(*Service)

// WithPollPolicy replaces DefaultPollPolicy.
func WithPollPolicy(policy PollPolicy) Option {
	return func(s *Service) { s.poll = policy }
}

// WithCatalogueTTL sets how long network, flavor and image look-ups are reused.
func WithCatalogueTTL(ttl time.Duration) Option {
	return func(s *Service) { s.catalogue.ttl = ttl }
}

// WithReadLag replaces DefaultReadLag.
func WithReadLag(lag time.Duration) Option {
	return func(s *Service) { s.readLag = lag }
}

// DefaultReadLag is how long a direct read must keep answering 404 before an object
// is taken for gone: region serves reads from caches that can miss a write for a few
// seconds.
const DefaultReadLag = 2 * time.Second

// DefaultCatalogueTTL bounds how stale a cached look-up may be.
const DefaultCatalogueTTL = 5 * time.Minute

// NewService returns a façade that calls Unikorn through client.
func NewService(client *unikorn.Client, options ...Option) *Service {
	service := &Service{
		client:    client,
		catalogue: newCatalogue(client, DefaultCatalogueTTL),
		servers:   newServerLists(client.ListServers, DefaultReadGathering),
		poll:      DefaultPollPolicy(),
		readLag:   DefaultReadLag,
		rights:    map[string]*rightsProbe{},
	}

	for _, option := range options {
		option(service)
	}

	service.poll.Min = max(service.poll.Min, minPollInterval)
	service.poll.Max = max(service.poll.Max, service.poll.Min)
	service.poll.Factor = max(service.poll.Factor, 1)
	// A span narrower than a tenth of the shortest interval is as good as known.
	service.pacer = newPacer(service.poll.Min / 10)
	// A look-up may take a list one poll interval old: no staler than a wait's reads.
	service.servers.shareRecent(service.poll.Max, client)

	// A random phase keeps provider processes, each polling on its own grid, out of
	// step with each other; within one process the waits are in step on purpose.
	service.pollEpoch = time.Now().Add(-rand.N(service.poll.Max)) //nolint:gosec // a phase needs no cryptographic randomness

	return service
}

// Client returns the API client the façade uses.
func (s *Service) Client() *unikorn.Client {
	return s.client
}

// waitFor calls check until it reports done or fails, pacing calls by the poll policy.
// It returns ctx's error, wrapped with what it was waiting for, when ctx ends first.
//
// The first check comes after the first interval, not at once: a wait follows a
// request whose answer already said the change was under way. Every check falls on a
// tick of the service's poll grid, the multiples of the current interval since
// pollEpoch, so that the waits of one provider process (Terraform creates many
// instances at once) wake together and share their reads (see serverLists).
//
// A read that fails without a definite answer (a 5xx, a 429, a broken connection, a
// request timeout) does not end the wait: the change is under way whatever one read
// says, and giving up would leave, say, a new instance tainted and replaced. Such
// failures only slow the reads down, up to Slow, until the wait's own time runs out;
// a refusal (401, 403, another 4xx) ends it at once.
func (s *Service) waitFor(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	return s.waitForChange(ctx, what, change{}, func(ctx context.Context, _ bool) (bool, error) { return check(ctx) })
}

// waitForChange is waitFor for a change of kind c, whose duration the service learns:
// besides its ticks, the wait reads when the change is likely to be done (see pacer).
// check learns whether it reads for such a probe or for a tick.
func (s *Service) waitForChange(ctx context.Context, what string, c change, check func(ctx context.Context, probing bool) (bool, error)) error {
	start := time.Now()
	interval := s.poll.Min
	patientUntil := start.Add(s.poll.Patience)
	probes := s.pacer.probes(c)

	var (
		lastFailure error
		// notDone is when the last read that saw the change not done began.
		notDone time.Duration
	)

	for {
		now := time.Now()
		wait := s.untilTick(now, interval)

		for len(probes) > 0 && !start.Add(probes[0]).After(now) {
			probes = probes[1:]
		}

		probing := len(probes) > 0 && start.Add(probes[0]).Before(now.Add(wait))
		if probing {
			wait = start.Add(probes[0]).Sub(now)
			probes = probes[1:]
		}

		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()

			return &WaitError{What: what, Err: context.Cause(ctx), LastFailure: lastFailure}
		case <-timer.C:
		}

		began := time.Since(start)
		done, err := check(ctx, probing)

		var failed *readError

		ceiling := s.poll.Max
		if s.poll.Patience > 0 && time.Now().After(patientUntil) {
			ceiling = max(s.poll.Slow, s.poll.Max)
		}

		switch {
		case err != nil && ctx.Err() != nil:
			// The check failed because the wait's time ran out while it read.
			return &WaitError{What: what, Err: context.Cause(ctx), LastFailure: lastFailure}
		case errors.As(err, &failed) && transient(failed.err):
			lastFailure = failed.err
			// Back off from an API in trouble rather than add to it.
			ceiling = max(s.poll.Slow, s.poll.Max)
		case failed != nil:
			return failed.err
		case err != nil:
			return err
		case done:
			s.pacer.learn(c, notDone, began)

			return nil
		default:
			lastFailure = nil
			notDone = began
		}

		interval = min(time.Duration(float64(interval)*s.poll.Factor), ceiling)
	}
}

// transient reports whether a failed read says nothing about what it read: every
// failure but an answer (a refusal, a 4xx other than 429, or "not found").
func transient(err error) bool {
	if errors.Is(err, ErrNotFound) {
		return false
	}

	var apiErr *unikorn.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode >= http.StatusInternalServerError
	}

	return true
}

// untilTick is the time from now to the next tick of the poll grid of interval.
func (s *Service) untilTick(now time.Time, interval time.Duration) time.Duration {
	return interval - now.Sub(s.pollEpoch)%interval
}

// readError marks the failure of a wait's status read, as opposed to a failure the
// read revealed (such as a server in error).
type readError struct {
	err error
}

func (e *readError) Error() string { return e.err.Error() }

func (e *readError) Unwrap() error { return e.err }

// WaitError means a wait ended (timeout or cancellation) before its condition held.
type WaitError struct {
	What string
	Err  error
	// LastFailure is the last read's failure when the wait ended among failed reads.
	LastFailure error
}

func (e *WaitError) Error() string {
	message := "gave up waiting for " + e.What + ": " + e.Err.Error()
	if e.LastFailure != nil {
		message += " (the last read failed: " + e.LastFailure.Error() + ")"
	}

	return message
}

// Interrupted reports whether the wait ended because it was cancelled (Ctrl-C) rather
// than because its time ran out.
func (e *WaitError) Interrupted() bool {
	return errors.Is(e.Err, context.Canceled)
}

func (e *WaitError) Unwrap() error { return e.Err }

// Settings say where Unikorn is and how to reach it; Logger among them receives the
// API client's log lines.
type (
	Settings = unikorn.Config
	Logger   = unikorn.Logger
	LogLevel = unikorn.LogLevel
)

// Log levels of the API client's lines.
const (
	LogDebug = unikorn.LogDebug
	LogTrace = unikorn.LogTrace
)

// Connect returns a Service over a new API client for settings.
func Connect(settings Settings, options ...Option) (*Service, error) {
	client, err := unikorn.NewClient(settings)
	if err != nil {
		return nil, err
	}

	return NewService(client, options...), nil
}
