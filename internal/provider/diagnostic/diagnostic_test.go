package diagnostic_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAPIErrorKeepsTheAnswerAndAdvisesByStatus(t *testing.T) {
	t.Parallel()

	tests := map[int]string{
		http.StatusUnauthorized:        "token was not accepted",
		http.StatusForbidden:           "lacks the right",
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

// refused is the client's error for a request to a port nothing listens on.
func refused(t *testing.T) error {
	t.Helper()

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)

	endpoint := "http://" + listener.Addr().String()
	require.NoError(t, listener.Close())

	client, err := unikorn.NewClient(unikorn.Config{Endpoints: services.Endpoints{services.Region: endpoint, services.Identity: endpoint}, Token: "t",
		Retry: unikorn.RetryPolicy{MaxAttempts: 1}})
	require.NoError(t, err)

	_, err = client.GetNetwork(t.Context(), "n")
	require.Error(t, err)

	return err
}

func TestAPIErrorAdvisesOnTransportFailures(t *testing.T) {
	t.Parallel()

	d := diagnostic.APIError("Unable to list things", fmt.Errorf("listing: %w", refused(t)))
	assert.Contains(t, d.Detail(), "connection refused")
	assert.Contains(t, d.Detail(), "could not be reached")

	d = diagnostic.APIError("Unable to list things", fmt.Errorf("get: %w", context.DeadlineExceeded))
	assert.Contains(t, d.Detail(), "request_timeout")
}

// Only a request that got no answer is advised about endpoints and TLS, only a 403
// whose body says quota about quota, and an RBAC refusal names the right.
func TestAPIErrorBlamesTheRealCause(t *testing.T) {
	t.Parallel()

	forbidden := func(description string) error {
		return fmt.Errorf("creating: %w", &unikorn.APIError{StatusCode: http.StatusForbidden, Code: "forbidden",
			Description: description, Method: http.MethodPost, Path: "/api/v2/networks"})
	}

	tests := map[string]struct {
		err     error
		want    []string
		wantNot []string
	}{
		"a condition the façade found is no network failure": {
			err:     errors.New("service account s was not put in the groups [g]: identity ignores group IDs that name no group"),
			want:    []string{"ignores group IDs"},
			wantNot: []string{"could not be reached", "region_endpoint", "TLS"},
		},
		"RBAC names the right and says nothing of quota": {
			err: forbidden("operation is not allowed by rbac: operation 'create' on endpoint 'region:networks:v2' — " +
				"project is not in this principal's accessible set"),
			want:    []string{"lacks the right to create `region:networks:v2`", "group that the project names"},
			wantNot: []string{"quota", "could not be reached"},
		},
		"a 403 naming no operation is still no quota": {
			err:     forbidden("requested role cannot be granted"),
			want:    []string{"lacks the right to do this"},
			wantNot: []string{"quota"},
		},
		"quota names the quota": {
			err:     forbidden("total networks allocation of 2 would exceed quota limit of 1"),
			want:    []string{"`networks` quota would be exceeded", "raise the `networks` quota"},
			wantNot: []string{"lacks the right"},
		},
		"in use says what to do": {
			err:     forbidden("network is in use and cannot be deleted"),
			want:    []string{"Something still uses the object"},
			wantNot: []string{"quota", "lacks the right"},
		},
		"an unconfigured endpoint names the setting": {
			err:     fmt.Errorf("GET /api/v2/instances: %w", unikorn.ErrNoComputeEndpoint),
			want:    []string{"compute_endpoint"},
			wantNot: []string{"could not be reached"},
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			detail := diagnostic.APIError("Unable to do it", test.err).Detail()
			for _, want := range test.want {
				assert.Contains(t, detail, want)
			}

			for _, wantNot := range test.wantNot {
				assert.NotContains(t, detail, wantNot)
			}
		})
	}
}

func TestAttributeErrorPointsAtTheAttribute(t *testing.T) {
	t.Parallel()

	d := diagnostic.AttributeError(path.Root("token"), "Missing token", "No token was given.", "Set it.")

	withPath, ok := d.(diag.DiagnosticWithPath)
	require.True(t, ok)
	assert.Equal(t, path.Root("token"), withPath.Path())
	assert.Equal(t, "No token was given.\n\nSet it.", d.Detail())
}

// A call to a service the provider was given no endpoint for names the setting of
// every service a provider may be without, as the services' declaration has them.
func TestAnUnconfiguredEndpointNamesEveryOptionalService(t *testing.T) {
	t.Parallel()

	for _, service := range services.All() {
		if service.Required() {
			continue
		}

		diags := diagnostic.Cloud("Unable to do it", fmt.Errorf("GET /x: %w", unikorn.NoEndpointError{Service: service.Name()}))
		require.Len(t, diags, 1)
		assert.Contains(t, diags[0].Detail(), service.Attribute()+" or "+service.EnvVar())
	}
}
