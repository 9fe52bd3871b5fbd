package faults_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
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

// phase is a step of a life: one Terraform command, run until it succeeds.
type phase string

const (
	phaseCreate phase = "create"
	phaseUpdate phase = "update"
	phaseDelete phase = "delete"
)

var phases = []phase{phaseCreate, phaseUpdate, phaseDelete}

// life is one subject's life in a sandbox of its own, through the Terraform CLI.
type life struct {
	t       *testing.T
	subject subject
	env     *acctest.Environment
	cli     *acctest.CLI
	gateway *gateway
	// failures are what the failed runs of the last converge printed, succeeded what
	// its successful run did.
	failures  []string
	succeeded string
}

func newLife(t *testing.T, subject subject) *life {
	t.Helper()

	env := acctest.New(t, append([]acctest.Option{acctest.Production(t)}, subject.options...)...)
	env.SkipUnlessSandbox(t)
	env.Settings.RequestTimeout = requestTimeout

	// Terraform reaches every service of the sandbox through a gateway that can lose
	// answers.
	g := newGateway(t, env.Settings.Endpoints[services.Region])

	for _, service := range services.All() {
		if env.Settings.Endpoints[service] != "" {
			env.Settings.Endpoints[service] = g.URL() + service.SandboxPrefix()
		}
	}

	return &life{t: t, subject: subject, env: env, cli: env.CLI(t, subject.config(env, phaseCreate)), gateway: g}
}

// addFault installs f at the given occurrence of route.
func (l *life) addFault(f fault, route string, occurrence int) {
	if f.after {
		l.gateway.add(f, route, occurrence)

		return
	}

	l.env.AddFault(l.t, f.rule(route, occurrence))
}

func (l *life) clearFaults() {
	l.env.ClearFaults(l.t)
	l.gateway.clear()
}

// settleLostCharges handles the one loss the provider cannot repair: identity charged
// an allocation whose answer was lost, and, having no list, cannot show it again. The
// failed run must have said so, naming what was charged for; then the allocation is
// released as an operator would, and the number released is returned.
func (l *life) settleLostCharges() int {
	l.t.Helper()

	lost := l.gateway.takeLostAllocations()
	if len(lost) == 0 {
		return 0
	}

	require.NotNil(l.t, l.subject.chargedFor, "%s charged identity itself", l.subject.name)
	require.Contains(l.t, strings.Join(strings.Fields(strings.Join(l.failures, "\n")), " "),
		"quota may have been charged for "+l.subject.chargedFor(l.env), "a lost charge is reported")

	for _, allocationID := range lost {
		require.NoError(l.t, l.env.Client.DeleteAllocation(context.Background(),
			l.env.Settings.OrganizationID, l.env.Settings.ProjectID, allocationID))
	}

	return len(lost)
}

// converge runs the phase's command until it succeeds and returns how many runs
// that took.
func (l *life) converge(p phase) int {
	l.t.Helper()

	args := []string{"apply", "-auto-approve", "-input=false"}
	if p == phaseDelete {
		args[0] = "destroy"
	} else {
		l.cli.WriteConfig(l.env.ProviderConfig() + l.subject.config(l.env, p))
	}

	l.failures, l.succeeded = nil, ""

	for run := 1; run <= maxRuns; run++ {
		output, err := l.cli.Try(args...)
		if err == nil {
			l.succeeded = output

			return run
		}

		l.failures = append(l.failures, output)
	}

	l.t.Fatalf("%s did not succeed in %d runs; the last said:\n%s", p, maxRuns, l.failures[len(l.failures)-1])

	return 0
}

// requireAgreement proves that, after the phase, state and cloud agree and nothing
// leaked, as the subject says.
func (l *life) requireAgreement(p phase) {
	l.t.Helper()

	l.subject.agree(l, p)
}

// requirePlanEmpty proves that a plan finds nothing to change: what state holds is
// what the cloud has, and what the configuration asks for.
func (l *life) requirePlanEmpty(p phase) {
	l.t.Helper()

	output, err := l.cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(l.t, err, "state and cloud disagree after %s:\n%s", p, output)
}

// requireNothingReplaced proves that a create or update, however often it failed,
// never deleted what the life made: no fault costs a user their instance or their
// load balancer. A phase that asks for a replacement deletes by design; that it made
// no more than one is the subject's agreement to prove.
func (l *life) requireNothingReplaced(p phase) {
	l.t.Helper()

	if p == phaseDelete || p == l.subject.replacedIn {
		return
	}

	stats := l.env.Stats(l.t)
	for _, route := range l.subject.replaceRoutes {
		require.Zero(l.t, stats.Routes[route]+stats.Internal[route], "%s replaced what it made (%s); the failed runs said:\n%s",
			p, route, strings.Join(l.failures, "\n---\n"))
	}
}

// requireOneCharged proves the agreement of a subject that is one object charged to
// one allocation of kind: after a delete, none of the objects the sandbox holds
// (records), no allocation and nothing at address in state; otherwise an empty plan,
// exactly one object, the one in state at address, and exactly its allocation, which
// it returns (nil after a delete).
func requireOneCharged[R any](l *life, p phase, noun, address string, records []R, id func(*R) string, kind string) *unikorn.Allocation {
	l.t.Helper()

	allocations := l.allocationsOf(kind)

	if p == phaseDelete {
		require.Empty(l.t, records, "no %s left", noun)
		require.Empty(l.t, allocations, "no leaked allocation")
		require.NotContains(l.t, l.cli.Run("state", "list"), address, "nothing left in state")

		return nil
	}

	l.requirePlanEmpty(p)

	require.Len(l.t, records, 1, "exactly the %s in state", noun)
	require.Contains(l.t, l.cli.Run("state", "show", address), id(&records[0]), "the one in state")
	require.Len(l.t, allocations, 1, "exactly the %s's allocation", noun)
	require.Equal(l.t, id(&records[0]), allocations[0].Spec.ID)

	return &allocations[0]
}

// allocationsOf returns the allocations of kind in every project.
func (l *life) allocationsOf(kind string) []unikorn.Allocation {
	return slices.DeleteFunc(l.env.Allocations(l.t), func(a unikorn.Allocation) bool {
		return a.Spec.Kind != kind
	})
}

// fired counts the faults the sandbox has injected under its current rules.
func (l *life) fired() int {
	l.t.Helper()

	request, err := http.NewRequestWithContext(context.Background(), http.MethodGet,
		l.env.Settings.Endpoints[services.Region]+"/sandbox/v1/faults", nil)
	require.NoError(l.t, err)
	request.Header.Set("Authorization", "Bearer "+l.env.Settings.Token)

	response, err := http.DefaultClient.Do(request)
	require.NoError(l.t, err)

	defer response.Body.Close()

	var rules []struct {
		Fired int `json:"fired"`
	}

	require.Equal(l.t, http.StatusOK, response.StatusCode)
	require.NoError(l.t, json.NewDecoder(response.Body).Decode(&rules))

	fired := l.gateway.fired()
	for _, rule := range rules {
		fired += rule.Fired
	}

	return fired
}

// cleanRoutes lives clean lives and returns, per phase, how often each route was
// requested: the requests the fault tests fail one by one. Polls vary with timing, so
// a route counts as often as it was requested in the least busy of two lives.
func cleanRoutes(t *testing.T, subject subject) map[phase]map[string]int {
	t.Helper()

	routes := map[phase]map[string]int{}

	for range 2 {
		l := newLife(t, subject)

		for _, p := range phases {
			l.env.ResetStats(t)
			require.Equal(t, 1, l.converge(p), "a clean %s succeeds at once", p)

			seen := l.env.Stats(t).Routes
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
