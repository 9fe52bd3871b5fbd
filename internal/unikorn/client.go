// Package unikorn is the HTTP client of the Unikorn region, identity and compute APIs: typed
// bodies from the OpenAPI contract, bearer authentication, error decoding, retries of
// idempotent calls and masked request logging.
package unikorn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// NoEndpointError is the error of a call to a service the client was configured
// without an endpoint for; nothing was sent.
type NoEndpointError struct {
	// Service is the service's name: "identity".
	Service string
}

func (e NoEndpointError) Error() string {
	return "no " + e.Service + " endpoint is configured"
}

// ErrNoIdentityEndpoint is the error of an identity call on a client configured
// without an identity endpoint: only the region instance back end calls identity.
var ErrNoIdentityEndpoint error = NoEndpointError{Service: services.Identity.Name()}

// ErrNoComputeEndpoint is the error of a compute call on a client configured without
// a compute endpoint.
var ErrNoComputeEndpoint error = NoEndpointError{Service: services.Compute.Name()}

// IsUnconfigured reports whether err says the client lacks the endpoint a call needs,
// which no retry cures.
func IsUnconfigured(err error) bool {
	var unset NoEndpointError

	return errors.As(err, &unset)
}

// DefaultRequestTimeout bounds one attempt of a request when Config.RequestTimeout is zero.
const DefaultRequestTimeout = 60 * time.Second

// defaultUserAgent identifies the client when Config.UserAgent is empty.
const defaultUserAgent = "terraform-provider-unikorn"

// Config says where the APIs are and how to reach them.
type Config struct {
	// Endpoints are the services' base URLs, e.g. https://region.example.com, which
	// may carry a path prefix, e.g. https://example.com/compute; a trailing slash is
	// ignored. Only the services the declaration requires must have one: a call to
	// another without one fails with a NoEndpointError, and nothing is sent.
	Endpoints services.Endpoints
	// Token is sent as the bearer token of every request.
	Token string
	// UserAgent names the caller, e.g. "terraform-provider-unikorn/1.2.3".
	UserAgent string
	// HTTPClient, when set, sends every attempt as it is; CACertificate and Insecure
	// are then the caller's business, because its transport owns TLS.
	HTTPClient *http.Client
	// CACertificate is an optional PEM bundle trusted in addition to the system pool.
	CACertificate string
	// Insecure skips TLS certificate verification.
	Insecure bool
	// RequestTimeout bounds each attempt; zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Retry shapes the retries of idempotent requests; the zero value means defaults.
	Retry RetryPolicy
	// Logger receives the client's log lines; nil logs nothing.
	Logger Logger
	// OmitBodies keeps request and response bodies (the LogTrace lines) from Logger,
	// for a caller whose logs are off: masking a body is a pass over it, and the
	// answer to a list of a thousand instances is a megabyte.
	OmitBodies bool
}

// Client calls the region, identity and compute APIs. It is safe for concurrent use and keeps
// connections alive across calls, so one Client should serve a whole provider.
type Client struct {
	httpClient *http.Client
	// bases are the services' endpoints without a trailing slash; "" where unset.
	bases     services.Endpoints
	token     string
	userAgent string
	timeout   time.Duration
	retry     RetryPolicy
	logger    Logger
	bodies    bool
	writes    writeLog
}

// writeLog records the writes a client sends, and which objects they concern (see
// Concerning), so that a read sent earlier can be told to still show everything the
// client wrote to one object.
type writeLog struct {
	mu sync.Mutex
	// events counts the beginnings and ends of writes.
	events WriteMark
	// byObject holds the writes per object they concern; the key "" holds those sent
	// without naming one, which may concern anything.
	byObject map[string]*objectWrites
}

// objectWrites is what a client has written to one object.
type objectWrites struct {
	inFlight int
	// last is the event of the last write's beginning or end.
	last WriteMark
}

// WriteMark is a moment in what a client has written: the number of writes (any
// request but a GET) it has begun and ended by then.
type WriteMark uint64

// concerningKey carries, in a request's context, the object its write concerns.
type concerningKey struct{}

// Concerning names, for the writes sent with the returned context, the one object
// they change (an instance, by its ID), so that reads of other objects are told
// nothing new was written to them (see WrittenSince). Writes sent without it may
// concern any object.
func Concerning(ctx context.Context, objectID string) context.Context {
	return context.WithValue(ctx, concerningKey{}, objectID)
}

// WriteMarkOf returns the client's mark now. (A function, not a method: the client's
// methods are the API's calls.)
func WriteMarkOf(c *Client) WriteMark {
	c.writes.mu.Lock()
	defer c.writes.mu.Unlock()

	return c.writes.events
}

// WrittenSince reports whether the client may have written to objectID since mark: a
// write concerning it, or naming no object, began or ended since, or is still in
// flight. A read sent at mark shows every write to objectID the client made until
// this answers true: each was answered before it was sent.
func WrittenSince(c *Client, mark WriteMark, objectID string) bool {
	c.writes.mu.Lock()
	defer c.writes.mu.Unlock()

	for _, key := range []string{"", objectID} {
		if w, ok := c.writes.byObject[key]; ok && (w.inFlight > 0 || w.last > mark) {
			return true
		}
	}

	return false
}

// beginWrite records a write being sent and returns what records its end.
func (c *Client) beginWrite(ctx context.Context) func() {
	objectID, _ := ctx.Value(concerningKey{}).(string)

	c.writes.mu.Lock()
	defer c.writes.mu.Unlock()

	if c.writes.byObject == nil {
		c.writes.byObject = map[string]*objectWrites{}
	}

	w, ok := c.writes.byObject[objectID]
	if !ok {
		w = &objectWrites{}
		c.writes.byObject[objectID] = w
	}

	c.writes.events++
	w.inFlight++
	w.last = c.writes.events

	return func() {
		c.writes.mu.Lock()
		defer c.writes.mu.Unlock()

		c.writes.events++
		w.inFlight--
		w.last = c.writes.events
	}
}

// NewClient validates cfg and returns a client for it.
func NewClient(cfg Config) (*Client, error) {
	var bases services.Endpoints

	for _, service := range services.All() {
		endpoint := cfg.Endpoints[service]
		if endpoint == "" && !service.Required() {
			continue
		}

		base, err := baseURL(service.Name(), endpoint)
		if err != nil {
			return nil, err
		}

		bases[service] = base
	}

	if cfg.Token == "" {
		return nil, errors.New("an API token is required")
	}

	if cfg.RequestTimeout < 0 {
		return nil, fmt.Errorf("request timeout %s is negative", cfg.RequestTimeout)
	}

	retry, err := cfg.Retry.withDefaults()
	if err != nil {
		return nil, err
	}

	httpClient := cfg.HTTPClient
	if httpClient == nil {
		if httpClient, err = newHTTPClient(cfg.CACertificate, cfg.Insecure); err != nil {
			return nil, err
		}
	}

	c := &Client{
		httpClient: httpClient,
		bases:      bases,
		token:      cfg.Token,
		userAgent:  cfg.UserAgent,
		timeout:    cfg.RequestTimeout,
		retry:      retry,
		logger:     cfg.Logger,
		bodies:     cfg.Logger != nil && !cfg.OmitBodies,
	}

	if c.userAgent == "" {
		c.userAgent = defaultUserAgent
	}

	if c.timeout == 0 {
		c.timeout = DefaultRequestTimeout
	}

	return c, nil
}

// baseURL checks that endpoint is an absolute HTTP(S) URL and drops a trailing slash,
// so that paths can simply be appended.
func baseURL(service, endpoint string) (string, error) {
	if endpoint == "" {
		return "", fmt.Errorf("the %s endpoint is required", service)
	}

	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("the %s endpoint %q is not a URL: %w", service, endpoint, err)
	}

	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("the %s endpoint %q must be an absolute http or https URL", service, endpoint)
	}

	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("the %s endpoint %q must not carry a query or fragment", service, endpoint)
	}

	return strings.TrimRight(endpoint, "/"), nil
}

// maxIdleConnsPerHost is well above the standard library's 2 because Terraform runs
// many resources in parallel against the same two hosts; with only 2 idle connections
// kept, every burst would pay for new TCP and TLS handshakes.
const maxIdleConnsPerHost = 32

func newHTTPClient(caCertificate string, insecure bool) (*http.Client, error) {
	defaultTransport, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return nil, errors.New("http.DefaultTransport has been replaced, so the client needs an explicit HTTP client")
	}

	// The clone keeps the standard proxy, dial and HTTP/2 settings.
	transport := defaultTransport.Clone()
	transport.MaxIdleConns = 2 * maxIdleConnsPerHost
	transport.MaxIdleConnsPerHost = maxIdleConnsPerHost

	tlsConfig := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: insecure, //nolint:gosec // An explicit user choice, off by default.
	}

	if caCertificate != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}

		if !pool.AppendCertsFromPEM([]byte(caCertificate)) {
			return nil, errors.New("the CA certificate bundle contains no PEM certificate")
		}

		tlsConfig.RootCAs = pool
	}

	transport.TLSClientConfig = tlsConfig

	// No Client.Timeout: each attempt gets its own deadline through its context, so a
	// retry is not cut short by the time earlier attempts used.
	return &http.Client{Transport: transport}, nil
}
