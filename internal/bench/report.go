package bench

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
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

	applyBoundFactor       = 1.05
	destroyBoundFactor     = 1.25
	maxRefreshPerInstance  = 0.1
	maxCreatePerInstance   = 6.0
	maxPollingAllowance    = 2.0
	maxReadinessNoticeTime = 500 * time.Millisecond
	maxProviderMemory      = 60 << 20
	// maxLagCost is how much worse a figure may be under read lag than without it.
	maxLagCost = 0.10
)

// waves is how many rounds of parallel work n instances need.
func (r *Report) waves(n int) int {
	return int(math.Ceil(float64(n) / float64(r.Options.Parallelism)))
}

// ApplyBound is the least time creating n instances can take: every round of
// parallel creations waits out the provisioning and its own round trips.
func (r *Report) ApplyBound(backend string, n int) time.Duration {
	return time.Duration(r.waves(n)) * (r.Options.ProvisionDelay + time.Duration(minimalRoundTrips(backend))*r.Options.Latency)
}

// DestroyBound is the least time `terraform destroy` of n instances can take: the
// refresh it runs first, then every round of parallel deletions.
func (r *Report) DestroyBound(backend string, n int) time.Duration {
	return r.RefreshBound(n) + time.Duration(r.waves(n))*(r.Options.DeprovisionDelay+time.Duration(minimalRoundTrips(backend))*r.Options.Latency)
}

// RefreshBound is the least time reading n instances one request each can take.
func (r *Report) RefreshBound(n int) time.Duration {
	return time.Duration(r.waves(n)) * r.Options.Latency
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

// NoticeDelays are, for each instance created (p is an apply) or deleted (a destroy)
// through backend, the time its change took beyond the provisioning or deprovisioning
// and the writes it needs: an upper bound of how late the provider noticed that the
// instance was ready, or gone.
func (r *Report) NoticeDelays(backend string, p *Phase) []time.Duration {
	took := r.Options.ProvisionDelay
	if p.Name == PhaseDestroy {
		took = r.Options.DeprovisionDelay
	}

	writes := time.Duration(minimalRoundTrips(backend)-1) * r.Options.Latency

	delays := make([]time.Duration, len(p.Changes))
	for i, d := range p.Changes {
		delays[i] = d - took - writes
	}

	return delays
}

// verdict is one back end's figure for one target.
type verdict struct {
	measured string
	met      bool
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

// baseline is the configuration of backend the targets are judged in: no read lag.
func baseline(backend string) Config {
	return Config{Backend: backend}
}

// lagged are the series of backend that ran under a read lag.
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
	o := r.Options

	return []target{
		{
			name: fmt.Sprintf("apply of %d instances within %s× its bound, and polling at most %s ÷ %s + %.0f = %.0f requests per instance",
				targetInstances, factor(applyBoundFactor), o.ProvisionDelay, r.PollPolicy.Max, maxPollingAllowance, r.PollingAllowance()),
			judge: func(backend string) verdict {
				apply := r.phaseAt(baseline(backend), targetInstances, PhaseApply)
				if apply == nil {
					return notMeasured
				}

				ratio := float64(apply.Wall) / float64(r.ApplyBound(backend, targetInstances))
				polling := perInstance(apply.polling(), targetInstances)

				return verdict{
					measured: fmt.Sprintf("%.2f× (%s against %s); %.2f polls", ratio, seconds(apply.Wall), seconds(r.ApplyBound(backend, targetInstances)), polling),
					met:      ratio <= applyBoundFactor && polling <= r.PollingAllowance(),
				}
			},
		},
		{
			name: fmt.Sprintf("destroy of %d instances within %s× its bound (its refresh included)", targetInstances, factor(destroyBoundFactor)),
			judge: func(backend string) verdict {
				destroy := r.phaseAt(baseline(backend), targetInstances, PhaseDestroy)
				if destroy == nil {
					return notMeasured
				}

				ratio := float64(destroy.Wall) / float64(r.DestroyBound(backend, targetInstances))

				return verdict{
					measured: fmt.Sprintf("%.2f× (%s against %s)", ratio, seconds(destroy.Wall), seconds(r.DestroyBound(backend, targetInstances))),
					met:      ratio <= destroyBoundFactor,
				}
			},
		},
		{
			name: fmt.Sprintf("refresh of %d instances on one network: at most %.1f requests per instance", targetInstances, maxRefreshPerInstance),
			judge: func(backend string) verdict {
				refresh := r.phaseAt(baseline(backend), targetInstances, PhaseRefresh)
				if refresh == nil {
					return notMeasured
				}

				requests := perInstance(refresh.Requests.Total, targetInstances)

				return verdict{measured: fmt.Sprintf("%.2f", requests), met: requests <= maxRefreshPerInstance}
			},
		},
		{
			name: fmt.Sprintf("from %d to %d instances, plan and refresh time grow at most linearly (%.0f×)",
				targetInstances, scaleInstances, float64(scaleInstances)/targetInstances),
			judge: func(backend string) verdict {
				var parts []string

				met := true

				for _, name := range []string{PhasePlan, PhaseRefresh} {
					small := r.phaseAt(baseline(backend), targetInstances, name)
					large := r.phaseAt(baseline(backend), scaleInstances, name)

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
			name: fmt.Sprintf("provider peak memory under %d MiB (every phase, count and read lag)", maxProviderMemory>>20),
			judge: func(backend string) verdict {
				var peak int64

				for i := range r.Series {
					if r.Series[i].Config.Backend != backend {
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
			name: fmt.Sprintf("with read lag, every figure at %d instances and more (wall time, requests and peak memory of each phase) within %.0f %% of the figure without it",
				targetInstances, 100*maxLagCost),
			judge: r.judgeLagCost,
		},
		{
			name: "with read lag, no instance lost or replaced (every count)",
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
			name: fmt.Sprintf("create: at most %.0f requests per instance besides polling (every count)", maxCreatePerInstance),
			judge: func(backend string) verdict {
				series := r.series(baseline(backend))
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
			name: fmt.Sprintf("readiness noticed within %s (every instance created)", maxReadinessNoticeTime),
			judge: func(backend string) verdict {
				series := r.series(baseline(backend))
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

// judgeLagCost compares every figure of backend's lagged runs, at the target count
// and above, with the same figure without lag, and reports the worst. Smaller runs
// last a few hundred milliseconds, where one poll interval alone is over 10 %.
func (r *Report) judgeLagCost(backend string) verdict {
	lagged := r.lagged(backend)
	base := r.series(baseline(backend))

	if len(lagged) == 0 || base == nil {
		return notMeasured
	}

	worst, worstWhat, compared := math.Inf(-1), "", 0

	for _, series := range lagged {
		for _, result := range series.Results {
			if result.Instances < targetInstances {
				continue
			}

			unlagged := base.Result(result.Instances)
			if unlagged == nil {
				continue
			}

			for _, phase := range result.Phases {
				without := unlagged.Phase(phase.Name)
				if without == nil {
					continue
				}

				for _, figure := range []struct {
					what        string
					with, plain float64
				}{
					{"wall time", float64(phase.Wall), float64(without.Wall)},
					{"requests", float64(phase.Requests.Total), float64(without.Requests.Total)},
					{"peak memory", float64(phase.PeakRSS), float64(without.PeakRSS)},
				} {
					if figure.plain <= 0 {
						continue
					}

					compared++

					if cost := figure.with/figure.plain - 1; cost > worst {
						worst = cost
						worstWhat = fmt.Sprintf("%s of %s, %d instances, lag %s", figure.what, phase.Name, result.Instances, series.Config.ReadLag)
					}
				}
			}
		}
	}

	if compared == 0 {
		return notMeasured
	}

	return verdict{
		measured: fmt.Sprintf("worst %+.0f %% (%s) of %d figures", 100*worst, worstWhat, compared),
		met:      worst <= maxLagCost,
	}
}

// Markdown writes the report as the generated part of BENCHMARKS.md.
func (r *Report) Markdown() string {
	var b strings.Builder

	o := r.Options
	fmt.Fprintf(&b, "Run of %s: `make bench`.\n\n", r.Started.UTC().Format("2006-01-02 15:04 MST"))

	b.WriteString("| machine | |\n|---|---|\n")
	fmt.Fprintf(&b, "| CPU | %s |\n| cores | %d |\n| memory | %.1f GiB |\n", r.Machine.CPU, r.Machine.Cores, float64(r.Machine.Memory)/(1<<30))
	fmt.Fprintf(&b, "| Go | %s |\n| Terraform | %s |\n| load average at start (1, 5, 15 min) | %s |\n", r.Machine.Go, r.Machine.Terraform, r.Machine.Load)
	fmt.Fprintf(&b, "| sandbox | latency %s per request, provisioning %s, deprovisioning %s |\n", o.Latency, o.ProvisionDelay, o.DeprovisionDelay)
	fmt.Fprintf(&b, "| Terraform parallelism | %d |\n", o.Parallelism)
	fmt.Fprintf(&b, "| runs of plan and of refresh | %d, the one of median wall time shown, with the most requests, the largest peak memory and the most instances lost of any |\n", o.Repeats)
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
			if !v.met {
				outcome = "**not met**"
			}

			fmt.Fprintf(&b, " %s | %s |", v.measured, outcome)
		}

		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "\nBounds: apply ≥ ⌈N ÷ %d⌉ × (%s + R × %s); refresh ≥ ⌈N ÷ %d⌉ × %s; "+
		"destroy ≥ the refresh bound + ⌈N ÷ %d⌉ × (%s + R × %s); R, the round trips no creation or deletion "+
		"can do without, is %d on `region` (the quota, the server, one read) and %d on `compute` (the instance, one read).\n",
		o.Parallelism, o.ProvisionDelay, o.Latency,
		o.Parallelism, o.Latency,
		o.Parallelism, o.DeprovisionDelay, o.Latency,
		minimalRoundTrips(BackendRegion), minimalRoundTrips(BackendCompute))

	for i := range r.Series {
		r.writeSeries(&b, &r.Series[i])
	}

	return b.String()
}

// writeSeries writes the tables of one configuration.
func (r *Report) writeSeries(b *strings.Builder, series *Series) {
	lag := "no read lag"
	if series.Config.ReadLag > 0 {
		lag = "read lag " + series.Config.ReadLag.String()
	}

	fmt.Fprintf(b, "\n### instance_api = %q, %s\n\n#### Wall time\n\n", series.Config.Backend, lag)
	b.WriteString("| instances | plan | apply | apply bound | apply ÷ bound | refresh | refresh bound | destroy | destroy bound | destroy ÷ bound |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")

	for i := range series.Results {
		result := &series.Results[i]
		n := result.Instances
		fmt.Fprintf(b, "| %d | %s | %s | %s | %.2f× | %s | %s | %s | %s | %.2f× |\n", n,
			seconds(wall(result, PhasePlan)),
			seconds(wall(result, PhaseApply)), seconds(r.ApplyBound(series.Config.Backend, n)),
			float64(wall(result, PhaseApply))/float64(r.ApplyBound(series.Config.Backend, n)),
			seconds(wall(result, PhaseRefresh)), seconds(r.RefreshBound(n)),
			seconds(wall(result, PhaseDestroy)), seconds(r.DestroyBound(series.Config.Backend, n)),
			float64(wall(result, PhaseDestroy))/float64(r.DestroyBound(series.Config.Backend, n)))
	}

	b.WriteString("\n#### Readiness and deletion\n\n")
	fmt.Fprintf(b, "Time each creation took beyond the provisioning and its %[1]d write(s), and each deletion beyond the "+
		"deprovisioning and its %[1]d write(s) (from `terraform apply -json` and `terraform destroy -json`, "+
		"stamped to the microsecond): an upper bound of how late the provider noticed readiness or the instance gone, "+
		"including the first creations' catalogue look-ups, the look-up before each deletion on region and Terraform's own work.\n\n",
		minimalRoundTrips(series.Config.Backend)-1)
	b.WriteString("| instances | creation: median | 90th percentile | most | deletion: median | 90th percentile | most |\n" +
		"|---:|---:|---:|---:|---:|---:|---:|\n")

	for i := range series.Results {
		result := &series.Results[i]
		fmt.Fprintf(b, "| %d |", result.Instances)

		for _, name := range []string{PhaseApply, PhaseDestroy} {
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
		"%d requests (R above), a refresh 1 read, unless reads are shared.\n", minimalRoundTrips(series.Config.Backend))

	for _, phase := range []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy} {
		writeRequests(b, series, phase)
	}

	b.WriteString("\n#### Provider memory and CPU\n\n")
	b.WriteString("Peak resident set (VmHWM) of the provider processes Terraform started, the largest of each phase; " +
		"then the CPU time (user and system, from `/proc`) of those processes together, and of Terraform itself besides them.\n\n")
	b.WriteString("| instances | plan | apply | refresh | destroy | CPU: plan | apply | refresh | destroy |\n" +
		"|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")

	phases := []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy}

	for i := range series.Results {
		result := &series.Results[i]
		fmt.Fprintf(b, "| %d |", result.Instances)

		for _, name := range phases {
			if phase := result.Phase(name); phase != nil {
				fmt.Fprintf(b, " %s |", mebibytes(phase.PeakRSS))
			}
		}

		for _, name := range phases {
			if phase := result.Phase(name); phase != nil {
				fmt.Fprintf(b, " %.2f s + %.2f s |", phase.ProviderCPU.Seconds(), phase.TerraformCPU.Seconds())
			}
		}

		b.WriteString("\n")
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

	for _, route := range slices.Sorted(maps.Keys(routes)) {
		fmt.Fprintf(b, "| `%s` |", route)

		for i := range series.Results {
			result := &series.Results[i]
			fmt.Fprintf(b, " %.2f |", perInstance(result.Phase(name).Requests.Routes[route], result.Instances))
		}

		b.WriteString("\n")
	}

	b.WriteString("| **total** |")

	for i := range series.Results {
		result := &series.Results[i]
		fmt.Fprintf(b, " **%.2f** |", perInstance(result.Phase(name).Requests.Total, result.Instances))
	}

	b.WriteString("\n")
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
