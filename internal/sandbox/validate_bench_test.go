package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkContractCheck is what checking a request against its operation's contract
// adds to it: the route's operation is cached, so this is the validation itself.
func BenchmarkContractCheck(b *testing.B) {
	p := populate(b, 20)

	network, err := json.Marshal(networkCreate("bench", "10.9.0.0/24"))
	require.NoError(b, err)

	for _, call := range []struct{ name, token, method, path, body string }{
		{"region-get-by-id", ServiceToken, http.MethodGet, "/api/v2/servers/" + p.servers[10], ""},
		{"region-list-query", DefaultToken, http.MethodGet, "/api/v2/regions/" + RegionID + "/images?scope=available", ""},
		{"compute-get-by-id", DefaultToken, http.MethodGet, ComputePrefix + "/api/v2/instances/" + p.instances[10], ""},
		{"region-create-body", DefaultToken, http.MethodPost, "/api/v2/networks", string(network)},
	} {
		b.Run(call.name, func(b *testing.B) {
			r := httptest.NewRequest(call.method, call.path, nil)
			r.Header.Set("Authorization", "Bearer "+call.token)

			if call.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}

			_, pattern := p.sb.api.Handler(r)
			w := httptest.NewRecorder()

			for b.Loop() {
				// As a server gives it: no body at all for a request without one.
				r.Body = http.NoBody
				if call.body != "" {
					r.Body = io.NopCloser(strings.NewReader(call.body))
				}

				if p.sb.refuseInvalid(w, r, pattern) {
					b.Fatalf("%s %s refused", call.method, call.path)
				}
			}
		})
	}
}
