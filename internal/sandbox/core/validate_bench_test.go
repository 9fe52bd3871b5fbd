package core

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
)

// anyone takes every token for a caller with no rights.
type anyone struct{}

func (anyone) Plausible(string) bool { return true }

func (anyone) Resolve(*Store, string, time.Time) (*Caller, bool, error) {
	return &Caller{ACL: NewACL()}, true, nil
}

// contractServer is a server of region's and compute's routes that answer nothing, for
// what checking a request against its operation's contract costs.
func contractServer(tb testing.TB) *Server {
	tb.Helper()

	nothing := func(*Request) (*Reply, error) { return NoContent(), nil }

	s, err := New(Options{}, []Family{{Name: "contracts", Register: func(s *Server) error {
		s.Authenticate(anyone{})
		s.Declare(Service{Name: "identity", Document: openapi.Identity})
		s.Declare(Service{Name: "region", Document: openapi.Region, Prefix: "/region", Owns: func(path string) bool {
			return strings.HasPrefix(path, "/api/v2/")
		}})
		s.Handle("GET /api/v2/servers/{serverID}", nothing)
		s.Handle("GET /api/v2/regions/{regionID}/images", nothing)
		s.Handle("POST /api/v2/networks", nothing)
		s.OnOpen(func() error {
			s.Declare(Service{
				Name: "compute", Document: openapi.Compute, Prefix: "/compute",
				Handler: http.NotFoundHandler(), Patterns: []string{"GET /api/v2/instances/{instanceID}"},
			})

			return nil
		})

		return nil
	}}})
	require.NoError(tb, err)

	return s
}

// BenchmarkContractCheck is what checking a request against its operation's contract
// adds to it: the route's operation is cached, so this is the validation itself.
func BenchmarkContractCheck(b *testing.B) {
	s := contractServer(b)
	id := "f0000000-0000-4000-8000-000000000010"
	network := `{"metadata":{"name":"bench"},"spec":{"organizationId":"a0000000-0000-4000-8000-000000000001",` +
		`"projectId":"a0000000-0000-4000-8000-000000000002","regionId":"b0000000-0000-4000-8000-000000000001",` +
		`"prefix":"10.9.0.0/24","dnsNameservers":[]}}`

	for _, call := range []struct{ name, method, path, body string }{
		{"region-get-by-id", http.MethodGet, "/api/v2/servers/" + id, ""},
		{"region-list-query", http.MethodGet, "/api/v2/regions/b0000000-0000-4000-8000-000000000001/images?scope=available", ""},
		{"compute-get-by-id", http.MethodGet, "/compute/api/v2/instances/" + id, ""},
		{"region-create-body", http.MethodPost, "/api/v2/networks", network},
	} {
		b.Run(call.name, func(b *testing.B) {
			r := httptest.NewRequest(call.method, call.path, nil)
			r.Header.Set("Authorization", "Bearer token")

			if call.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}

			_, pattern := s.api.Handler(r)
			w := httptest.NewRecorder()

			for b.Loop() {
				// As a server gives it: no body at all for a request without one.
				r.Body = http.NoBody
				if call.body != "" {
					r.Body = io.NopCloser(strings.NewReader(call.body))
				}

				if s.refuseInvalid(w, r, pattern) {
					b.Fatalf("%s %s refused: %s", call.method, call.path, w.Body)
				}
			}
		})
	}
}
