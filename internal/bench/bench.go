// Package bench measures the provider end to end: the real Terraform CLI runs the
// provider binary, as a user's Terraform would, against the sandbox command with
// realistic latency and provisioning time, and the benchmark records wall time, API
// requests by route (from the sandbox's own counters) and the provider's peak memory
// for each phase of an instance's life, in a bare configuration and a realistic one;
// then walks a thousand instances beside two floors (see scale.go).
package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Options say what to run and where the binaries are.
type Options struct {
	// Terraform is the Terraform CLI; ProviderDir holds the provider binary, named
	// terraform-provider-unikorn; Sandbox is the unikorn-sandbox binary.
	Terraform   string
	ProviderDir string
	Sandbox     string
	// WorkDir receives the configurations, states and the sandbox's log.
	WorkDir string

	// Workloads are the configurations to apply (WorkloadBare, WorkloadRealistic,
	// WorkloadPeer); Counts are the numbers of instances of the bare one to run, each
	// from nothing to nothing, and RealisticCounts those of the realistic one (the
	// peer one has peerInstances).
	Workloads       []string
	Counts          []int
	RealisticCounts []int
	// Backends are the instance APIs to measure (BackendCompute, BackendRegion), and
	// ReadLags the sandbox's read lags to measure each under: every workload, back end
	// and read lag is a configuration with a sandbox of its own.
	Backends []string
	ReadLags []time.Duration
	// Scale is the number of instances of the walk against the floors (see runScale),
	// zero for none; ScaleProvisionDelay and ScaleDeprovisionDelay are its sandbox's
	// timings, short so that it runs in minutes. FloorDir holds the floor provider,
	// named as the provider is (see internal/bench/floor).
	Scale                 int
	ScaleProvisionDelay   time.Duration
	ScaleDeprovisionDelay time.Duration
	FloorDir              string
	// SandboxBenchmark is the output of `go test -bench SandboxReadByID` on the
	// sandbox, whose figures the report shows beside the targets; empty for none.
	SandboxBenchmark string
	// Parallelism is Terraform's -parallelism (its default is 10).
	Parallelism int
	// Repeats is how many times the phases that change nothing (plan, refresh) run;
	// the run of median wall time is kept (see runCount).
	Repeats int

	Latency          time.Duration
	ProvisionDelay   time.Duration
	DeprovisionDelay time.Duration

	// Command is what ran the benchmark, as the report names it (make bench when
	// empty).
	Command string

	// Progress receives a line per step; nil discards.
	Progress io.Writer
}

// The instance APIs the provider can reach instances through (its instance_api).
const (
	BackendCompute = "compute"
	BackendRegion  = "region"
)

// Config is one workload on one back end under one read lag.
type Config struct {
	Workload string
	Backend  string
	ReadLag  time.Duration
}

// Phase is one Terraform command and what it cost.
type Phase struct {
	Name    string
	Command string
	Wall    time.Duration
	// Requests are the sandbox's counters for the phase alone, by route template.
	Requests sandbox.Stats
	// PeakRSS is the highest peak resident set of any provider process the command
	// started, in bytes; Providers is how many there were.
	PeakRSS   int64
	Providers int
	// ProviderCPU is the CPU time those processes used, TerraformCPU that Terraform
	// itself used besides them.
	ProviderCPU, TerraformCPU time.Duration
	// Changes are how long each resource's create or delete took, from Terraform's
	// machine-readable output (apply and destroy only).
	Changes []time.Duration
	// Lost and Replaced count the instances the refresh would create again or
	// replace: each is an instance whose existing server the provider lost track of.
	Lost, Replaced int
}

// Result is every phase of one count of instances.
type Result struct {
	Instances int
	Phases    []Phase
}

// Phase returns the phase of that name.
func (r *Result) Phase(name string) *Phase {
	return find(r.Phases, func(p *Phase) bool { return p.Name == name })
}

// find returns the first of items that match accepts, or nil.
func find[T any](items []T, match func(*T) bool) *T {
	for i := range items {
		if match(&items[i]) {
			return &items[i]
		}
	}

	return nil
}

// Series is every count of one configuration.
type Series struct {
	Config  Config
	Results []Result
}

// Result returns the result for n instances, or nil when n was not run.
func (s *Series) Result(n int) *Result {
	return find(s.Results, func(r *Result) bool { return r.Instances == n })
}

// Report is a whole benchmark run.
type Report struct {
	Options    Options
	Machine    Machine
	PollPolicy cloud.PollPolicy
	Started    time.Time
	Series     []Series
	// Scale is the walk of Options.Scale instances on each back end, and Floors the
	// same walk of the floors beside it.
	Scale  []Walk
	Floors []Walk
	// PacedFloors are the configurations walked on the paced floor provider (see
	// runPacedFloor), by workload and count.
	PacedFloors map[PacedFloorKey]*Walk
	// SandboxReads are the sandbox's Go benchmark figures, by name.
	SandboxReads []SandboxRead
}

// PacedFloorKey names a walk of the paced floor provider: a workload's configuration
// of so many instances, walked on its own or, at the small counts, life by life
// beside a back end's baseline (see runLives).
type PacedFloorKey struct {
	Workload  string
	Instances int
	// Beside is the back end whose lives the walk's alternate with; empty for a walk
	// on its own.
	Beside string
}

// pacedFloor returns the paced floor's walk of n instances of workload on its own, or
// nil when it was not walked.
func (r *Report) pacedFloor(workload string, n int) *Walk {
	return r.PacedFloors[PacedFloorKey{Workload: workload, Instances: n}]
}

// pacedFloorBeside returns the paced floor's walk of n instances of workload that
// alternated with backend's, or else its walk on its own, or nil.
func (r *Report) pacedFloorBeside(workload, backend string, n int) *Walk {
	if walk := r.PacedFloors[PacedFloorKey{Workload: workload, Instances: n, Beside: backend}]; walk != nil {
		return walk
	}

	return r.pacedFloor(workload, n)
}

// series returns the figures of config, or nil when it was not run.
func (r *Report) series(config Config) *Series {
	return find(r.Series, func(s *Series) bool { return s.Config == config })
}

// Run benchmarks every configuration, and in each every count in turn, leaving
// nothing behind.
func Run(ctx context.Context, options Options) (*Report, error) {
	if options.Parallelism < 1 || options.Repeats < 1 || len(options.Backends) == 0 || len(options.ReadLags) == 0 {
		return nil, errors.New("the benchmark needs at least one back end and read lag, and a parallelism and a number of repeats of at least 1")
	}

	for _, workload := range options.Workloads {
		if len(options.counts(workload)) == 0 {
			return nil, fmt.Errorf("the %s workload needs at least one instance count", workload)
		}
	}

	if options.Progress == nil {
		options.Progress = io.Discard
	}

	machine, err := DescribeMachine(ctx, options.Terraform)
	if err != nil {
		return nil, err
	}

	report := &Report{Options: options, Machine: machine, PollPolicy: cloud.DefaultPollPolicy(), Started: time.Now()}

	if options.SandboxBenchmark != "" {
		if report.SandboxReads, err = ReadSandboxBenchmark(options.SandboxBenchmark); err != nil {
			return nil, err
		}
	}

	cliConfigPath := filepath.Join(options.WorkDir, "terraformrc")
	if err := cliConfig(cliConfigPath, options.ProviderDir); err != nil {
		return nil, err
	}

	for _, workload := range options.Workloads {
		for _, lag := range options.ReadLags {
			for _, backend := range options.Backends {
				if !options.runs(Config{Workload: workload, Backend: backend, ReadLag: lag}) {
					continue
				}

				series, err := runSeries(ctx, options, report, Config{Workload: workload, Backend: backend, ReadLag: lag}, cliConfigPath)
				if err != nil {
					return nil, err
				}

				report.Series = append(report.Series, *series)
			}
		}
	}

	for _, workload := range options.Workloads {
		for _, count := range options.pacedFloorCounts(workload) {
			if count <= smallInstances {
				continue // walked beside each back end's lives (see runSeries)
			}

			if err := runPacedFloor(ctx, options, report, workload, count); err != nil {
				return nil, err
			}
		}
	}

	if options.Scale > 0 {
		if err := runScale(ctx, options, cliConfigPath, report); err != nil {
			return nil, err
		}
	}

	return report, nil
}

// counts are the instance counts workload runs.
func (o *Options) counts(workload string) []int {
	switch workload {
	case WorkloadRealistic:
		return o.RealisticCounts
	case WorkloadPeer:
		return []int{peerInstances}
	}

	return o.Counts
}

// runs is true of the configurations the run measures: every workload on every back
// end under every read lag, but the peer configuration, which is compute's path
// without read lag alone (as the incumbents' benchmarks are), so that it adds no more
// than a minute.
func (o *Options) runs(config Config) bool {
	return config.Workload != WorkloadPeer || (config.Backend == BackendCompute && config.ReadLag == 0)
}

// runSeries benchmarks every count of one configuration against a sandbox of its own,
// so that neither its counters nor its read lags carry over. A small count of a
// baseline that the paced floor judges is walked on the floor too, life by life beside
// it, into report.
func runSeries(ctx context.Context, options Options, report *Report, config Config, cliConfigPath string) (*Series, error) {
	name := fmt.Sprintf("%s-%s-lag-%s", config.Workload, config.Backend, config.ReadLag)

	dir := filepath.Join(options.WorkDir, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}

	counts := options.counts(config.Workload)

	sb, err := startSandbox(ctx, options, config, sandboxTimings{options.ProvisionDelay, options.DeprovisionDelay}, filepath.Join(dir, "sandbox.log"))
	if err != nil {
		return nil, err
	}

	defer func() { _ = sb.stop() }()

	if err := sb.setQuotas(ctx, slices.Max(counts)); err != nil {
		return nil, err
	}

	environ := terraformEnviron(cliConfigPath, sb.environ()...)

	series := &Series{Config: config}

	for _, count := range counts {
		fmt.Fprintf(options.Progress, "==> %s, instance_api %s, read lag %s: %d instance(s)\n", config.Workload, config.Backend, config.ReadLag, count)

		dir := filepath.Join(dir, "instances-"+strconv.Itoa(count))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}

		if err := writeConfig(dir, config.Workload); err != nil {
			return nil, err
		}

		tf := &terraform{binary: options.Terraform, dir: dir, environ: environ}

		var beside *terraform
		if config.ReadLag == 0 && count <= smallInstances && slices.Contains(options.pacedFloorCounts(config.Workload), count) {
			if beside, err = pacedFloorTerraform(options, config.Workload, count, config.Backend); err != nil {
				return nil, err
			}
		}

		phases, floorPhases, err := runLives(ctx, tf, sb, beside, phases(config.Workload, count, options.Parallelism), count, options.Repeats, options.Progress)
		if err != nil {
			return nil, err
		}

		if beside != nil {
			report.addPacedFloor(PacedFloorKey{Workload: config.Workload, Instances: count, Beside: config.Backend}, floorPhases)
		}

		if err := checkNothingLeft(ctx, sb); err != nil {
			return nil, err
		}

		series.Results = append(series.Results, Result{Instances: count, Phases: phases})
	}

	return series, nil
}

// smallLives is how many times a configuration of at most smallInstances instances
// lives through every phase, from nothing to nothing, of which each phase's median run
// is kept (see medianRun): its applies and destroys last a second or two, where the
// cores being busy elsewhere for a tenth of one decides a target of 1.15×.
const (
	smallLives     = 3
	smallInstances = 20
)

// runLives runs phases (see runPhases) once, or smallLives times for a small count,
// and keeps each phase's median run. With floor, the paced floor's terraform, each
// life of the provider's has one of the floor's beside it, the two taking turns to go
// first: the floor is what the provider's small wall times are judged against, and
// the machine's pace drifts by more than the margin of that judgement from one
// minute to the next, so the two are walked in the same minutes. floorPhases are
// the floor's, kept alike.
func runLives(ctx context.Context, tf *terraform, sb *sandboxProcess, floor *terraform, phases []benchPhase, count, repeats int,
	progress io.Writer,
) (kept, floorPhases []Phase, err error) {
	lives := 1
	if count <= smallInstances {
		lives = smallLives
	}

	runs, floorRuns := make([][]Phase, len(phases)), make([][]Phase, len(phases))

	for life := range lives {
		if lives > 1 {
			fmt.Fprintf(progress, "    life %d of %d\n", life+1, lives)
		}

		walks := []struct {
			tf   *terraform
			sb   *sandboxProcess
			into [][]Phase
		}{{tf, sb, runs}, {floor, nil, floorRuns}}
		if life%2 == 1 {
			walks[0], walks[1] = walks[1], walks[0]
		}

		for _, walk := range walks {
			if walk.tf == nil {
				continue
			}

			if walk.tf == floor {
				fmt.Fprintf(progress, "    beside it, the %s\n", FloorPaced)
			}

			measured, err := runPhases(ctx, walk.tf, walk.sb, phases, count, repeats, progress)
			if err != nil {
				return nil, nil, err
			}

			for i := range measured {
				walk.into[i] = append(walk.into[i], measured[i])
			}
		}
	}

	return medianRuns(runs), medianRuns(floorRuns), nil
}

// medianRuns is each phase's median run (see medianRun), or nil for phases never run.
func medianRuns(runs [][]Phase) []Phase {
	if len(runs) == 0 || len(runs[0]) == 0 {
		return nil
	}

	kept := make([]Phase, len(runs))
	for i := range runs {
		kept[i] = medianRun(runs[i])
	}

	return kept
}

// runPhases runs phases in order, the ones that change nothing repeats times (see
// measureRuns), and reports each as it ends. sb is nil for a walk without a sandbox.
func runPhases(ctx context.Context, tf *terraform, sb *sandboxProcess, phases []benchPhase, count, repeats int, progress io.Writer) ([]Phase, error) {
	measuredPhases := make([]Phase, 0, len(phases))

	for _, phase := range phases {
		runs := 1
		if phase.changesNothing {
			runs = repeats
		}

		if phase.settle > 0 {
			fmt.Fprintf(progress, "    (%s for the objects to settle)\n", phase.settle)

			select {
			case <-time.After(phase.settle):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}

		measured, err := measureRuns(ctx, tf, sb, phase, count, runs)
		if err != nil {
			return nil, err
		}

		fmt.Fprintf(progress, "    %-31s %8s  %5d requests  %6.1f MiB peak  CPU %s provider, %s Terraform",
			phase.name, measured.Wall.Round(10*time.Millisecond), measured.Requests.Total, float64(measured.PeakRSS)/(1<<20),
			measured.ProviderCPU, measured.TerraformCPU.Round(10*time.Millisecond))

		if runs > 1 {
			fmt.Fprintf(progress, "  (median of %d runs)", runs)
		}

		if measured.Lost+measured.Replaced > 0 {
			fmt.Fprintf(progress, "  %d lost, %d replaced", measured.Lost, measured.Replaced)
		}

		fmt.Fprintln(progress)

		measuredPhases = append(measuredPhases, measured)
	}

	return measuredPhases, nil
}

// benchPhase is one Terraform command of a count's life.
type benchPhase struct {
	name string
	args []string
	// action is the change whose per-resource durations -json output gives.
	action string
	// changesNothing is true of the phases that may run again without changing what
	// the next finds.
	changesNothing bool
	// settle is how long the objects the phase before made are left alone before it
	// runs, outside its wall time.
	settle time.Duration
}

// measureRuns runs a phase runs times and keeps the run of median wall time (see
// medianRun): a plan or a refresh takes well under a second at 100 instances, where a
// few hundred milliseconds of the cores being busy elsewhere would decide a
// comparison. Nothing else is softened by it: the requests, the peak memory and the
// instances lost or replaced kept are the most of any run.
func measureRuns(ctx context.Context, tf *terraform, sb *sandboxProcess, phase benchPhase, count, runs int) (Phase, error) {
	measured := make([]Phase, 0, runs)

	for range runs {
		run, err := measurePhase(ctx, tf, sb, phase, count)
		if err != nil {
			return Phase{}, err
		}

		measured = append(measured, run)
	}

	return medianRun(measured), nil
}

// medianRun is the run of median wall time (the later of the two middle ones for an
// even count), with the requests of the run that sent the most, and the largest peak
// memory and the most instances lost or replaced of any run.
func medianRun(runs []Phase) Phase {
	runs = slices.SortedFunc(slices.Values(runs), func(a, b Phase) int { return cmp.Compare(a.Wall, b.Wall) })
	kept := runs[len(runs)/2]

	for _, run := range runs {
		if run.Requests.Total > kept.Requests.Total {
			kept.Requests = run.Requests
		}

		kept.PeakRSS = max(kept.PeakRSS, run.PeakRSS)
		kept.Lost = max(kept.Lost, run.Lost)
		kept.Replaced = max(kept.Replaced, run.Replaced)
	}

	return kept
}

// measurePhase runs a phase once, with the sandbox's counters reset before it.
func measurePhase(ctx context.Context, tf *terraform, sb *sandboxProcess, phase benchPhase, count int) (Phase, error) {
	if sb != nil {
		if err := sb.control.ResetStats(ctx); err != nil {
			return Phase{}, err
		}
	}

	run, err := tf.run(ctx, phase.args...)
	if err != nil {
		return Phase{}, err
	}

	var changes plannedChanges

	if phase.name == PhaseRefresh && run.exitCode == exitChanges {
		if changes, err = readPlannedChanges(run.stdout); err != nil {
			return Phase{}, fmt.Errorf("%s: %w", run.commandLine, err)
		}

		run.exitCode = 0
	}

	if err := run.mustSucceed(); err != nil {
		return Phase{}, err
	}

	var stats sandbox.Stats

	if sb != nil {
		if stats, err = sb.control.Stats(ctx); err != nil {
			return Phase{}, err
		}
	}

	measured := Phase{
		Name:         phase.name,
		Command:      run.commandLine,
		Wall:         run.wall,
		Requests:     stats,
		PeakRSS:      run.peakRSS,
		Providers:    run.providers,
		ProviderCPU:  run.providerCPU,
		TerraformCPU: run.terraformCPU,
		Lost:         changes.created,
		Replaced:     changes.replaced,
	}

	if phase.action != "" {
		durations, err := resourceDurations(run.stdout, phase.action)
		if err != nil {
			return Phase{}, err
		}

		for addr, d := range durations {
			if strings.HasPrefix(addr, instanceAddress) {
				measured.Changes = append(measured.Changes, d)
			}
		}

		if len(measured.Changes) != count {
			return Phase{}, fmt.Errorf("%s reported %d instances changed, want %d", run.commandLine, len(measured.Changes), count)
		}

		slices.Sort(measured.Changes)
	}

	return measured, nil
}

// checkNothingLeft proves that a destroy freed everything: a benchmark that leaked
// would measure less work than it should.
func checkNothingLeft(ctx context.Context, sb *sandboxProcess) error {
	allocations, err := sb.control.Allocations(ctx)
	if err != nil {
		return err
	}

	var leaked []string

	for _, allocation := range allocations {
		if allocation.Spec.Kind == compute.AllocationKind {
			leaked = append(leaked, allocation.Spec.ID)
		}
	}

	if len(leaked) > 0 {
		return fmt.Errorf("the destroy left %d instance allocations behind: %s", len(leaked), strings.Join(leaked, ", "))
	}

	return nil
}

// terraformEnviron is the environment Terraform runs in: this process's, cleaned (see
// cleanEnviron), with the CLI configuration at cliConfigPath (none when empty) and
// settings.
func terraformEnviron(cliConfigPath string, settings ...string) []string {
	environ := append(cleanEnviron(os.Environ()), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	if cliConfigPath != "" {
		environ = append(environ, "TF_CLI_CONFIG_FILE="+cliConfigPath)
	}

	return append(environ, settings...)
}

// cleanEnviron drops the settings that would change what is measured: Terraform's
// logging and workspace, and any provider settings that would point elsewhere.
func cleanEnviron(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(entry string) bool {
		name, _, _ := strings.Cut(entry, "=")

		return strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "UNIKORN_")
	})
}
