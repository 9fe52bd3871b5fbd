package unikorn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is an answer of the API that is not the success the contract promises for
// the operation, usually a core `error` body.
type APIError struct {
	StatusCode int
	// Code is the body's `error` (e.g. "not_found"); empty when the body was not one.
	Code string
	// Description is the body's `error_description`, or the start of a body that was
	// not an error document (an HTML page from a proxy, say).
	Description string
	TraceID     string
	Method      string
	Path        string
	// RetryAfter is how long the server asked us to wait (Retry-After), zero if it did not.
	RetryAfter time.Duration
}

// Error reads like `POST /api/v2/servers: 409 conflict: the requested resource already exists`.
func (e *APIError) Error() string {
	var b strings.Builder

	fmt.Fprintf(&b, "%s %s: %d ", e.Method, e.Path, e.StatusCode)

	if e.Code != "" {
		b.WriteString(e.Code)
	} else {
		b.WriteString(strings.ToLower(http.StatusText(e.StatusCode)))
	}

	if e.Description != "" {
		b.WriteString(": ")
		b.WriteString(e.Description)
	}

	if e.TraceID != "" {
		fmt.Fprintf(&b, " (trace ID %s)", e.TraceID)
	}

	return b.String()
}

// Missing is the 404 of a read that a service answers only by a list (it has no read
// of one object), as if the service had answered it: what the list at path lacks,
// described.
func Missing(path, description string) *APIError {
	return &APIError{StatusCode: http.StatusNotFound, Code: ErrorNotFound, Method: http.MethodGet, Path: path, Description: description}
}

// IsNotFound reports whether err is an API answer of 404 Not Found.
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// IsConflict reports whether err is an API answer of 409 Conflict.
func IsConflict(err error) bool { return hasStatus(err, http.StatusConflict) }

// IsForbidden reports whether err is an API answer of 403 Forbidden (RBAC, quota, in use).
func IsForbidden(err error) bool { return hasStatus(err, http.StatusForbidden) }

// IsUnauthorized reports whether err is an API answer of 401 Unauthorized.
func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }

// IsUnprocessable reports whether err is an API answer of 422 Unprocessable Content.
func IsUnprocessable(err error) bool { return hasStatus(err, http.StatusUnprocessableEntity) }

// IsBadRequest reports whether err is an API answer of 400 Bad Request.
func IsBadRequest(err error) bool { return hasStatus(err, http.StatusBadRequest) }

// hasStatus looks at the HTTP status rather than the error code: the status is what
// every service and proxy sets, the body is not always there.
func hasStatus(err error, status int) bool {
	var apiErr *APIError

	return errors.As(err, &apiErr) && apiErr.StatusCode == status
}

// maxErrorSnippet bounds how much of a body that is not an error document ends up in
// an error message: enough to recognize a proxy's page, not enough to flood the user.
const maxErrorSnippet = 200

// newAPIError decodes an unexpected response; body is what was read of it.
func newAPIError(method, path string, resp *http.Response, body []byte, want int) *APIError {
	apiErr := &APIError{
		StatusCode: resp.StatusCode,
		Method:     method,
		Path:       path,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}

	var decoded ErrorBody
	if json.Unmarshal(body, &decoded) == nil && decoded.Error != "" {
		apiErr.Code = decoded.Error
		apiErr.Description = decoded.ErrorDescription
		apiErr.TraceID = decoded.TraceID

		return apiErr
	}

	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		apiErr.Description = fmt.Sprintf("unexpected success status, the API promises %d %s", want, http.StatusText(want))
	default:
		apiErr.Description = snippet(body)
	}

	return apiErr
}

// snippet turns the start of an arbitrary body into one readable line.
func snippet(body []byte) string {
	truncated := len(body) > maxErrorSnippet
	if truncated {
		body = body[:maxErrorSnippet]
		// Do not cut a multi-byte character in half.
		for len(body) > 0 && !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
	}

	text := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "?")), " ")
	if truncated && text != "" {
		text += "…"
	}

	return text
}

// parseRetryAfter reads a Retry-After header, delta-seconds or an HTTP date
// (RFC 9110 section 10.2.3). Anything unreadable, or a date in the past, means zero.
func parseRetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}

	if seconds, err := strconv.ParseInt(value, 10, 64); err == nil {
		if seconds <= 0 {
			return 0
		}

		// Cap before multiplying so that an absurd value cannot overflow into a negative wait.
		return time.Duration(min(seconds, math.MaxInt64/int64(time.Second))) * time.Second
	}

	if at, err := http.ParseTime(value); err == nil && at.After(now) {
		return at.Sub(now)
	}

	return 0
}
