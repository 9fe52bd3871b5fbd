package bench

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/bench/floor"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Walk is one configuration of Options.Scale resources taken from nothing to nothing,
// on a back end of the provider or on a floor.
type Walk struct {
	// Name is the back end, or the floor (FloorTerraform, FloorProvider).
	Name      string
	Instances int
	Phases    []Phase
}

// Phase returns the phase of that name, or nil.
func (w *Walk) Phase(name string) *Phase {
	return find(w.Phases, func(p *Phase) bool { return p.Name == name })
}

// DefaultScale is how many instances the walk against the floors makes.
const DefaultScale = 1000

// The floors a walk of many instances is held against.
const (
	// FloorTerraform is Terraform alone: as many terraform_data resources, which
	// Terraform serves itself.
	FloorTerraform = "terraform_data"
	// FloorProvider is Terraform, the plugin protocol and the framework with the
	// provider's schemas: the floor provider (internal/bench/floor), whose plan and
	// read do nothing.
	FloorProvider = "floor provider"
	// FloorPaced is the floor provider with each change lasting what a bound counts
	// for it (see runPacedFloor).
	FloorPaced = "paced floor provider"
)

// floorCLIConfig writes the CLI configuration that has Terraform start the floor
// provider in the provider's place, and returns its path.
func floorCLIConfig(options Options) (string, error) {
	path := filepath.Join(options.WorkDir, "terraformrc-floor")

	return path, cliConfig(path, options.FloorDir)
}

// pacedFloorInstances are the counts at which workload's wall times are judged against
// the paced floor: at targetInstances beside their bounds, at the small counts module
// authors meet (each `terraform test` applies and destroys a small configuration)
// against the floor's own wall times.
var pacedFloorInstances = []int{1, 10, targetInstances}

// pacedFloorCounts are the counts of workload the run walks on the paced floor: those
// of pacedFloorInstances it measures (the peer configuration's one count), none
// without the floor provider or without compute's path measured, whose bounds pace it
// and which the peer configuration runs on alone.
func (o *Options) pacedFloorCounts(workload string) []int {
	if o.FloorDir == "" || !slices.Contains(o.Workloads, workload) {
		return nil
	}

	if workload == WorkloadPeer {
		if !slices.Contains(o.Backends, BackendCompute) || !slices.Contains(o.ReadLags, 0) {
			return nil
		}

		return o.counts(workload)
	}

	return slices.DeleteFunc(slices.Clone(o.counts(workload)), func(count int) bool {
		return !slices.Contains(pacedFloorInstances, count)
	})
}

// pacedFloorBasis is the configuration whose bounds pace the paced floor walked beside
// a back end, and judge it: workload on that back end, so that the floor waits what
// that back end's cloud makes any provider wait (on region, the quota's charge and
// release as well: minimalRoundTrips); walked on its own (beside empty), workload on
// compute, whose instances' changes need the fewest round trips.
func pacedFloorBasis(workload, beside string) Config {
	return Config{Workload: workload, Backend: cmp.Or(beside, BackendCompute)}
}

// floorPacing is how long the paced floor's changes last, walked beside a back end (or
// on its own: empty): each what the bound of pacedFloorBasis(WorkloadRealistic,
// beside) counts for it (see Bound; the bare bounds count
// the same for an instance), so that the floor waits as long as the
// bounds say the cloud makes a provider wait for a change. The instances' waves take
// their part of the bound each; the other things make its stages, the storage's
// lasting until its mount is reported; the authority, which the bound does not count,
// is made beside the network and lasts as long. Each read lasts a round trip, as the
// cloud's answer does: a refresh reads the objects in the order of their
// dependencies (in the realistic configuration the network, then the groups and the
// storage, then the instances, then the load balancer, four round trips one after
// another), which no provider can shorten, and which the floor left out of its time
// when its reads were instant (a tenth of a small destroy).
func floorPacing(options Options, beside string) floor.Pacing {
	r := &Report{Options: options}
	wave := options.Parallelism
	instances := pacedFloorBasis(WorkloadBare, beside)
	refresh := r.Bound(instances, PhaseRefresh, wave)

	var stage floor.Pace
	stage.Create, stage.Delete = r.realisticStage()
	share := stage
	share.Create += r.mountLater()

	pacing := floor.Pacing{
		instance.TypeName: {
			Create: r.Bound(instances, PhaseApply, wave),
			Update: r.Bound(instances, PhaseTags, wave) - refresh,
			Delete: r.Bound(instances, PhaseDestroy, wave) - refresh,
		},
		networking.NetworkTypeName:                 stage,
		networking.SecurityGroupTypeName:           stage,
		networking.SSHCertificateAuthorityTypeName: stage,
		storage.TypeName:                           share,
		loadbalancing.TypeName:                     stage,
	}

	for typeName, pace := range pacing {
		pace.Read = options.Latency
		pacing[typeName] = pace
	}

	return pacing
}

// runPacedFloor takes workload's configuration of count instances through
// every phase on the floor provider paced by floorPacing: a provider that serves every
// resource type with its real schema, sends no request and waits exactly what the
// bounds count. What it takes above its bound is Terraform's, the plugin protocol's
// and the framework's with these schemas and this configuration (its graph, its
// state, in the realistic one a load balancer whose members name every instance),
// which no provider can take away; workload's wall-time targets are judged with it
// added to their bounds.
func runPacedFloor(ctx context.Context, options Options, report *Report, workload string, count int) error {
	tf, err := pacedFloorTerraform(options, workload, count, "")
	if err != nil {
		return err
	}

	fmt.Fprintf(options.Progress, "==> the %s configuration of %d instance(s), %s\n", workload, count, FloorPaced)

	phases, _, err := runLives(ctx, tf, nil, nil, phases(workload, count, options.Parallelism), count, options.Repeats, options.Progress)
	if err != nil {
		return err
	}

	report.addPacedFloor(PacedFloorKey{Workload: workload, Instances: count}, phases)

	return nil
}

// pacedFloorTerraform is Terraform in a directory of its own holding workload's
// configuration of count instances for the paced floor, walked beside backend's lives
// (or on its own: empty).
func pacedFloorTerraform(options Options, workload string, count int, beside string) (*terraform, error) {
	floorConfigPath, err := floorCLIConfig(options)
	if err != nil {
		return nil, err
	}

	name := fmt.Sprintf("floor-paced-%s-%d", workload, count)
	if beside != "" {
		name += "-beside-" + beside
	}

	dir := filepath.Join(options.WorkDir, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}

	config := bareConfig()

	switch workload {
	case WorkloadRealistic:
		if config, err = pacedFloorConfig(); err != nil {
			return nil, err
		}
	case WorkloadPeer:
		config = peerConfig()
	}

	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return nil, err
	}

	environ := terraformEnviron(floorConfigPath, floorPacing(options, beside).Environ()...)

	return &terraform{binary: options.Terraform, dir: dir, environ: environ}, nil
}

// addPacedFloor keeps a walk of the paced floor.
func (r *Report) addPacedFloor(key PacedFloorKey, phases []Phase) {
	if r.PacedFloors == nil {
		r.PacedFloors = map[PacedFloorKey]*Walk{}
	}

	r.PacedFloors[key] = &Walk{Name: FloorPaced, Instances: key.Instances, Phases: phases}
}

// runScale walks Options.Scale bare instances on each back end, without read lag and
// with short provisioning so that it runs in minutes, then the floors. Plan and
// refresh run once: at this size they last seconds, far beyond the noise the repeats
// of the small counts are for.
func runScale(ctx context.Context, options Options, cliConfigPath string, report *Report) error {
	for _, backend := range options.Backends {
		walk, err := scaleWalk(ctx, options, backend, cliConfigPath)
		if err != nil {
			return err
		}

		report.Scale = append(report.Scale, *walk)
	}

	terraformData, err := floorWalk(ctx, options, FloorTerraform, terraformDataConfig(), "")
	if err != nil {
		return err
	}

	floorConfigPath, err := floorCLIConfig(options)
	if err != nil {
		return err
	}

	provider, err := floorWalk(ctx, options, FloorProvider, bareConfig(), floorConfigPath)
	if err != nil {
		return err
	}

	report.Floors = append(report.Floors, *terraformData, *provider)

	return nil
}

// scaleWalk walks Options.Scale bare instances on backend.
func scaleWalk(ctx context.Context, options Options, backend, cliConfigPath string) (*Walk, error) {
	config := Config{Workload: WorkloadBare, Backend: backend}
	dir := filepath.Join(options.WorkDir, "scale-"+backend)

	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}

	sb, err := startSandbox(ctx, options, config, sandboxTimings{options.ScaleProvisionDelay, options.ScaleDeprovisionDelay}, filepath.Join(dir, "sandbox.log"))
	if err != nil {
		return nil, err
	}

	defer func() { _ = sb.stop() }()

	if err := sb.setQuotas(ctx, options.Scale); err != nil {
		return nil, err
	}

	if err := writeConfig(dir, WorkloadBare); err != nil {
		return nil, err
	}

	environ := terraformEnviron(cliConfigPath, sb.environ()...)

	fmt.Fprintf(options.Progress, "==> %d instances, instance_api %s, provisioning %s\n", options.Scale, backend, options.ScaleProvisionDelay)

	phases, err := runPhases(ctx, &terraform{binary: options.Terraform, dir: dir, environ: environ}, sb,
		phases(WorkloadBare, options.Scale, options.Parallelism), options.Scale, 1, options.Progress)
	if err != nil {
		return nil, err
	}

	return &Walk{Name: backend, Instances: options.Scale, Phases: phases}, checkNothingLeft(ctx, sb)
}

// floorWalk walks Options.Scale resources of config without a sandbox: Terraform
// alone, or with the floor provider that cliConfigPath points it at.
func floorWalk(ctx context.Context, options Options, name, config, cliConfigPath string) (*Walk, error) {
	dir := filepath.Join(options.WorkDir, "floor-"+regexp.MustCompile(`\W+`).ReplaceAllString(name, "-"))

	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}

	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return nil, err
	}

	environ := terraformEnviron(cliConfigPath)

	fmt.Fprintf(options.Progress, "==> %d resources, %s\n", options.Scale, name)

	// The floors change nothing in a cloud, so their changes are not timed one by one,
	// and their state is simply left behind: their destroy, as long as Terraform's own
	// apply of a thousand resources, is held to nothing.
	walk := phases(WorkloadBare, options.Scale, options.Parallelism)
	walk = slices.DeleteFunc(walk, func(phase benchPhase) bool { return phase.name == PhaseDestroy })

	for i := range walk {
		walk[i].action = ""
	}

	phases, err := runPhases(ctx, &terraform{binary: options.Terraform, dir: dir, environ: environ}, nil, walk, options.Scale, 1, options.Progress)
	if err != nil {
		return nil, err
	}

	return &Walk{Name: name, Instances: options.Scale, Phases: phases}, nil
}

// terraformDataConfig is var.instances resources that Terraform serves itself, each
// holding what an instance of the bare configuration holds.
func terraformDataConfig() string {
	return fmt.Sprintf(`variable "instances" {
  type = number
}

resource "terraform_data" "bench" {
  count = var.instances
  input = {
    name       = format("bench-%%03d", count.index)
    network_id = %q
    flavor_id  = %q
    image_id   = %q
  }
}
`, sandbox.NetworkDefaultID, sandbox.FlavorStandardID, sandbox.ImageUbuntuID)
}

// SandboxRead is one figure of the sandbox's Go benchmark of reads.
type SandboxRead struct {
	// Name is the benchmark's, such as "BenchmarkSandboxReadByID/compute/objects=2000/lag=0s".
	Name  string
	PerOp time.Duration
}

// benchmarkLine is a result line of `go test -bench`: the name (with GOMAXPROCS), the
// iterations, and the time per operation.
var benchmarkLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// ReadSandboxBenchmark reads the figures of `go test -bench` output at path.
func ReadSandboxBenchmark(path string) ([]SandboxRead, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()

	var reads []SandboxRead

	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		match := benchmarkLine.FindStringSubmatch(scanner.Text())
		if match == nil {
			continue
		}

		nanoseconds, err := strconv.ParseFloat(match[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}

		reads = append(reads, SandboxRead{Name: match[1], PerOp: time.Duration(nanoseconds)})
	}

	if err := scanner.Err(); err != nil {
		return nil, err
	}

	if len(reads) == 0 {
		return nil, fmt.Errorf("%s holds no benchmark figures", path)
	}

	return reads, nil
}
