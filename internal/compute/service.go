package compute

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Service is the instance façade over one API client. It is safe for concurrent use,
// and is meant to be shared by everything in one provider process so that they share
// its catalogue cache.
type Service struct {
	client    *unikorn.Client
	catalogue *catalogue
	poll      PollPolicy
}

// PollPolicy paces the waits for asynchronous changes: intervals start at Min and
// grow by Factor up to Max, each shortened by up to Jitter (a fraction) so that many
// instances created together do not poll in lock-step. A low Max keeps the delay
// between the cloud reaching a state and the façade noticing it short.
type PollPolicy struct {
	Min    time.Duration
	Max    time.Duration
	Factor float64
	Jitter float64
}

// DefaultPollPolicy notices a change within half a second of it happening.
func DefaultPollPolicy() PollPolicy {
	return PollPolicy{Min: 100 * time.Millisecond, Max: 500 * time.Millisecond, Factor: 1.5, Jitter: 0.2}
}

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

// DefaultCatalogueTTL bounds how stale a cached look-up may be.
const DefaultCatalogueTTL = 5 * time.Minute

// NewService returns a façade that calls Unikorn through client.
func NewService(client *unikorn.Client, options ...Option) *Service {
	service := &Service{
		client:    client,
		catalogue: newCatalogue(client, DefaultCatalogueTTL),
		poll:      DefaultPollPolicy(),
	}

	for _, option := range options {
		option(service)
	}

	return service
}

// Client returns the API client the façade uses.
func (s *Service) Client() *unikorn.Client {
	return s.client
}

// waitFor calls check until it reports done or fails, pacing calls by the poll policy.
// It returns ctx's error, wrapped with what it was waiting for, when ctx ends first.
func (s *Service) waitFor(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	interval := s.poll.Min

	for {
		done, err := check(ctx)
		if err != nil || done {
			return err
		}

		delay := time.Duration(float64(interval) * (1 - s.poll.Jitter*rand.Float64())) //nolint:gosec // jitter needs no cryptographic randomness

		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()

			return &WaitError{What: what, Err: context.Cause(ctx)}
		case <-timer.C:
		}

		interval = min(time.Duration(float64(interval)*s.poll.Factor), s.poll.Max)
	}
}

// WaitError means a wait ended (timeout or cancellation) before its condition held.
type WaitError struct {
	What string
	Err  error
}

func (e *WaitError) Error() string {
	return "gave up waiting for " + e.What + ": " + e.Err.Error()
}

func (e *WaitError) Unwrap() error { return e.Err }
