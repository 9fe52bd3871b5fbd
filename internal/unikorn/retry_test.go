package unikorn

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failure is what a flaky server does to a request it does not answer properly.
type failure func(w http.ResponseWriter, r *http.Request)

func failWith(status int) failure {
	return func(w http.ResponseWriter, r *http.Request) {
		answer(status, `{"error":"server_error","error_description":"try again"}`)(w, r)
	}
}

// dropConnection closes the connection without answering, as a crashing backend or a
// proxy restart does.
func dropConnection(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}

	_ = conn.Close()
}

var failures = map[string]failure{
	"429":                failWith(http.StatusTooManyRequests),
	"502":                failWith(http.StatusBadGateway),
	"503":                failWith(http.StatusServiceUnavailable),
	"504":                failWith(http.StatusGatewayTimeout),
	"dropped connection": dropConnection,
}

// flaky fails the first n requests, then answers status with body; it records the
// request bodies it saw.
type flaky struct {
	mu       sync.Mutex
	failures int
	fail     failure
	status   int
	body     string
	seen     []string
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)

	f.mu.Lock()
	f.seen = append(f.seen, string(body))
	attempt := len(f.seen)
	f.mu.Unlock()

	if attempt <= f.failures {
		f.fail(w, r)

		return
	}

	answer(f.status, f.body)(w, r)
}

func (f *flaky) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()

	return append([]string(nil), f.seen...)
}

type idempotentCall struct {
	status int
	body   string
	call   func(context.Context, *Client) error
}

var idempotentCalls = map[string]idempotentCall{
	"GET": {status: http.StatusOK, body: `{"metadata":{"id":"s-1"}}`, call: func(ctx context.Context, c *Client) error {
		_, err := c.GetServer(ctx, "s-1")

		return err
	}},
	"PUT": {status: http.StatusAccepted, body: `{"metadata":{"id":"s-1"}}`, call: func(ctx context.Context, c *Client) error {
		_, err := c.UpdateServer(ctx, "s-1", ServerUpdate{Metadata: WriteMetadata{Name: "web"}, Spec: ServerSpec{FlavorID: "f"}})

		return err
	}},
	"DELETE": {status: http.StatusAccepted, call: func(ctx context.Context, c *Client) error {
		return c.DeleteServer(ctx, "s-1")
	}},
}

func TestIdempotentRequestsAreRetried(t *testing.T) {
	t.Parallel()

	for method, op := range idempotentCalls {
		for name, fail := range failures {
			t.Run(method+" after "+name, func(t *testing.T) {
				t.Parallel()

				server := &flaky{failures: 2, fail: fail, status: op.status, body: op.body}
				client := newTestClient(t, server)

				require.NoError(t, op.call(t.Context(), client))

				seen := server.requests()
				require.Len(t, seen, 3)
				assert.Equal(t, seen[0], seen[2], "every attempt must carry the same body")
			})
		}
	}
}

func TestPostIsNeverRetried(t *testing.T) {
	t.Parallel()

	posts := map[string]func(context.Context, *Client) error{
		"create": func(ctx context.Context, c *Client) error {
			_, err := c.CreateServer(ctx, ServerCreate{Metadata: WriteMetadata{Name: "web"}})

			return err
		},
		"start": func(ctx context.Context, c *Client) error { return c.StartServer(ctx, "s-1") },
	}

	for name, post := range posts {
		for failureName, fail := range failures {
			t.Run(name+" after "+failureName, func(t *testing.T) {
				t.Parallel()

				server := &flaky{failures: 1, fail: fail, status: http.StatusCreated, body: `{}`}
				client := newTestClient(t, server)

				require.Error(t, post(t.Context(), client))
				assert.Len(t, server.requests(), 1)
			})
		}
	}
}

func TestOtherErrorsAreNotRetried(t *testing.T) {
	t.Parallel()

	for _, status := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusInternalServerError} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()

			server := &flaky{failures: 1, fail: failWith(status), status: http.StatusOK, body: `{}`}
			client := newTestClient(t, server)

			_, err := client.GetServer(t.Context(), "s-1")

			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, status, apiErr.StatusCode)
			assert.Len(t, server.requests(), 1)
		})
	}
}

func TestGivesUpAfterMaxAttemptsWithTheLastError(t *testing.T) {
	t.Parallel()

	handler := &countingHandler{}
	handler.handler = func(w http.ResponseWriter, r *http.Request) {
		answer(http.StatusServiceUnavailable, fmt.Sprintf(`{"error":"server_error","error_description":"attempt %d"}`, handler.requests()))(w, r)
	}

	client := newTestClient(t, handler)

	err := client.DeleteServer(t.Context(), "s-1")

	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.Equal(t, fmt.Sprintf("attempt %d", testRetry.MaxAttempts), apiErr.Description)
	assert.Equal(t, testRetry.MaxAttempts, handler.requests())
}

func TestConnectionRefusedIsRetried(t *testing.T) {
	t.Parallel()

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)

	endpoint := "http://" + listener.Addr().String()
	require.NoError(t, listener.Close())

	transport := &countingTransport{base: http.DefaultTransport}
	client := newTestClientFor(t, endpoint, endpoint, func(c *Config) { c.HTTPClient = &http.Client{Transport: transport} })

	_, err = client.ListOrganizations(t.Context())

	require.ErrorContains(t, err, "GET /api/v1/organizations: ")
	require.ErrorContains(t, err, "connection refused")
	assert.Equal(t, testRetry.MaxAttempts, transport.requests())
}

func TestAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()

	server := &flaky{failures: 1, fail: func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, status: http.StatusOK, body: `[]`}
	client := newTestClient(t, server, func(c *Config) { c.RequestTimeout = 50 * time.Millisecond })

	_, err := client.ListProjects(t.Context(), "o-1")

	require.NoError(t, err)
	assert.Len(t, server.requests(), 2)
}

func TestAttemptTimeoutMessage(t *testing.T) {
	t.Parallel()

	hang := func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	client := newTestClient(t, http.HandlerFunc(hang), func(c *Config) {
		c.RequestTimeout = 20 * time.Millisecond
		c.Retry.MaxAttempts = 1
	})

	_, err := client.GetQuotas(t.Context(), "o-1")

	require.EqualError(t, err, "GET /api/v1/organizations/o-1/quotas: no answer within 20ms")
}

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		server := &flaky{failures: 1, status: http.StatusOK, body: `{"metadata":{"id":"s-1"}}`, fail: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			failWith(http.StatusTooManyRequests)(w, r)
		}}
		client := newBubbleClient(t, server)

		start := time.Now()
		_, err := client.GetServer(t.Context(), "s-1")

		require.NoError(t, err)
		assert.GreaterOrEqual(t, time.Since(start), time.Second, "the backoff alone is a few milliseconds")
		assert.Len(t, server.requests(), 2)
	})
}

// A wait for a Retry-After longer than the caller's deadline ends at the deadline.
// In a bubble, the time it took is exact whatever the machine's load.
func TestCancellationStopsTheWait(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		server := &flaky{failures: 1, status: http.StatusOK, body: `{}`, fail: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "30")
			failWith(http.StatusServiceUnavailable)(w, r)
		}}
		client := newBubbleClient(t, server)

		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()

		start := time.Now()
		_, err := client.GetServer(ctx, "s-1")

		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.True(t, hasStatus(err, http.StatusServiceUnavailable), "the last answer stays visible: %v", err)
		assert.Equal(t, 50*time.Millisecond, time.Since(start), "the wait ends at the deadline, not after the Retry-After")
		assert.Len(t, server.requests(), 1)
	})
}

func TestBackoffStaysWithinBounds(t *testing.T) {
	t.Parallel()

	policy := RetryPolicy{MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second}

	for retry := 1; retry <= 10; retry++ {
		ceiling := min(policy.MaxBackoff, policy.MinBackoff<<retry)

		for range 200 {
			wait := policy.backoff(retry)
			require.GreaterOrEqual(t, wait, policy.MinBackoff)
			require.LessOrEqual(t, wait, ceiling, "retry %d", retry)
		}
	}

	// Full jitter: the first retry's waits are spread over their whole range.
	seen := map[bool]bool{}
	for range 200 {
		seen[policy.backoff(1) > 150*time.Millisecond] = true
	}

	assert.Len(t, seen, 2)
}

func TestRetryAfterIsCapped(t *testing.T) {
	t.Parallel()

	policy := RetryPolicy{MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}

	assert.Equal(t, 3*time.Second, policy.wait(&APIError{RetryAfter: 3 * time.Second}, 1))
	assert.Equal(t, maxRetryAfter, policy.wait(&APIError{RetryAfter: time.Hour}, 1))
	assert.LessOrEqual(t, policy.wait(&APIError{}, 1), 2*time.Millisecond)
}

// A dropped connection reaches the retry decision as a retryable connection error.
func TestDroppedConnectionIsAConnectionError(t *testing.T) {
	t.Parallel()

	server := httptest.NewServer(http.HandlerFunc(dropConnection))
	t.Cleanup(server.Close)

	client := newTestClientFor(t, server.URL, server.URL, func(c *Config) { c.Retry.MaxAttempts = 1 })

	_, err := client.GetNetwork(t.Context(), "n-1")

	var connErr *connectionError
	require.ErrorAs(t, err, &connErr)
	assert.True(t, connErr.retryable())
	assert.Equal(t, "GET /api/v2/networks/n-1: EOF", err.Error())
}
