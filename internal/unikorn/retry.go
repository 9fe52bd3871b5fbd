package unikorn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"syscall"
	"time"
)

// RetryPolicy shapes the retries of idempotent requests (GET, PUT, DELETE). A POST is
// never retried: creates are not idempotent for networks and SSH CAs, and a server
// action sent twice may act twice.
type RetryPolicy struct {
	// MaxAttempts counts the first attempt too, so 1 disables retries; zero means
	// DefaultMaxAttempts.
	MaxAttempts int
	// MinBackoff and MaxBackoff bound the wait before a retry; zero means
	// DefaultMinBackoff and DefaultMaxBackoff.
	MinBackoff, MaxBackoff time.Duration
}

// Retry defaults: the four waits between five attempts add up to 1-7.5 seconds
// (without Retry-After), enough to ride out a dropped keep-alive connection, a pod
// restart behind a load balancer or a brief rate limit, and short enough that a real
// outage is reported while the user is still watching.
const (
	DefaultMaxAttempts = 5
	DefaultMinBackoff  = 250 * time.Millisecond
	DefaultMaxBackoff  = 10 * time.Second
)

// maxRetryAfter caps how long one Retry-After makes us wait. The server's wish is
// honoured up to a minute; beyond that a Terraform run would look hung, and a retry
// that comes too early only costs one attempt and brings a fresh Retry-After.
const maxRetryAfter = time.Minute

func (p RetryPolicy) withDefaults() (RetryPolicy, error) {
	if p.MaxAttempts < 0 || p.MinBackoff < 0 || p.MaxBackoff < 0 {
		return p, errors.New("retry attempts and backoffs must not be negative")
	}

	if p.MaxAttempts == 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}

	if p.MinBackoff == 0 {
		p.MinBackoff = DefaultMinBackoff
	}

	if p.MaxBackoff == 0 {
		p.MaxBackoff = max(DefaultMaxBackoff, p.MinBackoff)
	}

	if p.MinBackoff > p.MaxBackoff {
		return p, fmt.Errorf("minimum retry backoff %s exceeds the maximum %s", p.MinBackoff, p.MaxBackoff)
	}

	return p, nil
}

// wait is how long to sleep before retry number retry (1 for the first) after err.
// A Retry-After from the server wins over our own schedule.
func (p RetryPolicy) wait(err error, retry int) time.Duration {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
		return min(apiErr.RetryAfter, maxRetryAfter)
	}

	return p.backoff(retry)
}

// backoff is exponential with full jitter: uniformly random between MinBackoff and a
// ceiling that doubles per retry up to MaxBackoff, so that many clients failing at
// once (parallel Terraform resources) do not come back in lockstep.
func (p RetryPolicy) backoff(retry int) time.Duration {
	ceiling := p.MinBackoff
	for range retry {
		if ceiling >= p.MaxBackoff/2 {
			ceiling = p.MaxBackoff

			break
		}

		ceiling *= 2
	}

	return p.MinBackoff + rand.N(ceiling-p.MinBackoff+1)
}

// idempotent reports whether a request with method may be sent again: the contract's
// PUTs replace the whole object and DELETEs of a deleting object answer 202 again.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodPut, http.MethodDelete:
		return true
	default:
		return false
	}
}

// retryable reports whether a failed attempt is worth repeating: overload and gateway
// answers, and connections that broke before a whole answer arrived.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}

	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		default:
			return false
		}
	}

	var connErr *connectionError

	return errors.As(err, &connErr) && connErr.retryable()
}

// connectionError is an attempt that produced no complete HTTP answer.
type connectionError struct {
	method, path string
	err          error
	// timeout is the attempt's deadline when that deadline cut the attempt short.
	timeout time.Duration
}

func (e *connectionError) Error() string {
	if e.timeout > 0 {
		return fmt.Sprintf("%s %s: no answer within %s", e.method, e.path, e.timeout)
	}

	return fmt.Sprintf("%s %s: %v", e.method, e.path, e.err)
}

func (e *connectionError) Unwrap() error { return e.err }

// retryable accepts the failures of a connection that the server or a proxy dropped
// or never accepted, and timeouts. TLS, DNS and URL errors are left out: repeating
// them gives the same answer.
func (e *connectionError) retryable() bool {
	if e.timeout > 0 {
		return true
	}

	var netErr net.Error
	if errors.As(e.err, &netErr) && netErr.Timeout() {
		return true
	}

	for _, target := range []error{
		io.EOF, io.ErrUnexpectedEOF,
		syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ECONNABORTED, syscall.EPIPE,
	} {
		if errors.Is(e.err, target) {
			return true
		}
	}

	return false
}

// sleep waits for d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()

	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
