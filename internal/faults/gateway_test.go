package faults_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// allocationsRoute is identity's allocation create, whose lost answer cannot be undone.
const allocationsRoute = "POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations"

// gateway stands between Terraform and the sandbox as real Unikorn's gateways do: it
// can lose an answer after the sandbox has acted on the request, by dropping the
// connection, answering 502 or 504 instead, or holding the answer past the provider's
// request timeout.
type gateway struct {
	t        *testing.T
	upstream string
	server   *httptest.Server

	mu    sync.Mutex
	rules []*lostAnswer
	// lostAllocations are the IDs of allocations whose creation was answered to nobody.
	lostAllocations []string
}

// lostAnswer is one rule: the answer to the request that is occurrence after of
// route (a stats key such as "PUT /api/v2/servers/{serverID}") is lost the way f says.
type lostAnswer struct {
	method   string
	template []string
	after    int
	f        fault
	seen     int
	fired    int
}

func newGateway(t *testing.T, upstream string) *gateway {
	t.Helper()

	g := &gateway{t: t, upstream: upstream}
	g.server = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.server.Close)

	return g
}

func (g *gateway) URL() string { return g.server.URL }

func (g *gateway) add(f fault, route string, occurrence int) {
	method, template, _ := strings.Cut(route, " ")

	g.mu.Lock()
	defer g.mu.Unlock()

	g.rules = append(g.rules, &lostAnswer{method: method, template: strings.Split(template, "/"), after: occurrence, f: f})
}

func (g *gateway) clear() {
	g.mu.Lock()
	defer g.mu.Unlock()

	g.rules = nil
}

func (g *gateway) fired() int {
	g.mu.Lock()
	defer g.mu.Unlock()

	fired := 0
	for _, rule := range g.rules {
		fired += rule.fired
	}

	return fired
}

// takeLostAllocations returns, and forgets, the allocations created unanswered.
func (g *gateway) takeLostAllocations() []string {
	g.mu.Lock()
	defer g.mu.Unlock()

	lost := g.lostAllocations
	g.lostAllocations = nil

	return lost
}

// match returns the rule that loses the answer to r, counting r against every rule
// of its route.
func (g *gateway) match(r *http.Request) (*lostAnswer, string) {
	g.mu.Lock()
	defer g.mu.Unlock()

	segments := strings.Split(r.URL.Path, "/")

	var hit *lostAnswer

	route := ""

	for _, rule := range g.rules {
		if rule.method != r.Method || !sameShape(rule.template, segments) {
			continue
		}

		route = rule.method + " " + strings.Join(rule.template, "/")

		if rule.seen == rule.after && rule.fired == 0 && hit == nil {
			rule.fired++
			hit = rule
		}

		rule.seen++
	}

	return hit, route
}

// sameShape reports whether path segments fit a route template's.
func sameShape(template, segments []string) bool {
	if len(template) != len(segments) {
		return false
	}

	for i := range template {
		if !strings.HasPrefix(template[i], "{") && template[i] != segments[i] {
			return false
		}
	}

	return true
}

func (g *gateway) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	require.NoError(g.t, err)

	forward, err := http.NewRequestWithContext(r.Context(), r.Method, g.upstream+r.URL.RequestURI(), bytes.NewReader(body))
	require.NoError(g.t, err)

	forward.Header = r.Header.Clone()

	response, err := http.DefaultTransport.RoundTrip(forward)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)

		return
	}

	defer response.Body.Close()

	answer, err := io.ReadAll(response.Body)
	require.NoError(g.t, err)

	rule, route := g.match(r)
	if rule == nil {
		for name, values := range response.Header {
			w.Header()[name] = values
		}

		w.WriteHeader(response.StatusCode)
		_, _ = w.Write(answer)

		return
	}

	// The sandbox has acted; from here on its answer is lost.
	if route == allocationsRoute && response.StatusCode == http.StatusCreated {
		var created struct {
			Metadata struct {
				ID string `json:"id"`
			} `json:"metadata"`
		}

		require.NoError(g.t, json.Unmarshal(answer, &created))

		g.mu.Lock()
		g.lostAllocations = append(g.lostAllocations, created.Metadata.ID)
		g.mu.Unlock()
	}

	if rule.f.delay != "" {
		delay, err := time.ParseDuration(rule.f.delay)
		require.NoError(g.t, err)

		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		}
	}

	if rule.f.status != 0 {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(rule.f.status)
		_, _ = io.WriteString(w, "<html>gateway error</html>")

		return
	}

	conn, _, err := http.NewResponseController(w).Hijack()
	require.NoError(g.t, err)
	require.NoError(g.t, conn.Close())
}
