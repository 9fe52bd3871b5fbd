package diagnostic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAPIErrorKeepsTheAnswerAndAdvisesByStatus(t *testing.T) {
	t.Parallel()

	tests := map[int]string{
		http.StatusUnauthorized:        "token was not accepted",
		http.StatusForbidden:           "not allowed",
		http.StatusNotFound:            "does not exist or is not visible",
		http.StatusConflict:            "already exists",
		http.StatusBadRequest:          "rejected the values",
		http.StatusUnprocessableEntity: "rejected the values",
		http.StatusTooManyRequests:     "Try again later",
		http.StatusServiceUnavailable:  "Try again later",
	}

	for status, advice := range tests {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()

			apiErr := &unikorn.APIError{
				StatusCode: status, Code: "some_code", Description: "what the server said",
				TraceID: "abc123", Method: http.MethodGet, Path: "/api/v1/things",
			}

			// Wrapped, as the client's callers usually return it.
			d := diagnostic.APIError("Unable to list things", fmt.Errorf("listing: %w", apiErr))

			assert.Equal(t, diag.SeverityError, d.Severity())
			assert.Equal(t, "Unable to list things", d.Summary())
			assert.Contains(t, d.Detail(), fmt.Sprintf("GET /api/v1/things: %d some_code: what the server said", status))
			assert.Contains(t, d.Detail(), "abc123")
			assert.Contains(t, d.Detail(), advice)
		})
	}
}

func TestAPIErrorAdvisesOnTransportFailures(t *testing.T) {
	t.Parallel()

	d := diagnostic.APIError("Unable to list things", errors.New("dial tcp 127.0.0.1:1: connection refused"))
	assert.Contains(t, d.Detail(), "connection refused")
	assert.Contains(t, d.Detail(), "could not be reached")

	d = diagnostic.APIError("Unable to list things", fmt.Errorf("get: %w", context.DeadlineExceeded))
	assert.Contains(t, d.Detail(), "request_timeout")
}

func TestAttributeErrorPointsAtTheAttribute(t *testing.T) {
	t.Parallel()

	d := diagnostic.AttributeError(path.Root("token"), "Missing token", "No token was given.", "Set it.")

	withPath, ok := d.(diag.DiagnosticWithPath)
	require.True(t, ok)
	assert.Equal(t, path.Root("token"), withPath.Path())
	assert.Equal(t, "No token was given.\n\nSet it.", d.Detail())
}
