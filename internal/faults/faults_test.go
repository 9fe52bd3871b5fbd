package faults_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/bench"
)

// Environment variables of the full run (see the package documentation).
const (
	envFaults = "UNIKORN_FAULTS"
	envReport = "UNIKORN_FAULTS_REPORT"
	envSeed   = "UNIKORN_FAULTS_SEED"
)

func full() bool {
	return os.Getenv(envFaults) == "full"
}

// matrixCase is one fault at one request of one phase.
type matrixCase struct {
	phase      phase
	route      string
	occurrence int
	fault      fault
	// runs is how many runs the phase needed to succeed.
	runs int
	// lostCharges counts allocations charged with their answer lost (see settleLostCharges).
	lostCharges int
}

func (c *matrixCase) String() string {
	return fmt.Sprintf("%s/%s#%d/%s", c.phase, strings.ReplaceAll(c.route, "/", "_"), c.occurrence, c.fault.name)
}

// matrix lists the cases: every request of every phase, by route and occurrence.
// The full matrix fails the first and the last occurrence of each route with every
// kind of fault, and loses the answer to every write with every kind of loss; the
// reduced one does each with one kind, the kinds taken in turn.
func matrix(routes map[phase]map[string]int) []*matrixCase {
	var cases []*matrixCase

	for _, p := range phases {
		for _, route := range sortedRoutes(routes[p]) {
			occurrences := []int{0}
			if count := routes[p][route]; full() && count > 1 {
				occurrences = append(occurrences, count-1)
			}

			for _, occurrence := range occurrences {
				for _, after := range []bool{false, true} {
					kinds := faultsFor(route, after)
					if len(kinds) > 0 && !full() {
						kinds = kinds[len(cases)%len(kinds):][:1]
					}

					for _, f := range kinds {
						cases = append(cases, &matrixCase{phase: p, route: route, occurrence: occurrence, fault: f})
					}
				}
			}
		}
	}

	return cases
}

// forEachSubject runs test once per subject (an instance on each back end, a load
// balancer, …), each in a subtest named after it: all must converge under the same
// faults, each failing its own requests. Every life has a sandbox of its own and
// spends most of its time waiting on it, so the subjects run side by side, and beside
// the package's other tests: a subject added is run in parallel by construction, and
// `go test -parallel` bounds how many lives run at once.
func forEachSubject(t *testing.T, test func(t *testing.T, subject subject)) {
	t.Helper()
	t.Parallel()

	for _, subject := range subjects() {
		t.Run(subject.name, func(t *testing.T) {
			t.Parallel()
			test(t, subject)
		})
	}
}

func TestEveryRequestFailing(t *testing.T) {
	forEachSubject(t, func(t *testing.T, subject subject) {
		routes := cleanRoutes(t, subject)
		cases := matrix(routes)
		start := time.Now()

		t.Run("case", func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.String(), func(t *testing.T) {
					t.Parallel()
					runCase(t, subject, c)
				})
			}
		})

		if t.Failed() {
			return
		}

		summary := summarizeMatrix(subject, cases, time.Since(start))
		t.Log(summary)
		report(t, "faults-matrix-"+subject.name, summary)
	})
}

// runCase lives the subject's life up to the case's phase, fails the phase once with
// the case's fault, and proves it converged; then it deletes what the life made (if
// the phase did not) and proves nothing is left.
func runCase(t *testing.T, subject subject, c *matrixCase) {
	l := newLife(t, subject)

	for _, p := range phases {
		switch {
		case p == c.phase:
			l.env.ResetStats(t)
			l.addFault(c.fault, c.route, c.occurrence)
			runs := l.converge(p)
			l.requireNothingReplaced(p)
			c.lostCharges = l.settleLostCharges()

			switch fired := l.fired(); {
			case fired == 0 && c.occurrence > 0:
				// Polls vary with timing: this life read fewer times than the clean ones.
				t.Skipf("%s requested %s fewer than %d times", p, c.route, c.occurrence+1)
			default:
				require.Equal(t, 1, fired, "the fault was injected")
			}

			c.runs = runs
			t.Logf("%s converged in %d run(s)", p, runs)
			l.clearFaults()

			l.requireAgreement(p)
		case p == phaseDelete || slices.Index(phases, p) < slices.Index(phases, c.phase):
			require.Equal(t, 1, l.converge(p), "%s without a fault; the failed runs said:\n%s", p, strings.Join(l.failures, "\n---\n"))
		}
	}

	if c.phase != phaseDelete {
		l.requireAgreement(phaseDelete)
	}
}

func summarizeMatrix(subject subject, cases []*matrixCase, took time.Duration) string {
	runs := map[int]int{}
	slots := map[string]bool{}
	lostCharges := 0

	for _, c := range cases {
		if c.runs == 0 {
			continue // skipped: the request it would have failed never came
		}

		runs[c.runs]++
		lostCharges += c.lostCharges
		slots[fmt.Sprintf("%s %s#%d", c.phase, c.route, c.occurrence)] = true
	}

	var b strings.Builder

	cased := 0
	for _, n := range runs {
		cased += n
	}

	fmt.Fprintf(&b, "Fault matrix (`%s`, %s): %d cases, %d requests of create, update and delete × %s, in %s.\n",
		matrixCommand(), subject.what, cased, len(slots), faultNames(), took.Round(time.Second))
	fmt.Fprintf(&b, "Each converged with "+subject.kept+", "+
		"and a state that agrees with the sandbox, except that %d allocation(s) charged with the answer lost "+
		"(identity has no list) were reported by the error and released by hand; "+
		"runs of the faulted command until it succeeded:", lostCharges)

	for n := 1; n <= maxRuns; n++ {
		if runs[n] > 0 {
			fmt.Fprintf(&b, " %d× %d run(s);", runs[n], n)
		}
	}

	return strings.TrimSuffix(b.String(), ";") + ".\n"
}

func matrixCommand() string {
	if full() {
		return "make faults"
	}

	return "make test, reduced"
}

func faultNames() string {
	if !full() {
		return "one fault each, in turn " + strings.Join(names(), ", ")
	}

	return "every fault (" + strings.Join(names(), ", ") + ")"
}

func names() []string {
	var names []string
	for _, f := range faults {
		names = append(names, f.name)
	}

	return names
}

// faultProbability is the chance that a route of a phase gets a fault in the
// randomized run.
const faultProbability = 0.1

// randomCounts are what a randomized run did.
type randomCounts struct {
	iterations int
	drawn      int // faults installed
	fired      int // faults the sandbox injected
	lost       int // allocations charged with the answer lost, reported and released by hand
	commands   int // Terraform commands run to converge, failed ones included
	minimum    int // the commands a run without faults needs
}

func (c *randomCounts) add(other randomCounts) {
	c.iterations += other.iterations
	c.drawn += other.drawn
	c.fired += other.fired
	c.lost += other.lost
	c.commands += other.commands
	c.minimum += other.minimum
}

// A randomized run: in every phase of every iteration, each route the phase calls
// gets, with probability faultProbability, a fault of a random kind at a random
// occurrence. The faults drawn follow from the seed alone; which of them fire at a
// poll depends on timing.
func TestRandomFaults(t *testing.T) {
	iterations, shards := 6, 2
	if full() {
		iterations, shards = 200, 4
	}

	seed := uint64(20261121)

	if value := os.Getenv(envSeed); value != "" {
		parsed, err := strconv.ParseUint(value, 10, 64)
		require.NoError(t, err, envSeed)

		seed = parsed
	}

	forEachSubject(t, func(t *testing.T, subject subject) {
		routes := cleanRoutes(t, subject)
		start := time.Now()

		var (
			mu    sync.Mutex
			total randomCounts
		)

		t.Run("shard", func(t *testing.T) {
			for shard := range shards {
				t.Run(strconv.Itoa(shard), func(t *testing.T) {
					t.Parallel()

					counts := randomShard(t, subject, routes, rand.New(rand.NewPCG(seed, uint64(shard))), iterations/shards) //nolint:gosec // a reproducible simulation

					mu.Lock()
					total.add(counts)
					mu.Unlock()
				})
			}
		})

		if t.Failed() {
			return
		}

		summary := fmt.Sprintf("Randomized run (`%s`, %s, seed %d, %.0f%% per route and phase): %d iterations of create, update and delete, "+
			"%d faults drawn, %d fired; %d Terraform commands where %d would do without faults; "+
			subject.kept+" (besides %d allocation(s) charged with the answer lost, reported and released by hand), "+
			"state and sandbox agreeing after every phase; %s.\n",
			matrixCommand(), subject.what, seed, faultProbability*100, total.iterations, total.drawn, total.fired,
			total.commands, total.minimum, total.lost, time.Since(start).Round(time.Second))
		t.Log(summary)
		report(t, "faults-random-"+subject.name, summary)
	})
}

func randomShard(t *testing.T, subject subject, routes map[phase]map[string]int, rng *rand.Rand, iterations int) randomCounts {
	l := newLife(t, subject)
	counts := randomCounts{iterations: iterations}

	for range iterations {
		for _, p := range phases {
			for _, route := range sortedRoutes(routes[p]) {
				// Three draws per route, whatever the outcome, so that the faults of
				// later routes do not depend on how often this one is requested.
				hit, kind, where := rng.Float64(), rng.IntN(len(faults)), rng.Float64()
				if hit >= faultProbability {
					continue
				}

				// A read cannot lose its answer after acting; it fails before instead.
				f := faults[kind]
				if kinds := faultsFor(route, f.after); len(kinds) == 0 {
					f = faultsFor(route, false)[kind%len(faultsFor(route, false))]
				}

				l.addFault(f, route, int(where*float64(routes[p][route])))
				counts.drawn++
			}

			l.env.ResetStats(t)
			counts.commands += l.converge(p)
			l.requireNothingReplaced(p)
			counts.lost += l.settleLostCharges()
			counts.minimum++
			counts.fired += l.fired()
			l.clearFaults()

			l.requireAgreement(p)
		}
	}

	return counts
}

// reporting serializes the reports: the subjects run in parallel, and each report
// reads the file, replaces its section and writes the file whole.
var reporting sync.Mutex

// report records a summary in the section of that name of the file UNIKORN_FAULTS_REPORT names.
func report(t *testing.T, section, summary string) {
	t.Helper()

	if path := os.Getenv(envReport); path != "" {
		reporting.Lock()
		defer reporting.Unlock()

		require.NoError(t, bench.UpdateSection(path, section, summary))
	}
}
