package bench

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// minimalRoundTrips are the requests no creation, nor deletion, can do without. On
// region: charge (or release) the quota, create (or delete) the server, and one read
// that sees it ready (or gone). Compute's API keeps the quota itself, so it needs the
// instance's write and the read alone. The catalogue look-ups are left out: they
// happen once per provider process, not once per instance.
func minimalRoundTrips(backend string) int {
	if backend == BackendCompute {
		return 2
	}

	return 3
}

// pollingRoutes are the reads that wait for an instance to become ready, on either
// back end.
var pollingRoutes = []string{
	"GET /api/v2/servers/{serverID}", "GET /api/v2/servers",
	"GET /compute/api/v2/instances/{instanceID}", "GET /compute/api/v2/instances",
}

// Targets the figures are held to.
const (
	// targetInstances is the count most targets are judged at, and scaleInstances the
	// one growth from it is judged at.
	targetInstances = 100
	scaleInstances  = 300

	// The bare configuration's.
	applyBoundFactor       = 1.05
	destroyBoundFactor     = 1.25
	maxRefreshPerInstance  = 0.1
	maxCreatePerInstance   = 6.0
	maxPollingAllowance    = 2.0
	maxReadinessNoticeTime = 500 * time.Millisecond
	maxProviderMemory      = 60 << 20

	// The realistic configuration's: each phase within a factor of its bound, and with
	// at most the requests it cannot do without and a little more for shared look-ups
	// and polls (see maxRequestsPerInstance).
	realisticApplyFactor   = 1.05
	realisticTagsFactor    = 1.10
	realisticDestroyFactor = 1.15
	// lagFloorFactor is how far above the floor that the read lag imposes (LagFloor)
	// a phase that waits for changes may take.
	lagFloorFactor = 1.05

	// smallFloorFactor is how far above the paced floor's own wall time a small
	// configuration's apply or destroy may take (see smallTargets).
	smallFloorFactor = 1.15

	// The walk of many instances: plan and refresh within a factor of the floor
	// provider's, under a memory ceiling; and a read of the sandbox, however many
	// objects it holds, within maxSandboxRead.
	scaleFloorFactor   = 1.5
	maxScaleMemory     = 150 << 20
	maxSandboxRead     = 2 * time.Millisecond
	sandboxReadObjects = 2000
)

// maxRequestsPerInstance is the most requests per instance a phase of the realistic
// configuration may send on backend: the writes and the read no change can do
// without (minimalRoundTrips), and 0.6 more for the shared look-ups and the polls that
// do not see the change; a tag change is a write and a read, and 0.2 more; 0 for a
// phase without a target.
func maxRequestsPerInstance(backend, phase string) float64 {
	switch phase {
	case PhaseApply:
		return float64(minimalRoundTrips(backend)) + 0.6
	case PhaseTags:
		return 2.2
	case PhaseDestroy:
		return float64(minimalRoundTrips(backend)) + 0.5
	case PhaseRefresh:
		return maxRefreshPerInstance
	}

	return 0
}

// waves is how many rounds of parallel work n instances need.
func (r *Report) waves(n int) int {
	return int(math.Ceil(float64(n) / float64(r.Options.Parallelism)))
}

// realisticStages is how many things the realistic configuration makes one after
// another besides its instances: its network; then its security groups and its file
// storage, side by side; and, once the instances exist, the load balancer over them.
const realisticStages = 3

// realisticStage is how long each of the realistic configuration's stages besides its
// instances takes at least: to create, a provisioning and three round trips (a look
// for one of the name, the create, the read that sees it ready); to delete, a
// deprovisioning and two (the delete, the read that sees it gone).
func (r *Report) realisticStage() (create, remove time.Duration) {
	o := r.Options

	return o.ProvisionDelay + 3*o.Latency, o.DeprovisionDelay + 2*o.Latency
}

// mountLater is how much longer than its provisioning the realistic configuration's
// storage stage lasts: until the storage reports its mount on the network, which the
// instances' user data needs.
func (r *Report) mountLater() time.Duration {
	o := r.Options

	return max(0, sandbox.MountDelay(o.ProvisionDelay)-o.ProvisionDelay)
}

// realisticCreation is how long the realistic configuration's stages besides its
// instances take to create at least.
func (r *Report) realisticCreation() time.Duration {
	create, _ := r.realisticStage()

	return realisticStages*create + r.mountLater()
}

// Bound is the least time phase can take for n instances of config: every round of
// parallel creations (or deletions, or updates) waits out the provisioning (or
// deprovisioning) and its own round trips. A destroy runs a refresh first, and so
// does a tag change, which plans as it applies. The realistic configuration makes
// realisticStages things one after another besides its instances (see
// realisticStages and realisticCreation), and deletes them in the reverse order,
// each a deprovisioning and two round trips. A plan has no bound.
func (r *Report) Bound(config Config, phase string, n int) time.Duration {
	if config.Workload == WorkloadPeer {
		// Held to the paced floor walked the same way alone (see smallTargets).
		return 0
	}

	o := r.Options
	waves := func(each time.Duration) time.Duration { return time.Duration(r.waves(n)) * each }
	roundTrips := func(count int) time.Duration { return time.Duration(count) * o.Latency }
	realistic := config.Workload == WorkloadRealistic

	switch phase {
	case PhaseApply:
		bound := waves(o.ProvisionDelay + roundTrips(minimalRoundTrips(config.Backend)))
		if realistic {
			bound += r.realisticCreation()
		}

		return bound
	case PhaseTags:
		return r.Bound(config, PhaseRefresh, n) + waves(o.ProvisionDelay+roundTrips(2))
	case PhaseRefresh:
		return waves(o.Latency)
	case PhaseDestroy:
		bound := r.Bound(config, PhaseRefresh, n) + waves(o.DeprovisionDelay+roundTrips(minimalRoundTrips(config.Backend)))
		if realistic {
			_, remove := r.realisticStage()
			bound += realisticStages * remove
		}

		return bound
	}

	return 0
}

// caches is how many read caches a change on backend passes before a read shows it:
// region's; and on compute, region's (which compute's controller reads) and then
// compute's own.
func caches(backend string) int {
	if backend == BackendCompute {
		return 2
	}

	return 1
}

// lagTrials is how many runs LagFloor's estimate averages; its draws are seeded, so
// that a report always computes the same floor from the same figures.
const lagTrials = 4000

// LagFloor is the expected least time phase can take for n instances of config under
// its read lag: Bound, with each creation, update or deletion seen only once a read
// shows it (shownLate), the slowest of the parallel slots deciding. It is estimated
// over lagTrials seeded runs; the realistic configuration's stages besides its
// instances are seen through region's cache too. Zero for a phase that waits for no
// change.
func (r *Report) LagFloor(config Config, phase string, n int) time.Duration {
	return r.lagFloor(config, phase, n, false)
}

// PolledLagFloor is LagFloor for a reader that learns of a change only by reading, as
// every client of Unikorn's APIs does: none of them offers a watch. Under read lag
// when a change shows is a fresh draw each time, so nothing is learnt of when to read
// for it, and the provider reads on its poll grid: it sees each change on the grid's
// first tick after a read could show it (seenByPoll).
func (r *Report) PolledLagFloor(config Config, phase string, n int) time.Duration {
	return r.lagFloor(config, phase, n, true)
}

func (r *Report) lagFloor(config Config, phase string, n int, polled bool) time.Duration {
	bound := r.Bound(config, phase, n)
	if config.ReadLag <= 0 || (phase != PhaseApply && phase != PhaseTags && phase != PhaseDestroy) {
		return 0
	}

	changes := map[string][]time.Duration{
		PhaseApply:   sandbox.ChangesAfter(sandbox.WriteCreate, r.Options.ProvisionDelay),
		PhaseTags:    sandbox.ChangesAfter(sandbox.WriteUpdate, r.Options.ProvisionDelay),
		PhaseDestroy: sandbox.ChangesAfter(sandbox.WriteDelete, r.Options.DeprovisionDelay),
	}[phase]

	stages := 0
	if config.Workload == WorkloadRealistic && phase != PhaseTags {
		stages = realisticStages
	}

	parallelism := r.Options.Parallelism
	random := rand.New(rand.NewPCG(uint64(n), uint64(config.ReadLag))) //nolint:gosec // an estimate, not a secret

	// The poll's draws come from a stream of their own, so that both floors draw the
	// same lags and differ by what polling adds alone.
	seen := func(bool) time.Duration { return 0 }
	if polled {
		ticks := rand.New(rand.NewPCG(uint64(n), ^uint64(config.ReadLag))) //nolint:gosec // an estimate, not a secret
		seen = func(instance bool) time.Duration { return r.seenByPoll(ticks, phase, instance) }
	}

	var total time.Duration

	for range lagTrials {
		slots := make([]time.Duration, parallelism)

		for i := range n {
			slots[i%parallelism] += shownLate(random, caches(config.Backend), changes, config.ReadLag) + seen(true)
		}

		total += slices.Max(slots)

		for range stages {
			total += shownLate(random, 1, changes, config.ReadLag) + seen(false)
		}
	}

	return bound + total/lagTrials
}

// seenByPoll draws how long after a read could first show a change a reader on the
// poll grid sees it: the wait for the grid's next tick, a draw up to the policy's
// interval (when a change shows under read lag falls anywhere between two ticks; the
// list a tick sends is answered within the round trip the bound counts); and, for an
// instance's deletion, the read of it by ID that confirms the tick's list's miss on
// either back end (a list leaves out what the token may not see, so only a direct
// read says gone).
func (r *Report) seenByPoll(random *rand.Rand, phase string, instance bool) time.Duration {
	seen := time.Duration(random.Int64N(int64(r.PollPolicy.Max)))
	if instance && phase == PhaseDestroy {
		seen += r.Options.Latency
	}

	return seen
}

// shownLate draws how long after the last of an object's changes (made at changes,
// counted from the write) a read first shows it through count caches: region's, and
// on compute then compute's own, which trails the instance from the user's write and
// sees it change again when compute's controller sees region's cache show the end
// (what it projects on the way is left out).
func shownLate(random *rand.Rand, count int, changes []time.Duration, lag time.Duration) time.Duration {
	shown := trail(random, changes, lag)
	for range count - 1 {
		shown = trail(random, []time.Duration{0, shown}, lag)
	}

	return shown - changes[len(changes)-1]
}

// trail draws when one cache first shows the last of an object's changes, each drawn
// up to lag late, under the sandbox's rule (sandbox.LaterShown): a change that comes
// while the cache still trails an earlier one is shown no sooner than that one, and
// within a lag of when the cache began to trail. A deletion of half a second is so
// shown a mean of 1.09 s late through a cache of 2 s, not 1 s.
func trail(random *rand.Rand, changes []time.Duration, lag time.Duration) time.Duration {
	var since, until time.Duration

	for i, at := range changes {
		drawn := at + time.Duration(random.Int64N(int64(lag)+1))

		if i > 0 && until > at {
			until = since + sandbox.LaterShown(until-since, at-since, drawn-since, lag)

			continue
		}

		since, until = at, drawn
	}

	return until
}

// PollingAllowance is the most polling requests per instance the target allows:
// as many as the provisioning lasts in poll intervals at the policy's cap, and two
// more for the read that starts the wait and the one that sees it end.
func (r *Report) PollingAllowance() float64 {
	return float64(r.Options.ProvisionDelay)/float64(r.PollPolicy.Max) + maxPollingAllowance
}

// perInstance divides a count among n instances.
func perInstance(requests, n int) float64 {
	return float64(requests) / float64(n)
}

// polling counts a phase's status reads.
func (p *Phase) polling() int {
	total := 0
	for _, route := range pollingRoutes {
		total += p.Requests.Routes[route]
	}

	return total
}

// NoticeDelays are, for each instance created (p is an apply), updated (a tag change)
// or deleted (a destroy) through backend, the time its change took beyond the
// provisioning or deprovisioning and the writes it needs: an upper bound of how late
// the provider noticed that the instance was ready, or gone.
func (r *Report) NoticeDelays(backend string, p *Phase) []time.Duration {
	took := r.Options.ProvisionDelay
	if p.Name == PhaseDestroy {
		took = r.Options.DeprovisionDelay
	}

	writes := time.Duration(minimalRoundTrips(backend)-1) * r.Options.Latency
	if p.Name == PhaseTags {
		writes = r.Options.Latency
	}

	delays := make([]time.Duration, len(p.Changes))
	for i, d := range p.Changes {
		delays[i] = d - took - writes
	}

	return delays
}

// verdict is one back end's figure for one target; inapplicable when the target does
// not concern that back end.
type verdict struct {
	measured     string
	met          bool
	inapplicable bool
}

// notMeasured is the verdict on a target whose runs were left out.
var notMeasured = verdict{measured: "not measured"}

// target is one line of the targets table: a name, and a verdict per back end.
type target struct {
	name  string
	judge func(backend string) verdict
}

// phaseAt returns the phase of n instances of config, or nil when it was not run.
func (r *Report) phaseAt(config Config, n int, name string) *Phase {
	if series := r.series(config); series != nil {
		if result := series.Result(n); result != nil {
			return result.Phase(name)
		}
	}

	return nil
}

// baseline is the configuration of backend a target of workload is judged in: no
// read lag.
func baseline(workload, backend string) Config {
	return Config{Workload: workload, Backend: backend}
}

// lagged are the series of backend that ran under a read lag, of any workload.
func (r *Report) lagged(backend string) []*Series {
	var lagged []*Series

	for i := range r.Series {
		if r.Series[i].Config.Backend == backend && r.Series[i].Config.ReadLag > 0 {
			lagged = append(lagged, &r.Series[i])
		}
	}

	return lagged
}

// targets are what the provider promises, each judged from the figures.
func (r *Report) targets() []target {
	targets := r.bareTargets()
	targets = append(targets, r.realisticTargets()...)
	targets = append(targets, r.smallTargets()...)

	return append(targets, r.scaleTargets()...)
}

// smallTargets hold the small configurations module authors meet, whose phases last a
// wave or two (each `terraform test` applies and destroys one), to the paced floor
// walked the same way: at these counts a bound is a few seconds, and what Terraform
// and the framework take besides it is not a rounding error, so each phase is held to
// the paced floor's own wall time.
func (r *Report) smallTargets() []target {
	return []target{
		r.nearPacedFloor(WorkloadBare, 1, PhaseApply, PhaseDestroy),
		r.nearPacedFloor(WorkloadBare, 10, PhaseApply, PhaseDestroy),
		r.nearPacedFloor(WorkloadRealistic, 10, PhaseApply, PhaseDestroy),
		r.nearPacedFloor(WorkloadPeer, peerInstances, PhaseApply, PhaseDestroyRightAfter, PhaseDestroySettled),
	}
}

// nearPacedFloor is the target that each of phases of n instances of workload takes
// at most smallFloorFactor times what the paced floor took for it, walked the same
// way.
func (r *Report) nearPacedFloor(workload string, n int, phases ...string) target {
	return target{
		name: fmt.Sprintf("%s: %s of %d instance%s within %s× the %s's, walked the same way",
			workload, listed(phases), n, plural(n), factor(smallFloorFactor), FloorPaced),
		judge: func(backend string) verdict {
			if config := baseline(workload, backend); r.series(config) == nil && !r.Options.runs(config) {
				return verdict{measured: "— (the " + workload + " configuration does not run on `" + backend + "`)", inapplicable: true}
			}

			walk := r.pacedFloorBeside(workload, backend, n)
			if walk == nil {
				return notMeasured
			}

			parts := make([]string, 0, len(phases))
			met := true

			for _, name := range phases {
				measured, least := r.phaseAt(baseline(workload, backend), n, name), walk.Phase(name)
				if measured == nil || least == nil {
					return notMeasured
				}

				ratio := float64(measured.Wall) / float64(least.Wall)
				met = met && ratio <= smallFloorFactor
				parts = append(parts, fmt.Sprintf("%s %.2f× (%s ÷ %s)", name, ratio, seconds(measured.Wall), seconds(least.Wall)))
			}

			return verdict{measured: strings.Join(parts, ", "), met: met}
		},
	}
}

// plural is the ending of a noun counted n.
func plural(n int) string {
	if n == 1 {
		return ""
	}

	return "s"
}

// bareTargets are judged on the bare configuration, nearest the provider's bounds.
func (r *Report) bareTargets() []target {
	o := r.Options

	return []target{
		{
			name: fmt.Sprintf("bare: apply of %d instances within %s× its bound, and polling at most %s ÷ %s + %.0f = %.0f requests per instance",
				targetInstances, factor(applyBoundFactor), o.ProvisionDelay, r.PollPolicy.Max, maxPollingAllowance, r.PollingAllowance()),
			judge: func(backend string) verdict {
				config := baseline(WorkloadBare, backend)

				apply := r.phaseAt(config, targetInstances, PhaseApply)
				if apply == nil {
					return notMeasured
				}

				bound := r.Bound(config, PhaseApply, targetInstances)
				ratio := float64(apply.Wall) / float64(bound)
				polling := perInstance(apply.polling(), targetInstances)

				return verdict{
					measured: fmt.Sprintf("%.2f× (%s against %s); %.2f polls", ratio, seconds(apply.Wall), seconds(bound), polling),
					met:      ratio <= applyBoundFactor && polling <= r.PollingAllowance(),
				}
			},
		},
		r.withinBound(WorkloadBare, PhaseDestroy, destroyBoundFactor, "(its refresh included)"),
		r.withinPacedFloor(WorkloadBare, bareWallFactors),
		{
			name: fmt.Sprintf("bare: refresh of %d instances on one network: at most %.1f requests per instance", targetInstances, maxRefreshPerInstance),
			judge: func(backend string) verdict {
				refresh := r.phaseAt(baseline(WorkloadBare, backend), targetInstances, PhaseRefresh)
				if refresh == nil {
					return notMeasured
				}

				requests := perInstance(refresh.Requests.Total, targetInstances)

				return verdict{measured: fmt.Sprintf("%.2f", requests), met: requests <= maxRefreshPerInstance}
			},
		},
		{
			name: fmt.Sprintf("bare: from %d to %d instances, plan and refresh time grow at most linearly (%.0f×)",
				targetInstances, scaleInstances, float64(scaleInstances)/targetInstances),
			judge: func(backend string) verdict {
				var parts []string

				met := true

				for _, name := range []string{PhasePlan, PhaseRefresh} {
					small := r.phaseAt(baseline(WorkloadBare, backend), targetInstances, name)
					large := r.phaseAt(baseline(WorkloadBare, backend), scaleInstances, name)

					if small == nil || large == nil {
						return notMeasured
					}

					growth := float64(large.Wall) / float64(small.Wall)
					met = met && growth <= float64(scaleInstances)/targetInstances
					parts = append(parts, fmt.Sprintf("%s %.2f×", name, growth))
				}

				return verdict{measured: strings.Join(parts, ", "), met: met}
			},
		},
		{
			name: fmt.Sprintf("bare: provider peak memory under %d MiB (every phase, count and read lag)", maxProviderMemory>>20),
			judge: func(backend string) verdict {
				var peak int64

				for i := range r.Series {
					if r.Series[i].Config.Backend != backend || r.Series[i].Config.Workload != WorkloadBare {
						continue
					}

					for _, result := range r.Series[i].Results {
						for _, phase := range result.Phases {
							peak = max(peak, phase.PeakRSS)
						}
					}
				}

				if peak == 0 {
					return notMeasured
				}

				return verdict{measured: mebibytes(peak), met: peak < maxProviderMemory}
			},
		},
		{
			name: "with read lag, no instance lost or replaced (every configuration and count)",
			judge: func(backend string) verdict {
				lagged := r.lagged(backend)
				if len(lagged) == 0 {
					return notMeasured
				}

				lost, replaced := 0, 0

				for _, series := range lagged {
					for _, result := range series.Results {
						if refresh := result.Phase(PhaseRefresh); refresh != nil {
							lost += refresh.Lost
							replaced += refresh.Replaced
						}
					}
				}

				return verdict{measured: fmt.Sprintf("%d lost, %d replaced", lost, replaced), met: lost+replaced == 0}
			},
		},
		{
			name: fmt.Sprintf("bare: create: at most %.0f requests per instance besides polling (every count)", maxCreatePerInstance),
			judge: func(backend string) verdict {
				series := r.series(baseline(WorkloadBare, backend))
				if series == nil {
					return notMeasured
				}

				var create float64

				for i := range series.Results {
					if apply := series.Results[i].Phase(PhaseApply); apply != nil {
						create = max(create, perInstance(apply.Requests.Total-apply.polling(), series.Results[i].Instances))
					}
				}

				return verdict{measured: fmt.Sprintf("%.2f", create), met: create <= maxCreatePerInstance}
			},
		},
		{
			name: fmt.Sprintf("bare: readiness noticed within %s (every instance created)", maxReadinessNoticeTime),
			judge: func(backend string) verdict {
				series := r.series(baseline(WorkloadBare, backend))
				if series == nil {
					return notMeasured
				}

				var notice time.Duration

				for i := range series.Results {
					if apply := series.Results[i].Phase(PhaseApply); apply != nil {
						for _, delay := range r.NoticeDelays(backend, apply) {
							notice = max(notice, delay)
						}
					}
				}

				return verdict{measured: millis(notice) + " at most", met: notice <= maxReadinessNoticeTime}
			},
		},
	}
}

// withinBound is the target that phase of targetInstances instances of workload takes
// at most limit times its bound.
func (r *Report) withinBound(workload, phase string, limit float64, note string) target {
	return target{
		name: strings.TrimSpace(fmt.Sprintf("%s: %s of %d instances within %s× its bound %s", workload, phase, targetInstances, factor(limit), note)),
		judge: func(backend string) verdict {
			config := baseline(workload, backend)

			measured := r.phaseAt(config, targetInstances, phase)
			if measured == nil {
				return notMeasured
			}

			bound := r.Bound(config, phase, targetInstances)
			ratio := float64(measured.Wall) / float64(bound)

			return verdict{
				measured: fmt.Sprintf("%.2f× (%s against %s)", ratio, seconds(measured.Wall), seconds(bound)),
				met:      ratio <= limit,
			}
		},
	}
}

// wallFactor is the factor of its bound a phase that waits for the cloud is held to,
// and what the target holding it to its bound alone says of the bound.
type wallFactor struct {
	phase  string
	factor float64
	note   string
}

// bareWallFactors are the bare configuration's.
var bareWallFactors = []wallFactor{
	{PhaseApply, applyBoundFactor, ""},
	{PhaseDestroy, destroyBoundFactor, ""},
}

// realisticWallFactors are the realistic configuration's.
var realisticWallFactors = []wallFactor{
	{PhaseApply, realisticApplyFactor, "(its network, groups and storage first, its load balancer last)"},
	{PhaseTags, realisticTagsFactor, "(its refresh included)"},
	{PhaseDestroy, realisticDestroyFactor, "(its refresh and load balancer first, its groups, storage and network last)"},
}

// AbovePacedFloor is how much longer than its bound the paced floor took for phase of
// n instances of workload (see runPacedFloor): Terraform's, the plugin protocol's and
// the framework's own time with these schemas and this configuration, which no
// provider can take away; 0 without it.
func (r *Report) AbovePacedFloor(workload string, n int, phase string) time.Duration {
	walk := r.pacedFloor(workload, n)
	if walk == nil || walk.Phase(phase) == nil {
		return 0
	}

	return r.aboveBound(PacedFloorKey{Workload: workload, Instances: n}, walk.Phase(phase))
}

// aboveBound is how much longer than its bound a phase of the paced floor's walk key
// took.
func (r *Report) aboveBound(key PacedFloorKey, phase *Phase) time.Duration {
	return max(0, phase.Wall-r.Bound(pacedFloorBasis(key.Workload, key.Beside), phase.Name, key.Instances))
}

// withinPacedFloor is the target workload's wall times are held to beside their
// bounds: each phase within its factor of its bound with what the paced floor took
// above its own added, so that what Terraform and the framework take, which a bound
// does not count and no provider can take away, is not held against the provider,
// and all the rest is.
func (r *Report) withinPacedFloor(workload string, held []wallFactor) target {
	var names, factors []string
	for _, each := range held {
		names, factors = append(names, each.phase), append(factors, factor(each.factor)+"×")
	}

	return target{
		name: fmt.Sprintf("%s: %s of %d instances within %s of their bound plus what the %s takes above its own",
			workload, listed(names), targetInstances, strings.Join(factors, ", "), FloorPaced),
		judge: func(backend string) verdict {
			walk := r.pacedFloor(workload, targetInstances)
			if walk == nil {
				return notMeasured
			}

			config := baseline(workload, backend)
			parts := make([]string, 0, len(held))
			met := true

			for _, each := range held {
				measured := r.phaseAt(config, targetInstances, each.phase)
				if measured == nil || walk.Phase(each.phase) == nil {
					return notMeasured
				}

				ratio := float64(measured.Wall) / float64(r.Bound(config, each.phase, targetInstances)+r.AbovePacedFloor(workload, targetInstances, each.phase))
				met = met && ratio <= each.factor
				parts = append(parts, fmt.Sprintf("%s %.2f×", each.phase, ratio))
			}

			return verdict{measured: strings.Join(parts, ", "), met: met}
		},
	}
}

// realisticTargets are judged on the realistic configuration.
func (r *Report) realisticTargets() []target {
	targets := make([]target, 0, len(realisticWallFactors)+1)
	for _, held := range realisticWallFactors {
		targets = append(targets, r.withinBound(WorkloadRealistic, held.phase, held.factor, held.note))
	}

	targets = append(targets, r.withinPacedFloor(WorkloadRealistic, realisticWallFactors))

	for _, phase := range []string{PhaseApply, PhaseTags, PhaseRefresh, PhaseDestroy} {
		targets = append(targets, target{
			name: fmt.Sprintf("realistic: %s of %d instances: at most %s requests per instance",
				phase, targetInstances, r.perBackend(func(backend string) string {
					return strconv.FormatFloat(maxRequestsPerInstance(backend, phase), 'f', -1, 64)
				})),
			judge: func(backend string) verdict {
				measured := r.phaseAt(baseline(WorkloadRealistic, backend), targetInstances, phase)
				if measured == nil {
					return notMeasured
				}

				requests := perInstance(measured.Requests.Total, targetInstances)

				return verdict{measured: fmt.Sprintf("%.2f", requests), met: requests <= maxRequestsPerInstance(backend, phase)}
			},
		})
	}

	lagTarget := fmt.Sprintf("realistic, with read lag: apply, tag change and destroy of %d instances within %s× the floor the lag imposes",
		targetInstances, factor(lagFloorFactor))

	share := " plus what the " + FloorPaced + " takes above its bound (without lag)"

	return append(targets,
		r.withinLagFloor(lagTarget, r.LagFloor, false),
		r.withinLagFloor(lagTarget+share, r.LagFloor, true),
		r.withinLagFloor(fmt.Sprintf("%s for a reader polling every %s%s", lagTarget, r.PollPolicy.Max, share), r.PolledLagFloor, true))
}

// withinLagFloor is a target the realistic configuration's wall times under read lag
// are held to: each within lagFloorFactor of floor (LagFloor or PolledLagFloor), with
// what the paced floor took above its bound added when withPacedFloor, as for the
// targets without lag: Terraform and the framework take as long under lag as without.
func (r *Report) withinLagFloor(name string, floor func(Config, string, int) time.Duration, withPacedFloor bool) target {
	return target{
		name: name,
		judge: func(backend string) verdict {
			if withPacedFloor && r.pacedFloor(WorkloadRealistic, targetInstances) == nil {
				return notMeasured
			}

			above := func(string) time.Duration { return 0 }
			if withPacedFloor {
				above = func(phase string) time.Duration { return r.AbovePacedFloor(WorkloadRealistic, targetInstances, phase) }
			}

			var (
				parts []string
				met   = true
			)

			for _, series := range r.lagged(backend) {
				if series.Config.Workload != WorkloadRealistic {
					continue
				}

				for _, phase := range []string{PhaseApply, PhaseTags, PhaseDestroy} {
					result := series.Result(targetInstances)
					if result == nil || result.Phase(phase) == nil {
						continue
					}

					ratio := float64(result.Phase(phase).Wall) / float64(floor(series.Config, phase, targetInstances)+above(phase))
					met = met && ratio <= lagFloorFactor
					parts = append(parts, fmt.Sprintf("%s %.2f×", phase, ratio))
				}
			}

			if len(parts) == 0 {
				return notMeasured
			}

			return verdict{measured: strings.Join(parts, ", "), met: met}
		},
	}
}

// perBackend writes what differs by back end: one value when every measured back end
// has it, else each with its back end.
func (r *Report) perBackend(value func(backend string) string) string {
	values := make([]string, 0, len(r.Options.Backends))
	same := true

	for _, backend := range r.Options.Backends {
		values = append(values, value(backend)+" (`"+backend+"`)")
		same = same && value(backend) == value(r.Options.Backends[0])
	}

	if same && len(values) > 0 {
		return value(r.Options.Backends[0])
	}

	return strings.Join(values, ", ")
}

// scaleTargets are judged on the walk of many instances and on the sandbox.
func (r *Report) scaleTargets() []target {
	return []target{
		{
			name: fmt.Sprintf("%s instances: plan and refresh within %s× the %s's, the provider's peak memory under %d MiB",
				thousands(cmp.Or(r.Options.Scale, DefaultScale)), factor(scaleFloorFactor), FloorProvider, maxScaleMemory>>20),
			judge: func(backend string) verdict {
				walk := find(r.Scale, func(w *Walk) bool { return w.Name == backend })
				floor := find(r.Floors, func(w *Walk) bool { return w.Name == FloorProvider })

				if walk == nil || floor == nil {
					return notMeasured
				}

				var (
					parts []string
					peak  int64
					met   = true
				)

				for _, name := range []string{PhasePlan, PhaseRefresh} {
					measured, least := walk.Phase(name), floor.Phase(name)
					if measured == nil || least == nil {
						return notMeasured
					}

					ratio := float64(measured.Wall) / float64(least.Wall)
					met = met && ratio <= scaleFloorFactor
					parts = append(parts, fmt.Sprintf("%s %.2f×", name, ratio))
				}

				for _, phase := range walk.Phases {
					peak = max(peak, phase.PeakRSS)
				}

				parts = append(parts, mebibytes(peak))

				return verdict{measured: strings.Join(parts, ", "), met: met && peak < maxScaleMemory}
			},
		},
		{
			name: fmt.Sprintf("sandbox: a read by ID with %s instances under %s (its Go benchmark, with and without read lag)",
				thousands(sandboxReadObjects), maxSandboxRead),
			judge: func(backend string) verdict {
				var slowest time.Duration

				for _, read := range r.SandboxReads {
					if strings.HasPrefix(read.Name, fmt.Sprintf("BenchmarkSandboxReadByID/%s/objects=%d/", backend, sandboxReadObjects)) {
						slowest = max(slowest, read.PerOp)
					}
				}

				if slowest == 0 {
					return notMeasured
				}

				return verdict{measured: fmt.Sprintf("%.3f ms at most", float64(slowest)/float64(time.Millisecond)), met: slowest < maxSandboxRead}
			},
		},
	}
}

// thousands writes n with a comma between thousands, as the prose does.
func thousands(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}

	return fmt.Sprintf("%s,%03d", thousands(n/1000), n%1000)
}

// Markdown writes the report as the generated part of BENCHMARKS.md.
func (r *Report) Markdown() string {
	var b strings.Builder

	o := r.Options
	fmt.Fprintf(&b, "Run of %s: `%s`.\n\n", r.Started.UTC().Format("2006-01-02 15:04 MST"), cmp.Or(r.Options.Command, "make bench"))

	b.WriteString("| machine | |\n|---|---|\n")
	fmt.Fprintf(&b, "| CPU | %s |\n| cores | %d |\n| memory | %.1f GiB |\n", r.Machine.CPU, r.Machine.Cores, float64(r.Machine.Memory)/(1<<30))
	fmt.Fprintf(&b, "| Go | %s |\n| Terraform | %s |\n| load average at start (1, 5, 15 min) | %s |\n", r.Machine.Go, r.Machine.Terraform, r.Machine.Load)
	fmt.Fprintf(&b, "| sandbox | latency %s per request, provisioning %s, deprovisioning %s |\n", o.Latency, o.ProvisionDelay, o.DeprovisionDelay)
	fmt.Fprintf(&b, "| Terraform parallelism | %d |\n", o.Parallelism)
	fmt.Fprintf(&b, "| runs of plan and of refresh | %d, the one of median wall time shown, with the most requests, the largest peak memory and the most instances lost of any |\n", o.Repeats)
	fmt.Fprintf(&b, "| lives of a configuration of at most %d instances | %d, from nothing to nothing, each phase's median run shown as above |\n", smallInstances, smallLives)
	fmt.Fprintf(&b, "| poll policy | %s → %s, ×%.2g; after %s, up to %s |\n\n",
		r.PollPolicy.Min, r.PollPolicy.Max, r.PollPolicy.Factor, r.PollPolicy.Patience, r.PollPolicy.Slow)

	b.WriteString("### Targets\n\n")
	b.WriteString("Judged without read lag unless the target names it.\n\n| target |")

	for _, backend := range o.Backends {
		fmt.Fprintf(&b, " `%s` | |", backend)
	}

	b.WriteString("\n|---|" + strings.Repeat("---|---|", len(o.Backends)) + "\n")

	for _, t := range r.targets() {
		fmt.Fprintf(&b, "| %s |", t.name)

		for _, backend := range o.Backends {
			v := t.judge(backend)

			outcome := "met"

			switch {
			case v.inapplicable:
				outcome = "—"
			case !v.met:
				outcome = "**not met**"
			}

			fmt.Fprintf(&b, " %s | %s |", v.measured, outcome)
		}

		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "\nBounds: apply ≥ ⌈N ÷ %d⌉ × (%s + R × %s); refresh ≥ ⌈N ÷ %d⌉ × %s; "+
		"destroy ≥ the refresh bound + ⌈N ÷ %d⌉ × (%s + R × %s); R, the round trips no creation or deletion "+
		"can do without, is %d on `region` (the quota, the server, one read) and %d on `compute` (the instance, one read). "+
		"A tag change ≥ the refresh bound + ⌈N ÷ %d⌉ × (%s + 2 × %s): the update and the read that sees it provisioned. "+
		"The realistic configuration's apply also makes its network, then its security groups and file storage, "+
		"and after the instances its load balancer, each ≥ %s + 3 × %s (the storage until the sandbox reports its "+
		"mount on the network, %s after its create), "+
		"and its destroy deletes them in the reverse order, each ≥ %s + 2 × %s. With read lag, the floor adds to the bound, for every "+
		"change, how late each cache a read of it passes shows it (one on `region`, two on `compute`: "+
		"region's, which compute's controller reads, and compute's own): a draw of up to the lag for each of the "+
		"object's changes, a cache still trailing an earlier change showing the later no sooner than the earlier, "+
		"and within a lag of when it began to trail; the slowest of the %d parallel slots deciding (the mean of "+
		"%d seeded runs). For a reader polling every %s, each change is seen on the first tick after a read "+
		"could show it (a draw of up to the interval), and an instance's deletion once a read of it by ID "+
		"confirms the tick's list's miss (a round trip).\n",
		o.Parallelism, o.ProvisionDelay, o.Latency,
		o.Parallelism, o.Latency,
		o.Parallelism, o.DeprovisionDelay, o.Latency,
		minimalRoundTrips(BackendRegion), minimalRoundTrips(BackendCompute),
		o.Parallelism, o.ProvisionDelay, o.Latency,
		o.ProvisionDelay, o.Latency, sandbox.MountDelay(o.ProvisionDelay), o.DeprovisionDelay, o.Latency,
		o.Parallelism, lagTrials, r.PollPolicy.Max)

	for i := range r.Series {
		if r.Series[i].Config.Workload == WorkloadPeer {
			r.writePeer(&b, &r.Series[i])
		} else {
			r.writeSeries(&b, &r.Series[i])
		}
	}

	for _, workload := range []string{WorkloadBare, WorkloadRealistic, WorkloadPeer} {
		r.writePacedFloor(&b, workload)
	}

	r.writeScale(&b)
	r.writeSandbox(&b)

	return b.String()
}

// measuredPhases are the names of the phases series ran, in order.
func measuredPhases(series *Series) []string {
	var names []string

	for _, name := range []string{PhasePlan, PhaseApply, PhaseTags, PhaseRefresh, PhaseDestroy} {
		if slices.ContainsFunc(series.Results, func(result Result) bool { return result.Phase(name) != nil }) {
			names = append(names, name)
		}
	}

	return names
}

// writeSeries writes the tables of one configuration.
func (r *Report) writeSeries(b *strings.Builder, series *Series) {
	lag := "no read lag"
	if series.Config.ReadLag > 0 {
		lag = "read lag " + series.Config.ReadLag.String()
	}

	names := measuredPhases(series)

	fmt.Fprintf(b, "\n### %s, instance_api = %q, %s\n\n#### Wall time\n\n", series.Config.Workload, series.Config.Backend, lag)

	// Without lag a phase is held to its bound; with lag, the phases that wait for a
	// change to show are held to the floor the lag imposes.
	b.WriteString("| instances |")

	for _, name := range names {
		b.WriteString(" " + name + " |")

		if r.Bound(series.Config, name, 1) > 0 {
			word := "bound"
			if r.LagFloor(series.Config, name, 1) > 0 {
				word = "lag floor"
			}

			fmt.Fprintf(b, " %s | ÷ %s |", word, word)
		}
	}

	b.WriteString("\n|---:|")

	for _, name := range names {
		b.WriteString("---:|")

		if r.Bound(series.Config, name, 1) > 0 {
			b.WriteString("---:|---:|")
		}
	}

	b.WriteString("\n")

	for i := range series.Results {
		result := &series.Results[i]
		n := result.Instances
		fmt.Fprintf(b, "| %d |", n)

		for _, name := range names {
			fmt.Fprintf(b, " %s |", seconds(wall(result, name)))

			held := r.Bound(series.Config, name, n)
			if held == 0 {
				continue
			}

			if floor := r.LagFloor(series.Config, name, n); floor > 0 {
				held = floor
			}

			fmt.Fprintf(b, " %s | %.2f× |", seconds(held), float64(wall(result, name))/float64(held))
		}

		b.WriteString("\n")
	}

	b.WriteString("\n#### Readiness and deletion\n\n")
	fmt.Fprintf(b, "Time each creation took beyond the provisioning and its %[1]d write(s), each update beyond the provisioning "+
		"and its write, and each deletion beyond the deprovisioning and its %[1]d write(s) (from Terraform's `-json` output, "+
		"stamped to the microsecond): an upper bound of how late the provider noticed readiness or the instance gone, "+
		"including the first creations' look-ups, the look-up before each deletion on region and Terraform's own work.\n\n",
		minimalRoundTrips(series.Config.Backend)-1)

	timed := slices.DeleteFunc(slices.Clone(names), func(name string) bool { return name == PhasePlan || name == PhaseRefresh })

	b.WriteString("| instances |")

	for _, name := range timed {
		fmt.Fprintf(b, " %s: median | 90th percentile | most |", name)
	}

	b.WriteString("\n|---:|" + strings.Repeat("---:|---:|---:|", len(timed)) + "\n")

	for i := range series.Results {
		result := &series.Results[i]
		fmt.Fprintf(b, "| %d |", result.Instances)

		for _, name := range timed {
			if phase := result.Phase(name); phase != nil && len(phase.Changes) > 0 {
				delays := r.NoticeDelays(series.Config.Backend, phase)
				fmt.Fprintf(b, " %s | %s | %s |", millis(percentile(delays, 0.5)), millis(percentile(delays, 0.9)), millis(delays[len(delays)-1]))
			} else {
				b.WriteString(" | | |")
			}
		}

		b.WriteString("\n")
	}

	b.WriteString("\n#### Requests per instance\n\n")
	fmt.Fprintf(b, "From the sandbox's counters, reset before each phase. Lower bounds: a creation or a deletion needs "+
		"%d requests (R above), an update 2, a refresh 1 read, unless reads are shared.\n", minimalRoundTrips(series.Config.Backend))

	for _, name := range names {
		writeRequests(b, series, name)
	}

	b.WriteString("\n#### Provider memory and CPU\n\n")
	b.WriteString("Peak resident set (VmHWM) of the provider processes Terraform started, the largest of each phase; " +
		"then the CPU time (user and system, from `/proc`) of those processes together, and of Terraform itself besides them.\n\n")
	b.WriteString("| instances | " + strings.Join(names, " | ") + " | CPU: " + strings.Join(names, " | ") + " |\n")
	b.WriteString("|---:|" + strings.Repeat("---:|", 2*len(names)) + "\n")

	for i := range series.Results {
		result := &series.Results[i]
		fmt.Fprintf(b, "| %d |", result.Instances)

		for _, name := range names {
			if phase := result.Phase(name); phase != nil {
				fmt.Fprintf(b, " %s |", mebibytes(phase.PeakRSS))
			}
		}

		for _, name := range names {
			if phase := result.Phase(name); phase != nil {
				fmt.Fprintf(b, " %.2f s + %.2f s |", phase.ProviderCPU.Seconds(), phase.TerraformCPU.Seconds())
			}
		}

		b.WriteString("\n")
	}
}

// writePeer writes the peer configuration's tables: each phase beside the paced floor
// walked the same way, then its requests per instance, route by route.
func (r *Report) writePeer(b *strings.Builder, series *Series) {
	lag := "no read lag"
	if series.Config.ReadLag > 0 {
		lag = "read lag " + series.Config.ReadLag.String()
	}

	fmt.Fprintf(b, "\n### %s, instance_api = %q, %s\n\n", series.Config.Workload, series.Config.Backend, lag)

	for i := range series.Results {
		result := &series.Results[i]
		walk := r.pacedFloorBeside(series.Config.Workload, series.Config.Backend, result.Instances)

		fmt.Fprintf(b, "%d instances in one security group, three tags each, as `terraform test` takes them: planned, applied, "+
			"destroyed the moment the apply ends, applied again, left %s to settle, and destroyed again. "+
			"Each phase beside the %s walked the same way.\n\n", result.Instances, peerSettle, FloorPaced)
		b.WriteString("| phase | wall time | paced floor | ÷ paced floor | requests per instance | peak memory | CPU: provider + Terraform |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")

		for _, phase := range result.Phases {
			floorWall, ratio := "", ""
			if walk != nil && walk.Phase(phase.Name) != nil {
				least := walk.Phase(phase.Name).Wall
				floorWall, ratio = seconds(least), fmt.Sprintf("%.2f×", float64(phase.Wall)/float64(least))
			}

			fmt.Fprintf(b, "| %s | %s | %s | %s | %.2f | %s | %.2f s + %.2f s |\n", phase.Name, seconds(phase.Wall), floorWall, ratio,
				perInstance(phase.Requests.Total, result.Instances), mebibytes(phase.PeakRSS), phase.ProviderCPU.Seconds(), phase.TerraformCPU.Seconds())
		}

		routes := map[string]bool{}
		for _, phase := range result.Phases {
			for route := range phase.Requests.Routes {
				routes[route] = true
			}
		}

		b.WriteString("\n#### Requests per instance\n\n| route |")

		for _, phase := range result.Phases {
			b.WriteString(" " + phase.Name + " |")
		}

		b.WriteString("\n|---|" + strings.Repeat("---:|", len(result.Phases)) + "\n")

		for _, route := range slices.Sorted(maps.Keys(routes)) {
			fmt.Fprintf(b, "| `%s` |", route)

			for _, phase := range result.Phases {
				fmt.Fprintf(b, " %.2f |", perInstance(phase.Requests.Routes[route], result.Instances))
			}

			b.WriteString("\n")
		}
	}
}

// writeRequests writes one phase's requests per instance, route by route.
func writeRequests(b *strings.Builder, series *Series, name string) {
	routes := map[string]bool{}

	for i := range series.Results {
		if phase := series.Results[i].Phase(name); phase != nil {
			for route := range phase.Requests.Routes {
				routes[route] = true
			}
		}
	}

	fmt.Fprintf(b, "\n##### %s\n\n| route |", name)

	for i := range series.Results {
		fmt.Fprintf(b, " N = %d |", series.Results[i].Instances)
	}

	b.WriteString("\n|---|" + strings.Repeat("---:|", len(series.Results)) + "\n")

	requests := func(result *Result, route string) string {
		phase := result.Phase(name)
		if phase == nil {
			return ""
		}

		if route == "" {
			return fmt.Sprintf("**%.2f**", perInstance(phase.Requests.Total, result.Instances))
		}

		return fmt.Sprintf("%.2f", perInstance(phase.Requests.Routes[route], result.Instances))
	}

	for _, route := range slices.Sorted(maps.Keys(routes)) {
		fmt.Fprintf(b, "| `%s` |", route)

		for i := range series.Results {
			fmt.Fprintf(b, " %s |", requests(&series.Results[i], route))
		}

		b.WriteString("\n")
	}

	b.WriteString("| **total** |")

	for i := range series.Results {
		fmt.Fprintf(b, " %s |", requests(&series.Results[i], ""))
	}

	b.WriteString("\n")
}

// writeScale writes the walk of many instances beside its floors.
func (r *Report) writeScale(b *strings.Builder) {
	if len(r.Scale)+len(r.Floors) == 0 {
		return
	}

	o := r.Options
	fmt.Fprintf(b, "\n### %s instances\n\n", thousands(o.Scale))
	fmt.Fprintf(b, "The bare configuration, without read lag, against a sandbox of its own that provisions in %s and deprovisions in %s "+
		"(latency %s); each phase runs once. Beside it the floors: %s resources of `terraform_data`, which Terraform serves itself, "+
		"and of the %s (internal/bench/floor), which serves every resource type of the provider with its own schema from the same "+
		"framework and plans and reads nothing. Wall time, then CPU time of the provider processes and of Terraform besides them, "+
		"then the providers' peak memory.\n\n",
		o.ScaleProvisionDelay, o.ScaleDeprovisionDelay, o.Latency, thousands(o.Scale), FloorProvider)

	names := []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy}

	b.WriteString("| walk | " + strings.Join(names, " | ") + " | CPU: " + strings.Join(names, " | ") + " | peak memory |\n")
	b.WriteString("|---|" + strings.Repeat("---:|", 2*len(names)+1) + "\n")

	walks := append(slices.Clone(r.Scale), r.Floors...)

	for i := range walks {
		walk := &walks[i]

		label := "`" + walk.Name + "`"
		if walk.Name == FloorTerraform || walk.Name == FloorProvider {
			label = "floor: " + walk.Name
		}

		fmt.Fprintf(b, "| %s |", label)

		var peak int64

		for _, name := range names {
			if phase := walk.Phase(name); phase != nil {
				fmt.Fprintf(b, " %s |", seconds(phase.Wall))
				peak = max(peak, phase.PeakRSS)
			} else {
				b.WriteString(" |")
			}
		}

		for _, name := range names {
			if phase := walk.Phase(name); phase != nil {
				fmt.Fprintf(b, " %.2f s + %.2f s |", phase.ProviderCPU.Seconds(), phase.TerraformCPU.Seconds())
			} else {
				b.WriteString(" |")
			}
		}

		fmt.Fprintf(b, " %s |\n", mebibytes(peak))
	}
}

// pacedFloorWalks are the keys of the paced floor's walks of workload, fewest
// instances first, then by the back end they were walked beside.
func (r *Report) pacedFloorWalks(workload string) []PacedFloorKey {
	var keys []PacedFloorKey

	for key := range r.PacedFloors {
		if key.Workload == workload {
			keys = append(keys, key)
		}
	}

	slices.SortFunc(keys, func(a, b PacedFloorKey) int {
		return cmp.Or(cmp.Compare(a.Instances, b.Instances), cmp.Compare(a.Beside, b.Beside))
	})

	return keys
}

// writePacedFloor writes the paced floor's walks of workload beside their bounds.
func (r *Report) writePacedFloor(b *strings.Builder, workload string) {
	walks := r.pacedFloorWalks(workload)
	if len(walks) == 0 {
		return
	}

	var counts []string
	for _, key := range walks {
		if count := strconv.Itoa(key.Instances); !slices.Contains(counts, count) {
			counts = append(counts, count)
		}
	}

	pacing := floorPacing(r.Options, "")
	instancePace, storage := pacing[instance.TypeName], pacing[storage.TypeName]
	fmt.Fprintf(b, "\n### The %s, %s\n\n", FloorPaced, workload)
	update := ""
	if workload == WorkloadRealistic {
		update = fmt.Sprintf(", each update %s", instancePace.Update)
	}

	besideRegion := ""
	if slices.ContainsFunc(walks, func(key PacedFloorKey) bool { return key.Beside == BackendRegion }) {
		regionPace := floorPacing(r.Options, BackendRegion)[instance.TypeName]
		besideRegion = fmt.Sprintf(" (walked beside `region`, %s and %s: its bounds count the quota's charge and release as well)",
			regionPace.Create, regionPace.Delete)
	}

	fmt.Fprintf(b, "The %s configuration of %s instances, every phase run as the provider's, on the %s: "+
		"the floor provider (internal/bench/floor), which serves every resource type with its real schema and sends no request, "+
		"with each instance's create lasting %s%s and each delete %s%s",
		workload, listed(counts), FloorPaced, instancePace.Create, update, instancePace.Delete, besideRegion)

	authority := ""
	if workload == WorkloadRealistic {
		stageCreate, stageDelete := r.realisticStage()
		fmt.Fprintf(b, ", and each of the network, the groups, the authority and the load balancer created in %s and deleted in %s "+
			"(the storage created in %s, until its mount is reported)", stageCreate, stageDelete, storage.Create)

		authority = " (the authority, which they do not count, made beside the network and as long)"
	}

	held := fmt.Sprintf("At %d instances the %s wall times are held to their bounds with it added; at the small counts, "+
		"each to %s× the floor's own wall time.", targetInstances, workload, factor(smallFloorFactor))

	if workload == WorkloadPeer {
		stageCreate, stageDelete := r.realisticStage()
		fmt.Fprintf(b, ", and its security group created in %s and deleted in %s", stageCreate, stageDelete)

		held = fmt.Sprintf("It has no bound of its own: the peer wall times are each held to %s× the floor's own wall time.", factor(smallFloorFactor))
	}

	fmt.Fprintf(b, ": what the bounds of the back end it is walked beside count for each (`compute`'s on its own)%s; each read lasts %s, a round trip. "+
		"What it takes above its bound is Terraform's, the plugin protocol's and the framework's own time with these "+
		"schemas and this configuration. %s At a small count it is walked beside each back end, a life of the floor's "+
		"between two of the provider's, the two taking turns to go first, so that both meet the machine as it is in the "+
		"same minutes.\n\n", authority, r.Options.Latency, held)
	b.WriteString("| instances | walked beside | phase | wall time | bound | above the bound | CPU: provider + Terraform |\n" +
		"|---:|---|---|---:|---:|---:|---:|\n")

	for _, key := range walks {
		beside := "—"
		if key.Beside != "" {
			beside = "`" + key.Beside + "`"
		}

		for _, phase := range r.PacedFloors[key].Phases {
			bound, above := "", ""
			if held := r.Bound(pacedFloorBasis(workload, key.Beside), phase.Name, key.Instances); held > 0 {
				bound, above = seconds(held), seconds(r.aboveBound(key, &phase))
			}

			fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %.2f s + %.2f s |\n", key.Instances, beside,
				phase.Name, seconds(phase.Wall), bound, above, phase.ProviderCPU.Seconds(), phase.TerraformCPU.Seconds())
		}
	}
}

// writeSandbox writes the sandbox's own Go benchmark figures.
func (r *Report) writeSandbox(b *strings.Builder) {
	if len(r.SandboxReads) == 0 {
		return
	}

	b.WriteString("\n### The sandbox\n\n")
	b.WriteString("`go test -run '^$' -bench Sandbox ./internal/sandbox`: one request served by the sandbox's handler, " +
		"in process, against a sandbox holding that many settled compute instances and their servers; with lag, one object lags.\n\n")
	b.WriteString("| benchmark | per request |\n|---|---:|\n")

	for _, read := range r.SandboxReads {
		fmt.Fprintf(b, "| `%s` | %.3f ms |\n", strings.TrimPrefix(read.Name, "Benchmark"), float64(read.PerOp)/float64(time.Millisecond))
	}
}

func wall(result *Result, name string) time.Duration {
	if phase := result.Phase(name); phase != nil {
		return phase.Wall
	}

	return 0
}

// percentile returns the value at fraction q of sorted values (nearest rank).
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}

	rank := int(math.Ceil(q*float64(len(sorted)))) - 1

	return sorted[max(rank, 0)]
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// listed writes items as a sentence lists them: "a", "a and b", "a, b and c".
func listed(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}

	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// factor writes a target's factor as short as it goes: 1.05, 1.25, 3.
func factor(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func mebibytes(bytes int64) string {
	return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20))
}

func millis(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
