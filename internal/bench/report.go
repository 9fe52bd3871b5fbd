package bench

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// minimalCreateRoundTrips are the requests no creation can do without: charge the
// quota, create the server, and one read that sees it ready. The catalogue look-ups
// are left out: they happen once per provider process, not once per instance.
const minimalCreateRoundTrips = 3

// minimalDeleteRoundTrips are their counterpart for a deletion: delete the server, one
// read that sees it gone, release the quota.
const minimalDeleteRoundTrips = 3

// pollingRoutes are the reads that wait for a server to become ready.
var pollingRoutes = []string{"GET /api/v2/servers/{serverID}", "GET /api/v2/servers"}

// Targets the figures are held to.
const (
	applyBoundFactor       = 1.2
	maxRefreshPerInstance  = 1.0
	maxCreatePerInstance   = 6.0
	maxPollingAllowance    = 2.0
	maxReadinessNoticeTime = 500 * time.Millisecond
)

// waves is how many rounds of parallel work n instances need.
func (r *Report) waves(n int) int {
	return int(math.Ceil(float64(n) / float64(r.Options.Parallelism)))
}

// ApplyBound is the least time creating n instances can take: every round of
// parallel creations waits out the provisioning and its own round trips.
func (r *Report) ApplyBound(n int) time.Duration {
	return time.Duration(r.waves(n)) * (r.Options.ProvisionDelay + minimalCreateRoundTrips*r.Options.Latency)
}

// DestroyBound is the least time deleting n instances can take.
func (r *Report) DestroyBound(n int) time.Duration {
	return time.Duration(r.waves(n)) * (r.Options.DeprovisionDelay + minimalDeleteRoundTrips*r.Options.Latency)
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

// NoticeDelays are, for each created instance, the time its creation took beyond
// the provisioning and the two writes that start it: an upper bound of how late
// the provider noticed that the instance was ready.
func (r *Report) NoticeDelays(p *Phase) []time.Duration {
	delays := make([]time.Duration, len(p.Changes))
	for i, d := range p.Changes {
		delays[i] = d - r.Options.ProvisionDelay - 2*r.Options.Latency
	}

	return delays
}

// target is one line of the targets table.
type target struct {
	name     string
	measured string
	met      bool
}

// Targets checks the figures against what the provider promises.
func (r *Report) targets() []target {
	var targets []target

	largest := &r.Results[len(r.Results)-1]
	if apply := largest.Phase(PhaseApply); apply != nil {
		ratio := float64(apply.Wall) / float64(r.ApplyBound(largest.Instances))
		targets = append(targets, target{
			name:     fmt.Sprintf("apply of %d instances within %.1f× its bound", largest.Instances, applyBoundFactor),
			measured: fmt.Sprintf("%.2f× (%s against %s)", ratio, seconds(apply.Wall), seconds(r.ApplyBound(largest.Instances))),
			met:      ratio <= applyBoundFactor,
		})
	}

	var refresh, create, polling float64

	var notice time.Duration

	for i := range r.Results {
		result := &r.Results[i]
		if phase := result.Phase(PhaseRefresh); phase != nil {
			refresh = max(refresh, perInstance(phase.Requests.Total, result.Instances))
		}

		if phase := result.Phase(PhaseApply); phase != nil {
			create = max(create, perInstance(phase.Requests.Total-phase.polling(), result.Instances))
			polling = max(polling, perInstance(phase.polling(), result.Instances))

			for _, delay := range r.NoticeDelays(phase) {
				notice = max(notice, delay)
			}
		}
	}

	return append(targets,
		target{
			name:     fmt.Sprintf("refresh: at most %.0f request per instance", maxRefreshPerInstance),
			measured: fmt.Sprintf("%.2f (the most of any count)", refresh),
			met:      refresh <= maxRefreshPerInstance,
		},
		target{
			name:     fmt.Sprintf("create: at most %.0f requests per instance besides polling", maxCreatePerInstance),
			measured: fmt.Sprintf("%.2f", create),
			met:      create <= maxCreatePerInstance,
		},
		target{
			name: fmt.Sprintf("polling: at most %s ÷ %s + 2 = %.0f requests per instance",
				r.Options.ProvisionDelay, r.PollPolicy.Max, r.PollingAllowance()),
			measured: fmt.Sprintf("%.2f", polling),
			met:      polling <= r.PollingAllowance(),
		},
		target{
			name:     fmt.Sprintf("readiness noticed within %s", maxReadinessNoticeTime),
			measured: fmt.Sprintf("%s at most (of every instance created)", millis(notice)),
			met:      notice <= maxReadinessNoticeTime,
		},
	)
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
	fmt.Fprintf(&b, "| poll policy | %s → %s, ×%.2g; after %s, up to %s |\n\n",
		r.PollPolicy.Min, r.PollPolicy.Max, r.PollPolicy.Factor, r.PollPolicy.Patience, r.PollPolicy.Slow)

	b.WriteString("### Targets\n\n| target | measured | |\n|---|---|---|\n")

	for _, t := range r.targets() {
		verdict := "met"
		if !t.met {
			verdict = "**missed**"
		}

		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.name, t.measured, verdict)
	}

	b.WriteString("\n### Wall time\n\n")
	fmt.Fprintf(&b, "Bounds: apply ≥ ⌈N ÷ %d⌉ × (%s + %d × %s); destroy ≥ ⌈N ÷ %d⌉ × (%s + %d × %s); refresh ≥ ⌈N ÷ %d⌉ × %s.\n\n",
		o.Parallelism, o.ProvisionDelay, minimalCreateRoundTrips, o.Latency,
		o.Parallelism, o.DeprovisionDelay, minimalDeleteRoundTrips, o.Latency,
		o.Parallelism, o.Latency)
	b.WriteString("| instances | plan | apply | apply bound | apply ÷ bound | refresh | refresh bound | destroy | destroy bound |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")

	for i := range r.Results {
		result := &r.Results[i]
		n := result.Instances
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %.2f× | %s | %s | %s | %s |\n", n,
			seconds(wall(result, PhasePlan)),
			seconds(wall(result, PhaseApply)), seconds(r.ApplyBound(n)),
			float64(wall(result, PhaseApply))/float64(r.ApplyBound(n)),
			seconds(wall(result, PhaseRefresh)), seconds(r.RefreshBound(n)),
			seconds(wall(result, PhaseDestroy)), seconds(r.DestroyBound(n)))
	}

	b.WriteString("\n### Readiness\n\n")
	b.WriteString("Time each creation took beyond the provisioning and its two writes (from `terraform apply -json`, " +
		"stamped to the microsecond): an upper bound of how late the provider noticed readiness, " +
		"including the first creations' catalogue look-ups and Terraform's own work.\n\n")
	b.WriteString("| instances | median | 90th percentile | most |\n|---:|---:|---:|---:|\n")

	for i := range r.Results {
		result := &r.Results[i]
		if phase := result.Phase(PhaseApply); phase != nil && len(phase.Changes) > 0 {
			delays := r.NoticeDelays(phase)
			fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", result.Instances,
				millis(percentile(delays, 0.5)), millis(percentile(delays, 0.9)), millis(delays[len(delays)-1]))
		}
	}

	b.WriteString("\n### Requests per instance\n\n")
	b.WriteString("From the sandbox's counters, reset before each phase. Lower bounds: a creation needs " +
		"2 writes and 1 read, a refresh 1 read, a deletion 2 writes and 1 read, unless reads are shared.\n")

	for _, phase := range []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy} {
		r.writeRequests(&b, phase)
	}

	b.WriteString("\n### Provider memory\n\n")
	b.WriteString("Peak resident set (VmHWM) of the provider processes Terraform started, the largest of each phase.\n\n")
	b.WriteString("| instances | plan | apply | refresh | destroy |\n|---:|---:|---:|---:|---:|\n")

	for i := range r.Results {
		result := &r.Results[i]
		fmt.Fprintf(&b, "| %d |", result.Instances)

		for _, name := range []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy} {
			if phase := result.Phase(name); phase != nil {
				fmt.Fprintf(&b, " %.1f MiB |", float64(phase.PeakRSS)/(1<<20))
			}
		}

		b.WriteString("\n")
	}

	return b.String()
}

// writeRequests writes one phase's requests per instance, route by route.
func (r *Report) writeRequests(b *strings.Builder, name string) {
	routes := map[string]bool{}

	for i := range r.Results {
		if phase := r.Results[i].Phase(name); phase != nil {
			for route := range phase.Requests.Routes {
				routes[route] = true
			}
		}
	}

	fmt.Fprintf(b, "\n#### %s\n\n| route |", name)

	for i := range r.Results {
		fmt.Fprintf(b, " N = %d |", r.Results[i].Instances)
	}

	b.WriteString("\n|---|" + strings.Repeat("---:|", len(r.Results)) + "\n")

	for _, route := range slices.Sorted(maps.Keys(routes)) {
		fmt.Fprintf(b, "| `%s` |", route)

		for i := range r.Results {
			result := &r.Results[i]
			fmt.Fprintf(b, " %.2f |", perInstance(result.Phase(name).Requests.Routes[route], result.Instances))
		}

		b.WriteString("\n")
	}

	b.WriteString("| **total** |")

	for i := range r.Results {
		result := &r.Results[i]
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

func millis(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
