package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const (
	// The provider gives up on an attempt after requestTimeout; a slow fault answers
	// after faultDelay, too late.
	requestTimeout = "2s"
	faultDelay     = "3s"

	// maxRuns bounds how often one command is run before the system counts as stuck:
	// every fault fires once, so a second run should already succeed.
	maxRuns = 5
)

// fault is one kind of failure: the sandbox injects it instead of acting on the
// request, or, after, a gateway loses the answer once the sandbox has acted.
type fault struct {
	name   string
	status int // 0 drops the connection
	delay  string
	after  bool
}

var faults = []fault{
	{name: "500", status: http.StatusInternalServerError},
	{name: "503", status: http.StatusServiceUnavailable},
	{name: "429", status: http.StatusTooManyRequests},
	{name: "dropped", status: 0},
	{name: "timeout", status: 0, delay: faultDelay},
	{name: "lost-dropped", status: 0, after: true},
	{name: "lost-502", status: http.StatusBadGateway, after: true},
	{name: "lost-504", status: http.StatusGatewayTimeout, after: true},
	{name: "lost-timeout", status: 0, delay: faultDelay, after: true},
}

// faultsFor returns the kinds of fault that route can meet: losing the answer to a
// read teaches nothing a failed read does not, so answers are lost only to writes.
func faultsFor(route string, after bool) []fault {
	var kinds []fault

	for _, f := range faults {
		if f.after == after && (!after || !strings.HasPrefix(route, http.MethodGet+" ")) {
			kinds = append(kinds, f)
		}
	}

	return kinds
}

// rule is the fault f at the request that is the given occurrence of route (a stats
// key such as "GET /api/v2/servers") from now on.
func (f fault) rule(route string, occurrence int) sandbox.FaultRule {
	method, template, _ := strings.Cut(route, " ")

	return sandbox.FaultRule{Method: method, Route: template, Status: f.status, Delay: f.delay, After: occurrence, Count: 1}
}

// phase is a step of an instance's life: one Terraform command, run until it succeeds.
type phase string

const (
	phaseCreate phase = "create"
	phaseUpdate phase = "update"
	phaseDelete phase = "delete"
)

var phases = []phase{phaseCreate, phaseUpdate, phaseDelete}

// subject is what the fault tests drive through create, update and delete while the
// sandbox fails one request at a time: an instance's life, or an identity stack's.
type subject interface {
	// environment is the subject's sandbox.
	environment() *acctest.Environment
	// addFault installs f at the given occurrence of route; clearFaults removes them.
	addFault(f fault, route string, occurrence int)
	clearFaults()
	// fired counts the faults injected under the current rules.
	fired() int
	// converge runs the phase's command until it succeeds and returns how many runs
	// that took.
	converge(p phase) int
	// requireNothingReplaced proves that a create or update never deleted anything.
	requireNothingReplaced(p phase)
	// settleLostCharges handles what the provider cannot repair (see life's) and
	// returns how many it handled.
	settleLostCharges() int
	// requireAgreement proves that state and cloud agree after the phase, and that
	// nothing leaked.
	requireAgreement(p phase)
	// failed is what the failed runs of the last converge printed.
	failed() string
}

var (
	_ subject = (*life)(nil)
	_ subject = (*identityLife)(nil)
)

// life is one instance's life in a sandbox of its own, through the Terraform CLI.
type life struct {
	t       *testing.T
	backend acctest.Backend
	env     *acctest.Environment
	cli     *acctest.CLI
	gateway *gateway
	// failures are what the failed runs of the last converge printed.
	failures []string
}

func newLife(t *testing.T, backend acctest.Backend) *life {
	t.Helper()

	env := acctest.New(t, acctest.Production(t), acctest.WithBackend(backend))
	env.SkipUnlessSandbox(t)
	env.Settings.RequestTimeout = requestTimeout

	// Terraform reaches the sandbox through a gateway that can lose answers.
	g := newGateway(t, env.Settings.RegionEndpoint)
	env.Settings.RegionEndpoint, env.Settings.IdentityEndpoint = g.URL(), g.URL()

	if env.Settings.ComputeEndpoint != "" {
		env.Settings.ComputeEndpoint = g.URL() + sandbox.ComputePrefix
	}

	return &life{t: t, backend: backend, env: env, cli: env.CLI(t, instanceConfig(env, phaseCreate)), gateway: g}
}

func (l *life) environment() *acctest.Environment { return l.env }

func (l *life) failed() string { return strings.Join(l.failures, "\n---\n") }

// addFault installs f at the given occurrence of route.
func (l *life) addFault(f fault, route string, occurrence int) {
	addFault(l.t, l.env, l.gateway, f, route, occurrence)
}

func (l *life) clearFaults() {
	l.env.ClearFaults(l.t)
	l.gateway.clear()
}

// addFault installs f at the given occurrence of route: in the sandbox, or, for an
// answer lost after the sandbox acted, in the gateway.
func addFault(t *testing.T, env *acctest.Environment, g *gateway, f fault, route string, occurrence int) {
	t.Helper()

	if f.after {
		g.add(f, route, occurrence)

		return
	}

	env.AddFault(t, f.rule(route, occurrence))
}

// settleLostCharges handles the one loss the provider cannot repair: identity charged
// an allocation whose answer was lost, and, having no list, cannot show it again. The
// failed run must have said so, naming the instance; then the allocation is released
// as an operator would, and the number released is returned.
func (l *life) settleLostCharges() int {
	l.t.Helper()

	lost := l.gateway.takeLostAllocations()
	if len(lost) == 0 {
		return 0
	}

	id, err := unikorn.DeriveServerID(l.env.NetworkID, "web")
	require.NoError(l.t, err)
	require.Contains(l.t, strings.Join(strings.Fields(strings.Join(l.failures, "\n")), " "),
		"quota may have been charged for instance "+id, "a lost charge is reported")

	for _, allocationID := range lost {
		require.NoError(l.t, l.env.Client.DeleteAllocation(context.Background(),
			l.env.Settings.OrganizationID, l.env.Settings.ProjectID, allocationID))
	}

	return len(lost)
}

// instanceConfig is the instance as the phase wants it. The update changes
// everything that changes in place, so that it moves quota and reads a security group.
func instanceConfig(env *acctest.Environment, p phase) string {
	description, team, publicIP, groups := "first", "a", "false", "[]"
	if p != phaseCreate {
		description, team, publicIP, groups = "second", "b", "true", acctest.Quote(sandbox.SecurityGroupAllowSSHID)
		groups = "[" + groups + "]"
	}

	return fmt.Sprintf(`
resource "unikorn_compute_instance" "test" {
  name               = "web"
  network_id         = %s
  flavor_id          = %s
  image_id           = %s
  description        = %q
  tags               = { team = %q }
  public_ip          = %s
  security_group_ids = %s
}
`, acctest.Quote(env.NetworkID), acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID), description, team, publicIP, groups)
}

// converge runs the phase's command until it succeeds and returns how many runs
// that took.
func (l *life) converge(p phase) int {
	l.t.Helper()

	args := []string{"apply", "-auto-approve", "-input=false"}
	if p == phaseDelete {
		args[0] = "destroy"
	} else {
		l.cli.WriteConfig(l.env.ProviderConfig() + instanceConfig(l.env, p))
	}

	l.failures = nil

	for run := 1; run <= maxRuns; run++ {
		output, err := l.cli.Try(args...)
		if err == nil {
			return run
		}

		l.failures = append(l.failures, output)
	}

	l.t.Fatalf("%s did not succeed in %d runs; the last said:\n%s", p, maxRuns, l.failures[len(l.failures)-1])

	return 0
}

// requireAgreement proves that, after the phase, state and cloud agree and nothing
// leaked: one server and one allocation for the instance in state, or none at all
// after a delete.
func (l *life) requireAgreement(p phase) {
	l.t.Helper()

	allocations := l.instanceAllocations()

	id, err := unikorn.DeriveServerID(l.env.NetworkID, "web")
	require.NoError(l.t, err)

	if p == phaseDelete {
		// Lists may go on showing a deleted server for the read lag; the sandbox's own
		// records say whether it is gone.
		require.Empty(l.t, l.env.InstanceServers(l.t, id), "no orphan server")
		require.Empty(l.t, allocations, "no leaked allocation")
		require.NotContains(l.t, l.cli.Run("state", "list"), "unikorn_compute_instance.", "nothing left in state")

		return
	}

	// A plan finds nothing to change: what state holds is what the cloud has, and
	// what the configuration asks for.
	output, err := l.cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(l.t, err, "state and cloud disagree after %s:\n%s", p, output)

	servers := l.env.Servers(l.t, unikorn.ServerQuery{})
	require.Len(l.t, servers, 1, "exactly the instance's server")

	tag, _ := servers[0].Metadata.Tags.Get(compute.InstanceIDTag)
	require.Equal(l.t, id, tag)

	require.Len(l.t, allocations, 1, "exactly the instance's allocation; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))
	require.Equal(l.t, id, allocations[0].Spec.ID)

	// Compute keeps the allocation's ID in its own record of the instance; region's
	// saga has only the server to keep it on.
	if l.backend == acctest.RegionBackend {
		allocationTag, _ := servers[0].Metadata.Tags.Get(compute.AllocationIDTag)
		require.Equal(l.t, allocations[0].Metadata.ID, allocationTag, "the server names its allocation")
	}
}

// deleteRoutes are the requests that delete an instance or the server behind it,
// whoever sends them: the provider, or compute on its own account.
var deleteRoutes = []string{
	"DELETE /api/v2/servers/{serverID}",
	"DELETE " + sandbox.ComputePrefix + "/api/v2/instances/{instanceID}",
}

// requireNothingReplaced proves that a create or update, however often it failed,
// never deleted an instance or its server: no fault costs a user their instance.
func (l *life) requireNothingReplaced(p phase) {
	l.t.Helper()

	if p == phaseDelete {
		return
	}

	stats := l.env.Stats(l.t)
	for _, route := range deleteRoutes {
		require.Zero(l.t, stats.Routes[route]+stats.Internal[route], "%s replaced the instance (%s)", p, route)
	}
}

func (l *life) instanceAllocations() []unikorn.Allocation {
	return slices.DeleteFunc(l.env.Allocations(l.t), func(a unikorn.Allocation) bool {
		return a.Spec.Kind != compute.AllocationKind
	})
}

// fired counts the faults the sandbox has injected under its current rules.
func (l *life) fired() int {
	return fired(l.t, l.env.Settings.RegionEndpoint, l.env.Settings.Token, l.gateway)
}

// fired counts the faults the sandbox at endpoint (reached with a token that may use
// its control API) and the gateway have injected under their current rules.
func fired(t *testing.T, endpoint, token string, g *gateway) int {
	t.Helper()

	request, err := http.NewRequestWithContext(context.Background(), http.MethodGet, endpoint+"/sandbox/v1/faults", nil)
	require.NoError(t, err)
	request.Header.Set("Authorization", "Bearer "+token)

	response, err := http.DefaultClient.Do(request)
	require.NoError(t, err)

	defer response.Body.Close()

	var rules []struct {
		Fired int `json:"fired"`
	}

	require.Equal(t, http.StatusOK, response.StatusCode)
	require.NoError(t, json.NewDecoder(response.Body).Decode(&rules))

	count := g.fired()
	for _, rule := range rules {
		count += rule.Fired
	}

	return count
}

// cleanRoutes lives clean lives and returns, per phase, how often each route was
// requested: the requests the fault tests fail one by one. Polls vary with timing, so
// a route counts as often as it was requested in the least busy of two lives.
func cleanRoutes(t *testing.T, newSubject func(*testing.T) subject) map[phase]map[string]int {
	t.Helper()

	routes := map[phase]map[string]int{}

	for range 2 {
		l := newSubject(t)
		env := l.environment()

		for _, p := range phases {
			env.ResetStats(t)
			require.Equal(t, 1, l.converge(p), "a clean %s succeeds at once", p)

			seen := env.Stats(t).Routes
			if routes[p] == nil {
				routes[p] = seen

				continue
			}

			for route, count := range routes[p] {
				routes[p][route] = min(count, seen[route])
			}
		}
	}

	return routes
}

// sortedRoutes returns the routes of a phase in a stable order.
func sortedRoutes(routes map[string]int) []string {
	return slices.Sorted(maps.Keys(routes))
}
