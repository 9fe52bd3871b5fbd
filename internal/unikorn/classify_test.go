package unikorn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answered is what the client makes of a service's error answer of status and body.
func answered(status int, body string) error {
	resp := &http.Response{StatusCode: status, Header: http.Header{}}

	return newAPIError(http.MethodPost, "/api/v2/networks", resp, []byte(body), http.StatusCreated)
}

// The bodies are those the services answer: uni-core's error document with
// uni-identity's RBAC and allocation wording, which region and compute relay as it is.
func TestClassifyAnswers(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Failure
	}{
		{
			name: "RBAC, project not accessible",
			err: answered(http.StatusForbidden, `{"error":"forbidden","error_description":"operation is not allowed by rbac: `+
				`operation 'create' on endpoint 'region:networks:v2' — project is not in this principal's accessible set","trace_id":"ab12"}`),
			want: Failure{Class: ClassRBAC, Status: 403, Method: "POST", Path: "/api/v2/networks", Operation: "create",
				Endpoint: "region:networks:v2", Why: "project is not in this principal's accessible set"},
		},
		{
			name: "RBAC, not permitted",
			err: answered(http.StatusForbidden, `{"error":"forbidden","error_description":"operation is not allowed by rbac: `+
				`operation 'create' on endpoint 'identity:groups' is not permitted"}`),
			want: Failure{Class: ClassRBAC, Status: 403, Method: "POST", Path: "/api/v2/networks", Operation: "create",
				Endpoint: "identity:groups", Why: "is not permitted"},
		},
		{
			name: "a 403 that names no operation",
			err:  answered(http.StatusForbidden, `{"error":"forbidden","error_description":"requested role cannot be granted"}`),
			want: Failure{Class: ClassRBAC, Status: 403, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "quota",
			err: answered(http.StatusForbidden, `{"error":"forbidden","error_description":"total networks allocation of 2 `+
				`would exceed quota limit of 1"}`),
			want: Failure{Class: ClassQuota, Status: 403, Method: "POST", Path: "/api/v2/networks", Quota: "networks",
				Why: "total networks allocation of 2 would exceed quota limit of 1"},
		},
		{
			name: "in use",
			err:  answered(http.StatusForbidden, `{"error":"forbidden","error_description":"network is in use and cannot be deleted"}`),
			want: Failure{Class: ClassInUse, Status: 403, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "unauthorized",
			err:  answered(http.StatusUnauthorized, `{"error":"access_denied","error_description":"authentication failed"}`),
			want: Failure{Class: ClassUnauthorized, Status: 401, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "not found",
			err:  answered(http.StatusNotFound, `{"error":"not_found","error_description":"resource not found"}`),
			want: Failure{Class: ClassNotFound, Status: 404, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "conflict",
			err:  answered(http.StatusConflict, `{"error":"conflict","error_description":"the requested resource already exists"}`),
			want: Failure{Class: ClassConflict, Status: 409, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "bad request",
			err:  answered(http.StatusBadRequest, `{"error":"invalid_request","error_description":"request body has an error"}`),
			want: Failure{Class: ClassValidation, Status: 400, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "unprocessable",
			err:  answered(http.StatusUnprocessableEntity, `{"error":"unprocessable_content","error_description":"prefix overlaps"}`),
			want: Failure{Class: ClassValidation, Status: 422, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "overloaded",
			err:  answered(http.StatusTooManyRequests, `slow down`),
			want: Failure{Class: ClassOverloaded, Status: 429, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "failing",
			err:  answered(http.StatusBadGateway, `<html>bad gateway</html>`),
			want: Failure{Class: ClassOverloaded, Status: 502, Method: "POST", Path: "/api/v2/networks"},
		},
		{
			name: "wrapped by the façade",
			err: fmt.Errorf("creating the network: %w", answered(http.StatusForbidden,
				`{"error":"forbidden","error_description":"total networks allocation of 6 would exceed quota limit of 5"}`)),
			want: Failure{Class: ClassQuota, Status: 403, Method: "POST", Path: "/api/v2/networks", Quota: "networks",
				Why: "total networks allocation of 6 would exceed quota limit of 5"},
		},
		{
			name: "a condition of the caller's own",
			err:  errors.New("service account 1 was not put in the groups [2]"),
			want: Failure{Class: ClassOther},
		},
		{
			name: "an unconfigured endpoint",
			err:  fmt.Errorf("GET /x: %w", ErrNoComputeEndpoint),
			want: Failure{Class: ClassUnconfigured},
		},
		{
			name: "a wait that ran out",
			err:  fmt.Errorf("waiting: %w", context.DeadlineExceeded),
			want: Failure{Class: ClassTimeout},
		},
		{
			name: "DNS",
			err:  &connectionError{method: "GET", path: "/p", err: &net.DNSError{Err: "no such host", Name: "region.invalid", IsNotFound: true}},
			want: Failure{Class: ClassUnreachable, Method: "GET", Path: "/p"},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Classify(tt.err))
		})
	}
}

// The failures of a connection are told apart from those of a real client's requests.
func TestClassifyConnections(t *testing.T) {
	ctx := context.Background()

	t.Run("refused", func(t *testing.T) {
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		url := "http://" + listener.Addr().String() + "/"
		require.NoError(t, listener.Close())

		_, err = newTestClientFor(t, url, url).GetNetwork(ctx, "n")
		assert.Equal(t, ClassUnreachable, Classify(err).Class, "%v", err)
	})

	t.Run("TLS", func(t *testing.T) {
		server := httptest.NewTLSServer(http.NotFoundHandler())
		t.Cleanup(server.Close)

		_, err := newTestClientFor(t, server.URL+"/", server.URL).GetNetwork(ctx, "n")
		assert.Equal(t, ClassUnreachable, Classify(err).Class, "%v", err)
	})

	t.Run("dropped", func(t *testing.T) {
		client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			hijacker, ok := w.(http.Hijacker)
			if !ok {
				return
			}

			if conn, _, err := hijacker.Hijack(); err == nil {
				_ = conn.Close()
			}
		}))

		_, err := client.GetNetwork(ctx, "n")
		assert.Equal(t, ClassDropped, Classify(err).Class, "%v", err)
	})

	t.Run("timeout", func(t *testing.T) {
		client := newTestClient(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }),
			func(cfg *Config) { cfg.RequestTimeout = 50e6; cfg.Retry.MaxAttempts = 1 })

		_, err := client.GetNetwork(ctx, "n")
		assert.Equal(t, ClassTimeout, Classify(err).Class, "%v", err)
	})
}
