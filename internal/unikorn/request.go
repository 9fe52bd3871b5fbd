package unikorn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// operation is one API call as the contract defines it: everything needed to send it,
// and to send it again.
type operation struct {
	method string
	// service is whom the operation is sent to, at base; base is "" when the
	// client has no endpoint for it.
	service services.Service
	base    string
	// path is already escaped; it names the operation in errors and logs.
	path  string
	query url.Values
	body  any
	// want is the one success status the contract promises; any other is an error.
	want int
	// secret is an answer of raw octets that must never reach a log (a kubeconfig).
	secret bool
}

// op describes an operation on service. path is a format whose %s verbs receive ids,
// each escaped as one path segment.
func (c *Client) op(service services.Service, method string, want int, path string, ids ...string) operation {
	return operation{method: method, service: service, base: c.bases[service], path: escapePath(path, ids), want: want}
}

func escapePath(format string, ids []string) string {
	escaped := make([]any, len(ids))
	for i, id := range ids {
		escaped[i] = url.PathEscape(id)
	}

	return fmt.Sprintf(format, escaped...)
}

func (op operation) withQuery(query url.Values) operation {
	op.query = query

	return op
}

// secretOctets marks op's answer as raw octets that are secret: it is asked for as
// such, and never logged.
func (op operation) secretOctets() operation {
	op.secret = true

	return op
}

func (op operation) withBody(body any) operation {
	op.body = body

	return op
}

// callObject performs op and decodes its single-object answer.
func callObject[T any](ctx context.Context, c *Client, op operation) (*T, error) {
	body, err := c.send(ctx, op)
	if err != nil {
		return nil, err
	}

	return decodeObject[T](op, body)
}

// decodeObject decodes the single-object answer to op, which must not be null.
func decodeObject[T any](op operation, body []byte) (*T, error) {
	var out *T
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, op.decodeError(err)
	}

	if out == nil {
		return nil, op.decodeError(errors.New("the answer is null"))
	}

	return out, nil
}

// callList performs op and decodes its array answer.
func callList[T any](ctx context.Context, c *Client, op operation) ([]T, error) {
	body, err := c.send(ctx, op)
	if err != nil {
		return nil, err
	}

	return decodeList[T](op, body)
}

// decodeList decodes the array answer to op. Region answers `null` instead of `[]`
// for some empty results; both decode to an empty list.
func decodeList[T any](op operation, body []byte) ([]T, error) {
	var out []T
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, op.decodeError(err)
	}

	return out, nil
}

// call performs op, whose answer carries nothing the caller needs.
func call(ctx context.Context, c *Client, op operation) error {
	_, err := c.send(ctx, op)

	return err
}

func (op operation) pathWithQuery() string {
	if len(op.query) == 0 {
		return op.path
	}

	return op.path + "?" + op.query.Encode()
}

func (op operation) decodeError(err error) error {
	return fmt.Errorf("%s %s: decoding the answer: %w", op.method, op.path, err)
}

// send performs op with retries and returns the body of its successful answer.
func (c *Client) send(ctx context.Context, op operation) ([]byte, error) {
	if op.base == "" {
		return nil, fmt.Errorf("%s %s: %w", op.method, op.path, NoEndpointError{Service: op.service.Name()})
	}

	if op.method != http.MethodGet {
		defer c.beginWrite(ctx)()
	}

	var payload []byte

	if op.body != nil {
		var err error
		// Encoded once: every attempt replays the same bytes.
		if payload, err = json.Marshal(op.body); err != nil {
			return nil, fmt.Errorf("%s %s: encoding the request: %w", op.method, op.path, err)
		}
	}

	attempts := 1
	if idempotent(op.method) {
		attempts = c.retry.MaxAttempts
	}

	for attempt := 1; ; attempt++ {
		body, err := c.attempt(ctx, op, payload, attempt)
		if err == nil {
			return body, nil
		}

		if attempt >= attempts || !retryable(ctx, err) {
			return nil, err
		}

		wait := c.retry.wait(err, attempt)
		c.logRetry(ctx, op, attempt, wait, err)

		if waitErr := sleep(ctx, wait); waitErr != nil {
			return nil, fmt.Errorf("%w while waiting to retry; last attempt: %w", waitErr, err)
		}
	}
}

// attempt sends op once, bounded by the per-attempt timeout, and reads the whole
// answer before that timeout ends.
func (c *Client) attempt(ctx context.Context, op operation, payload []byte, attempt int) ([]byte, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}

	req, err := http.NewRequestWithContext(attemptCtx, op.method, op.base+op.pathWithQuery(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", op.method, op.path, err)
	}

	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if op.secret {
		req.Header.Set("Accept", "application/octet-stream")
	}

	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	c.logRequest(ctx, op, payload, attempt)

	start := time.Now()

	resp, err := c.httpClient.Do(req)
	if err != nil {
		connErr := c.connectionError(ctx, attemptCtx, op, err)
		c.logAttempt(ctx, op, attempt, 0, time.Since(start), connErr)

		return nil, connErr
	}

	defer resp.Body.Close()

	respBody, err := io.ReadAll(resp.Body)
	if err != nil {
		connErr := c.connectionError(ctx, attemptCtx, op, err)
		c.logAttempt(ctx, op, attempt, resp.StatusCode, time.Since(start), connErr)

		return nil, connErr
	}

	c.logAttempt(ctx, op, attempt, resp.StatusCode, time.Since(start), nil)
	c.logResponse(ctx, op, respBody, attempt)

	if resp.StatusCode != op.want {
		return nil, newAPIError(op.method, op.path, resp, respBody, op.want)
	}

	return respBody, nil
}

// connectionError tells a per-attempt timeout apart from the caller's own deadline or
// cancellation: only the former is ours to retry.
func (c *Client) connectionError(ctx, attemptCtx context.Context, op operation, err error) *connectionError {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		// The URL repeats the endpoint and query; the operation already names the call.
		err = urlErr.Err
	}

	connErr := &connectionError{method: op.method, path: op.path, err: err}
	if ctx.Err() == nil && errors.Is(attemptCtx.Err(), context.DeadlineExceeded) {
		connErr.timeout = c.timeout
	}

	return connErr
}
