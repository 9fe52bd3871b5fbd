package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/bench/floor"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

func TestParseStatFindsTheParentBehindAnAwkwardName(t *testing.T) {
	t.Parallel()

	comm, ppid, cpu, err := parseStat([]byte("4242 (odd) name (x)) S 17 4242 4242 0 -1 4194560 120 0 3 0 25 7 0 0 20 0 9"))
	require.NoError(t, err)
	assert.Equal(t, "odd) name (x)", comm)
	assert.Equal(t, 17, ppid)
	assert.Equal(t, 320*time.Millisecond, cpu, "25 user and 7 system ticks")

	_, _, _, err = parseStat([]byte("4242 no-parentheses S 17"))
	require.Error(t, err)
}

func TestParseVmHWM(t *testing.T) {
	t.Parallel()

	hwm, err := parseVmHWM([]byte("Name:\tterraform-provi\nVmPeak:\t 1300000 kB\nVmHWM:\t   30720 kB\nVmRSS:\t   20480 kB\n"))
	require.NoError(t, err)
	assert.Equal(t, int64(30720*1024), hwm)

	_, err = parseVmHWM([]byte("Name:\tkthreadd\n"))
	require.Error(t, err, "kernel threads have no memory lines")
}

// The watch finds a real child by name and reads a plausible peak.
func TestWatchPeakRSSSeesAChildProcess(t *testing.T) {
	t.Parallel()

	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}

	sleep, err := exec.LookPath("sleep")
	require.NoError(t, err)

	// A shell that starts sleep and waits for it, as Terraform starts its plugins.
	shell := exec.CommandContext(t.Context(), "/bin/sh", "-c", sleep+" 0.5; true")
	require.NoError(t, shell.Start())

	watch := watchPeakRSS(shell.Process.Pid, "sleep", 5*time.Millisecond)
	require.NoError(t, shell.Wait())

	peak, processes, cpu := watch.Stop()
	assert.Equal(t, 1, processes)
	assert.Less(t, cpu, 400*time.Millisecond, "sleep hardly runs")
	assert.Greater(t, peak, int64(64*1024), "even sleep has more than 64 KiB resident")
	assert.Less(t, peak, int64(1<<30))
}

func TestResourceDurationsPairsStartAndCompletion(t *testing.T) {
	t.Parallel()

	output := strings.Join([]string{
		`{"@level":"info","@message":"Terraform 1.15.0","type":"version"}`,
		`{"@timestamp":"2026-01-02T10:00:00.100000Z","type":"apply_start","hook":{"resource":{"addr":"a.b[0]"},"action":"create"}}`,
		`{"@timestamp":"2026-01-02T10:00:00.200000Z","type":"apply_start","hook":{"resource":{"addr":"a.b[1]"},"action":"create"}}`,
		`{"@timestamp":"2026-01-02T10:00:02.350000Z","type":"apply_complete","hook":{"resource":{"addr":"a.b[1]"},"action":"create"}}`,
		`{"@timestamp":"2026-01-02T10:00:02.600000Z","type":"apply_complete","hook":{"resource":{"addr":"a.b[0]"},"action":"create"}}`,
		`not json: Terraform printed a plain line`,
	}, "\n")

	durations, err := resourceDurations([]byte(output), "create")
	require.NoError(t, err)
	assert.Equal(t, map[string]time.Duration{"a.b[0]": 2500 * time.Millisecond, "a.b[1]": 2150 * time.Millisecond}, durations)

	none, err := resourceDurations([]byte(output), "delete")
	require.NoError(t, err)
	assert.Empty(t, none)
}

func TestReadExportsStopsAtTheProject(t *testing.T) {
	t.Parallel()

	exports := map[string]string{}
	err := readExports(strings.NewReader("export UNIKORN_REGION_ENDPOINT=http://127.0.0.1:1234\n"+
		"export UNIKORN_TOKEN='it'\\''s'\nexport UNIKORN_PROJECT_ID=p\nexport LATER=ignored\n"), exports)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"UNIKORN_REGION_ENDPOINT": "http://127.0.0.1:1234",
		"UNIKORN_TOKEN":           "it's",
		"UNIKORN_PROJECT_ID":      "p",
	}, exports)

	require.Error(t, readExports(strings.NewReader("export UNIKORN_TOKEN=x\n"), map[string]string{}))
}

func TestUpdateSectionKeepsWhatPeopleWrote(t *testing.T) {
	t.Parallel()

	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")

	require.NoError(t, UpdateSection(path, "bench", "first\n"))
	require.NoError(t, os.WriteFile(path, []byte("# Title\n\nIntro.\n\n"+mustRead(t, path)+"\nOutro.\n"), 0o600))

	require.NoError(t, UpdateSection(path, "bench", "second"))
	require.NoError(t, UpdateSection(path, "faults", "counts"))

	assert.Equal(t, "# Title\n\nIntro.\n\n<!-- BEGIN bench -->\nsecond\n<!-- END bench -->\n\nOutro.\n\n"+
		"<!-- BEGIN faults -->\ncounts\n<!-- END faults -->\n", mustRead(t, path))

	require.NoError(t, os.WriteFile(path, []byte("<!-- END bench -->\n<!-- BEGIN bench -->\n"), 0o600))
	require.ErrorContains(t, UpdateSection(path, "bench", "x"), "unbalanced")
}

func mustRead(t *testing.T, path string) string {
	t.Helper()

	content, err := os.ReadFile(path)
	require.NoError(t, err)

	return string(content)
}

// result is a run of n instances with the figures given.
func result(n int, plan, apply, refresh, destroy Phase) Result {
	plan.Name, apply.Name, refresh.Name, destroy.Name = PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy

	return Result{Instances: n, Phases: []Phase{plan, apply, refresh, destroy}}
}

// stats are sandbox counters of the routes given.
func stats(routes map[string]int) sandbox.Stats {
	total := 0
	for _, n := range routes {
		total += n
	}

	return sandbox.Stats{Total: total, Routes: routes}
}

// report is a benchmark of the region back end, without read lag and with 2 s of it,
// at 100 and 300 instances.
func report(applyWall time.Duration, applyRoutes map[string]int, refreshRequests int, changes []time.Duration, lagged Phase) *Report {
	refresh := Phase{Wall: time.Second, Requests: stats(map[string]int{"GET /api/v2/servers": refreshRequests}), PeakRSS: 30 << 20}
	plain := []Result{
		result(100,
			Phase{Wall: time.Second, Requests: stats(map[string]int{"GET /api/v2/networks/{networkID}": 3}), PeakRSS: 30 << 20},
			Phase{Wall: applyWall, Requests: stats(applyRoutes), PeakRSS: 30 << 20, Changes: changes},
			refresh,
			Phase{Wall: 7 * time.Second, Requests: stats(map[string]int{"DELETE /api/v2/servers/{serverID}": 100}), PeakRSS: 30 << 20}),
		result(300,
			Phase{Wall: 2 * time.Second, Requests: stats(map[string]int{"GET /api/v2/networks/{networkID}": 3}), PeakRSS: 40 << 20},
			Phase{Wall: 3 * applyWall, Requests: stats(applyRoutes), PeakRSS: 40 << 20, Changes: changes},
			Phase{Wall: 2 * time.Second, Requests: stats(map[string]int{"GET /api/v2/servers": refreshRequests}), PeakRSS: 40 << 20},
			Phase{Wall: 21 * time.Second, Requests: stats(map[string]int{"DELETE /api/v2/servers/{serverID}": 300}), PeakRSS: 40 << 20}),
	}

	withLag := slices.Clone(plain)
	withLag[0].Phases = slices.Clone(withLag[0].Phases)
	lagged.Name = PhaseRefresh
	withLag[0].Phases[2] = lagged

	r := &Report{
		Options: Options{
			Parallelism: 10, Repeats: 3, Latency: 25 * time.Millisecond,
			ProvisionDelay: 2 * time.Second, DeprovisionDelay: 500 * time.Millisecond,
			Backends: []string{BackendRegion},
		},
		PollPolicy: cloud.PollPolicy{Min: 250 * time.Millisecond, Max: 250 * time.Millisecond, Factor: 2},
		Series: []Series{
			{Config: Config{Workload: WorkloadBare, Backend: BackendRegion}, Results: plain},
			{Config: Config{Workload: WorkloadBare, Backend: BackendRegion, ReadLag: 2 * time.Second}, Results: withLag},
		},
	}
	r.PacedFloors = map[PacedFloorKey]*Walk{{Workload: WorkloadBare, Instances: 100}: pacedFloor(r, WorkloadBare, 500*time.Millisecond)}

	return r
}

func TestBoundsFollowTheWavesOfParallelWork(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil, Phase{})
	bare := func(backend string) Config { return Config{Workload: WorkloadBare, Backend: backend} }
	realistic := Config{Workload: WorkloadRealistic, Backend: BackendRegion}

	assert.Equal(t, 10*(2*time.Second+75*time.Millisecond), r.Bound(bare(BackendRegion), PhaseApply, 100))
	assert.Equal(t, 2*(2*time.Second+75*time.Millisecond), r.Bound(bare(BackendRegion), PhaseApply, 11))
	assert.Equal(t, 2*time.Second+50*time.Millisecond, r.Bound(bare(BackendCompute), PhaseApply, 1), "compute keeps the quota itself")
	assert.Equal(t, 250*time.Millisecond+10*(500*time.Millisecond+75*time.Millisecond), r.Bound(bare(BackendRegion), PhaseDestroy, 100),
		"the refresh destroy runs first, then the deletions")
	assert.Equal(t, 250*time.Millisecond, r.Bound(bare(BackendRegion), PhaseRefresh, 100))
	assert.Zero(t, r.Bound(bare(BackendRegion), PhasePlan, 100), "a plan has no bound")
	assert.InDelta(t, 10.0, r.PollingAllowance(), 1e-9, "2 s ÷ 250 ms + 2")

	assert.Equal(t, r.Bound(bare(BackendRegion), PhaseApply, 100)+3*(2*time.Second+75*time.Millisecond)+time.Second, r.Bound(realistic, PhaseApply, 100),
		"the network, then the groups and the storage, which reports its mount a second after it is provisioned, come first, and the load balancer last")
	assert.Equal(t, r.Bound(bare(BackendRegion), PhaseDestroy, 100)+3*(500*time.Millisecond+50*time.Millisecond), r.Bound(realistic, PhaseDestroy, 100),
		"the load balancer goes first, the groups and the storage, then the network, last")
	assert.Equal(t, 250*time.Millisecond+10*(2*time.Second+50*time.Millisecond), r.Bound(realistic, PhaseTags, 100),
		"a refresh, then waves of an update and a read")
}

// Under read lag a change is seen only once a read shows it: the floor lies between
// the bound plus the lags' mean and the bound plus their most, per wave, and grows
// with the caches a read passes.
func TestLagFloorAddsTheLagOfEveryCache(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil, Phase{})
	region := Config{Workload: WorkloadBare, Backend: BackendRegion, ReadLag: 2 * time.Second}
	compute := Config{Workload: WorkloadBare, Backend: BackendCompute, ReadLag: 2 * time.Second}

	bound := r.Bound(region, PhaseApply, 100)
	floor := r.LagFloor(region, PhaseApply, 100)

	assert.Greater(t, floor, bound+10*time.Second, "ten creations in a row per slot, each a second late on average")
	assert.Less(t, floor, bound+20*time.Second, "none later than the lag")
	assert.Equal(t, floor, r.LagFloor(region, PhaseApply, 100), "the same figures, the same floor")

	assert.Greater(t, r.LagFloor(compute, PhaseApply, 100)-r.Bound(compute, PhaseApply, 100), floor-bound+8*time.Second,
		"compute's changes pass two caches")

	assert.Zero(t, r.LagFloor(region, PhaseRefresh, 100), "a refresh waits for no change")
	region.ReadLag = 0
	assert.Zero(t, r.LagFloor(region, PhaseApply, 100), "no lag, no floor")
}

// A change is seen as the sandbox's cache shows it. An update, which shows
// provisioning with its write, is seen half a lag late on average per cache. A
// creation a little sooner: the controller taking it up halfway through its
// provisioning can start the cache's trail anew, and the trail's end is within a lag
// of its start. A deletion shorter than the lag later: the cache still trails its
// start (the object marked as deleting) when it ends.
func TestShownLateFollowsTheSandboxsCache(t *testing.T) {
	t.Parallel()

	random := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // a test's draws
	mean := func(caches int, write string, delay time.Duration) float64 {
		const draws = 100000

		changes := sandbox.ChangesAfter(write, delay)

		var total time.Duration
		for range draws {
			total += shownLate(random, caches, changes, 2*time.Second)
		}

		return (total / draws).Seconds()
	}

	provisioning, deprovisioning := 2*time.Second, 500*time.Millisecond

	assert.InDelta(t, 1.0, mean(1, sandbox.WriteUpdate, provisioning), 0.02, "an update through region's cache")
	assert.InDelta(t, 2.0, mean(2, sandbox.WriteUpdate, provisioning), 0.03, "and through compute's as well")
	assert.InDelta(t, 0.96, mean(1, sandbox.WriteCreate, provisioning), 0.02, "a creation through region's cache")
	assert.InDelta(t, 1.96, mean(2, sandbox.WriteCreate, provisioning), 0.03, "and through compute's as well")
	assert.InDelta(t, 1.09, mean(1, sandbox.WriteDelete, deprovisioning), 0.02, "a deletion through region's cache")
	assert.InDelta(t, 2.03, mean(2, sandbox.WriteDelete, deprovisioning), 0.03,
		"compute's cache, trailing the instance since its delete, shows it gone within a lag of that")
}

func TestTargetsAreJudgedFromTheFigures(t *testing.T) {
	t.Parallel()

	good := report(21*time.Second, map[string]int{
		"POST /api/v2/servers": 100, "GET /api/v2/servers": 600, "GET /api/v2/networks/{networkID}": 1,
	}, 5, []time.Duration{2100 * time.Millisecond, 2300 * time.Millisecond},
		Phase{Wall: 1050 * time.Millisecond, Requests: stats(map[string]int{"GET /api/v2/servers": 5}), PeakRSS: 30 << 20})

	for _, target := range good.bareTargets() {
		v := target.judge(BackendRegion)
		assert.True(t, v.met, "%s: %s", target.name, v.measured)
		assert.Equal(t, notMeasured, target.judge(BackendCompute), "%s: compute did not run", target.name)
	}

	for _, target := range append(good.realisticTargets(), good.scaleTargets()...) {
		assert.Equal(t, notMeasured, target.judge(BackendRegion), "%s: the realistic configuration and the walk did not run", target.name)
	}

	markdown := good.Markdown()
	assert.Contains(t, markdown, "| bare: apply of 100 instances within 1.05× its bound, and polling at most 2s ÷ 250ms + 2 = 10 requests per instance "+
		"| 1.01× (21.00 s against 20.75 s); 6.00 polls | met |")
	assert.Contains(t, markdown, "| bare: destroy of 100 instances within 1.25× its bound (its refresh included) | 1.17× (7.00 s against 6.00 s) | met |")
	assert.Contains(t, markdown, "| bare: apply and destroy of 100 instances within 1.05×, 1.25× of their bound plus what the paced floor provider "+
		"takes above its own | apply 0.99×, destroy 1.08× | met |", "the bound of region with what the floor took above compute's")
	assert.Contains(t, markdown, "### The paced floor provider, bare\n\nThe bare configuration of 100 instances")
	assert.Contains(t, markdown, "| apply | 21.00 s | 20.50 s | 0.50 s |")
	assert.Contains(t, markdown, "| bare: from 100 to 300 instances, plan and refresh time grow at most linearly (3×) | plan 2.00×, refresh 2.00× | met |")
	assert.Contains(t, markdown, `### bare, instance_api = "region", read lag 2s`)
	assert.Contains(t, markdown, "| `GET /api/v2/servers` | 6.00 | 2.00 |")
	assert.Contains(t, markdown, "| 100 | 1.00 s | 21.00 s | 32.87 s | 0.64× |", "held to the lag's floor under lag")

	bad := report(30*time.Second, map[string]int{
		"POST /api/v2/servers": 700, "GET /api/v2/servers/{serverID}": 1100,
	}, 150, []time.Duration{2700 * time.Millisecond},
		Phase{Wall: 2 * time.Second, Requests: stats(map[string]int{"GET /api/v2/servers": 150}), PeakRSS: 70 << 20, Lost: 1, Replaced: 2})
	bad.Series[0].Results[0].Phases[3].Wall = 8 * time.Second
	bad.Series[0].Results[1].Phases[0].Wall = 4 * time.Second

	for _, target := range bad.bareTargets() {
		v := target.judge(BackendRegion)
		assert.False(t, v.met, "%s: %s", target.name, v.measured)
	}

	delete(good.PacedFloors, PacedFloorKey{Workload: WorkloadBare, Instances: 100})
	assert.Equal(t, notMeasured, good.withinPacedFloor(WorkloadBare, bareWallFactors).judge(BackendRegion), "without the bare floor's walk")

	markdown = bad.Markdown()
	assert.Contains(t, markdown, "| bare: readiness noticed within 500ms (every instance created) | 650 ms at most | **not met** |")
	assert.Contains(t, markdown, "| with read lag, no instance lost or replaced (every configuration and count) | 1 lost, 2 replaced | **not met** |")
}

func TestPlannedChangesCountWhatWasLost(t *testing.T) {
	t.Parallel()

	output := strings.Join([]string{
		`{"type":"planned_change","change":{"resource":{"addr":"a.b[0]"},"action":"create"}}`,
		`{"type":"planned_change","change":{"resource":{"addr":"a.b[1]"},"action":"replace"}}`,
		`{"type":"change_summary","changes":{"add":2}}`,
	}, "\n")

	changes, err := readPlannedChanges([]byte(output))
	require.NoError(t, err)
	assert.Equal(t, plannedChanges{created: 1, replaced: 1}, changes)

	_, err = readPlannedChanges([]byte(`{"type":"planned_change","change":{"resource":{"addr":"a.b[2]"},"action":"update"}}`))
	require.ErrorContains(t, err, "a.b[2] (update)")
}

// A phase run several times shows its median wall time, but hides no request, no
// peak and no loss.
func TestMedianRunHidesNoPeakAndNoLoss(t *testing.T) {
	t.Parallel()

	runs := []Phase{
		{Wall: 3 * time.Second, PeakRSS: 10, Requests: sandbox.Stats{Total: 3}},
		{Wall: 1 * time.Second, PeakRSS: 50, Lost: 1, Requests: sandbox.Stats{Total: 1}},
		{Wall: 2 * time.Second, PeakRSS: 20, Replaced: 2, Requests: sandbox.Stats{Total: 2}},
	}

	kept := medianRun(runs)

	assert.Equal(t, 2*time.Second, kept.Wall)
	assert.Equal(t, 3, kept.Requests.Total, "the requests of the run that sent the most")
	assert.Equal(t, int64(50), kept.PeakRSS)
	assert.Equal(t, 1, kept.Lost)
	assert.Equal(t, 2, kept.Replaced)
	assert.Equal(t, 3*time.Second, runs[0].Wall, "the runs are left as they were")
}

// realisticRun is a realistic run of 100 instances on region at the figures given,
// and a walk of a thousand beside the floor provider's.
func realisticRun(wall time.Duration, perInstance, lagFactor float64, scalePlan time.Duration, scalePeak int64) *Report {
	r := report(0, nil, 0, nil, Phase{})
	config := Config{Workload: WorkloadRealistic, Backend: BackendRegion}
	lagged := config
	lagged.ReadLag = 2 * time.Second

	phase := func(name string, config Config) Phase {
		held := r.Bound(config, name, 100)
		if floor := r.LagFloor(config, name, 100); floor > 0 {
			held = time.Duration(lagFactor * float64(floor))
		} else {
			held = time.Duration(float64(held) * float64(wall) / float64(time.Second))
		}

		requests := int(perInstance * 100)
		if name == PhaseRefresh {
			requests = int(perInstance * 3)
		}

		return Phase{Name: name, Wall: held, Requests: stats(map[string]int{"GET /api/v2/servers": requests}), PeakRSS: 40 << 20}
	}

	for _, c := range []Config{config, lagged} {
		var phases []Phase
		for _, name := range []string{PhasePlan, PhaseApply, PhaseTags, PhaseRefresh, PhaseDestroy} {
			phases = append(phases, phase(name, c))
		}

		r.Series = append(r.Series, Series{Config: c, Results: []Result{{Instances: 100, Phases: phases}}})
	}

	r.Options.Scale = 1000
	r.Scale = []Walk{{Name: BackendRegion, Instances: 1000, Phases: []Phase{
		{Name: PhasePlan, Wall: scalePlan, PeakRSS: scalePeak}, {Name: PhaseRefresh, Wall: 12 * time.Second, PeakRSS: 90 << 20},
	}}}
	r.Floors = []Walk{{Name: FloorProvider, Instances: 1000, Phases: []Phase{
		{Name: PhasePlan, Wall: 10 * time.Second}, {Name: PhaseRefresh, Wall: 10 * time.Second},
	}}}
	r.PacedFloors = map[PacedFloorKey]*Walk{{Workload: WorkloadRealistic, Instances: 100}: pacedFloor(r, WorkloadRealistic, time.Second)}
	r.SandboxReads = []SandboxRead{
		{Name: "BenchmarkSandboxReadByID/region/objects=2000/lag=0s", PerOp: 40 * time.Microsecond},
		{Name: "BenchmarkSandboxReadByID/region/objects=2000/lag=2s", PerOp: scalePlan / 10000},
	}

	return r
}

// pacedFloor is a walk of the paced floor of workload that took above every bound of
// r by above.
func pacedFloor(r *Report, workload string, above time.Duration) *Walk {
	walk := &Walk{Name: FloorPaced, Instances: 100}

	for _, phase := range phases(workload, 100, r.Options.Parallelism) {
		walk.Phases = append(walk.Phases, Phase{Name: phase.name, Wall: r.Bound(pacedFloorBasis(workload, ""), phase.name, 100) + above})
	}

	return walk
}

// The paced floor waits what the bounds of the realistic configuration on compute
// count: its instances' waves, its stages, and the storage's mount.
func TestThePacedFloorWaitsWhatTheBoundsCount(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil, Phase{})
	pacing := floorPacing(r.Options, "")
	instances := pacing[instance.TypeName]
	// Every read lasts a round trip.
	roundTrip := r.Options.Latency
	stage := floor.Pace{Create: 2075 * time.Millisecond, Delete: 550 * time.Millisecond, Read: roundTrip}

	assert.Equal(t, floor.Pace{Create: 2050 * time.Millisecond, Update: 2050 * time.Millisecond, Delete: 550 * time.Millisecond, Read: roundTrip}, instances,
		"the provisioning or deprovisioning, the write and the read")

	for _, typeName := range []string{networking.NetworkTypeName, networking.SecurityGroupTypeName, networking.SSHCertificateAuthorityTypeName, loadbalancing.TypeName} {
		assert.Equal(t, stage, pacing[typeName], "%s: the provisioning or deprovisioning, the look-up, the write and the read", typeName)
	}

	assert.Equal(t, floor.Pace{Create: 3075 * time.Millisecond, Delete: 550 * time.Millisecond, Read: roundTrip}, pacing[storage.TypeName],
		"the storage until its mount is reported")

	// The configuration makes the network and the authority side by side; then the
	// groups and the storage; then, after the instances, the load balancer. Its
	// destroy goes the other way.
	inWaves := func(each time.Duration) time.Duration { return time.Duration(r.waves(100)) * each }
	stages := func(change func(floor.Pace) time.Duration) time.Duration {
		first := max(change(pacing[networking.NetworkTypeName]), change(pacing[networking.SSHCertificateAuthorityTypeName]))
		second := max(change(pacing[networking.SecurityGroupTypeName]), change(pacing[storage.TypeName]))

		return first + second + change(pacing[loadbalancing.TypeName])
	}
	// The bounds count the refresh's round trips of the instances, a wave at a time.
	basis := pacedFloorBasis(WorkloadRealistic, "")
	refresh := r.Bound(basis, PhaseRefresh, 100)

	assert.Equal(t, r.Bound(basis, PhaseApply, 100),
		inWaves(instances.Create)+stages(func(p floor.Pace) time.Duration { return p.Create }))
	assert.Equal(t, r.Bound(basis, PhaseTags, 100), refresh+inWaves(instances.Update))
	assert.Equal(t, r.Bound(basis, PhaseDestroy, 100),
		refresh+inWaves(instances.Delete)+stages(func(p floor.Pace) time.Duration { return p.Delete }))

	// The bare configuration is its instances alone.
	bare := pacedFloorBasis(WorkloadBare, "")
	assert.Equal(t, r.Bound(bare, PhaseApply, 100), inWaves(instances.Create))
	assert.Equal(t, r.Bound(bare, PhaseDestroy, 100), refresh+inWaves(instances.Delete))
}

// Walked beside region, the paced floor waits what region's bounds count for an
// instance: the quota's charge or release is a round trip any provider on that path
// must make, and compute's bounds leave it out; everything else waits as beside
// compute. Its walk's rows are set beside region's bounds.
func TestThePacedFloorBesideRegionWaitsWhatRegionsBoundsCount(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil, Phase{})
	alone, region := floorPacing(r.Options, ""), floorPacing(r.Options, BackendRegion)

	assert.Equal(t, alone[instance.TypeName].Create+r.Options.Latency, region[instance.TypeName].Create)
	assert.Equal(t, alone[instance.TypeName].Delete+r.Options.Latency, region[instance.TypeName].Delete)
	assert.Equal(t, alone[instance.TypeName].Update, region[instance.TypeName].Update, "a tag change charges nothing")
	assert.Equal(t, alone[instance.TypeName].Read, region[instance.TypeName].Read)

	for typeName, pace := range alone {
		if typeName != instance.TypeName {
			assert.Equal(t, pace, region[typeName], typeName)
		}
	}

	assert.Equal(t, r.Bound(Config{Workload: WorkloadBare, Backend: BackendRegion}, PhaseDestroy, 1),
		r.Bound(pacedFloorBasis(WorkloadBare, BackendRegion), PhaseDestroy, 1))

	key := PacedFloorKey{Workload: WorkloadBare, Instances: 1, Beside: BackendRegion}
	destroy := Phase{Name: PhaseDestroy, Wall: r.Bound(Config{Workload: WorkloadBare, Backend: BackendRegion}, PhaseDestroy, 1) + time.Second}
	assert.Equal(t, time.Second, r.aboveBound(key, &destroy), "measured against region's bound")
}

// The paced floor walks each configuration at every count of 1, 10 and 100 the run
// measures, and only with the floor provider at hand.
func TestThePacedFloorWalksEveryConfigurationAtTheCountsJudged(t *testing.T) {
	t.Parallel()

	options := Options{
		FloorDir: "floor", Workloads: []string{WorkloadBare, WorkloadRealistic},
		Counts: []int{1, 10, targetInstances, 300}, RealisticCounts: []int{300},
	}
	assert.Equal(t, []int{1, 10, targetInstances}, options.pacedFloorCounts(WorkloadBare), "300 is judged against no floor")
	assert.Empty(t, options.pacedFloorCounts(WorkloadRealistic), "the realistic configuration is not measured at a count judged")

	options.RealisticCounts = []int{10, targetInstances}
	assert.Equal(t, []int{10, targetInstances}, options.pacedFloorCounts(WorkloadRealistic))

	options.Workloads = []string{WorkloadRealistic}
	assert.Empty(t, options.pacedFloorCounts(WorkloadBare), "the bare configuration is not measured")

	options.FloorDir = ""
	assert.Empty(t, options.pacedFloorCounts(WorkloadRealistic), "no floor provider")
}

// Every resource type the paced floor's configuration makes is paced, by the name the
// provider serves it under, and nothing else is.
func TestThePacedFloorPacesEveryTypeItsConfigurationMakes(t *testing.T) {
	t.Parallel()

	config, err := pacedFloorConfig()
	require.NoError(t, err)

	made := map[string]bool{}
	for _, match := range regexp.MustCompile(`(?m)^resource "([a-z_]+)"`).FindAllStringSubmatch(config, -1) {
		made[match[1]] = true
	}

	paced := map[string]bool{}
	for typeName := range floorPacing(report(0, nil, 0, nil, Phase{}).Options, "") {
		paced[typeName] = true
	}

	assert.Equal(t, made, paced)
}

// What the paced floor takes above its bound, Terraform's and the framework's own
// time, is added to the realistic configuration's bounds, and nothing more is.
func TestThePacedFloorsTimeAboveItsBoundIsNotHeldAgainstTheProvider(t *testing.T) {
	t.Parallel()

	r := realisticRun(1100*time.Millisecond, 2.1, 1.03, 14*time.Second, 120<<20)
	config := Config{Workload: WorkloadRealistic, Backend: BackendRegion}

	for _, held := range realisticWallFactors {
		phase := r.phaseAt(config, 100, held.phase)
		phase.Wall = time.Duration(held.factor*float64(r.Bound(config, held.phase, 100))) + 2*time.Second
	}

	r.PacedFloors[PacedFloorKey{Workload: WorkloadRealistic, Instances: 100}] = pacedFloor(r, WorkloadRealistic, 2*time.Second)
	assert.Equal(t, 2*time.Second, r.AbovePacedFloor(WorkloadRealistic, 100, PhaseTags))
	assert.Zero(t, r.AbovePacedFloor(WorkloadBare, 100, PhaseApply), "the bare configuration's floor was not walked")
	assert.False(t, r.withinBound(WorkloadRealistic, PhaseTags, realisticTagsFactor, "").judge(BackendRegion).met)

	v := r.withinPacedFloor(WorkloadRealistic, realisticWallFactors).judge(BackendRegion)
	assert.True(t, v.met, v.measured)
	assert.Contains(t, r.Markdown(), "| tag change | 22.75 s | 20.75 s | 2.00 s | 0.00 s + 0.00 s |")
	assert.Contains(t, r.Markdown(), "each instance's create lasting 2.05s, each update 2.05s and each delete 550ms")

	// Under read lag too, the paced floor's share is added to the floor the lag imposes.
	lagged := config
	lagged.ReadLag = 2 * time.Second

	for _, phase := range []string{PhaseApply, PhaseTags, PhaseDestroy} {
		measured := r.phaseAt(lagged, 100, phase)
		measured.Wall = time.Duration(lagFloorFactor*float64(r.LagFloor(lagged, phase, 100))) + 2*time.Second
	}

	lagTargets := r.realisticTargets()[len(r.realisticTargets())-3:]
	assert.False(t, lagTargets[0].judge(BackendRegion).met, "held to the lag's floor alone")

	for _, held := range lagTargets[1:] {
		v = held.judge(BackendRegion)
		assert.True(t, v.met, v.measured)
		assert.Contains(t, held.name, "plus what the paced floor provider takes above its bound")
	}

	r.PacedFloors[PacedFloorKey{Workload: WorkloadRealistic, Instances: 100}] = pacedFloor(r, WorkloadRealistic, 1500*time.Millisecond)
	v = r.withinPacedFloor(WorkloadRealistic, realisticWallFactors).judge(BackendRegion)
	assert.False(t, v.met, v.measured)
	assert.False(t, lagTargets[1].judge(BackendRegion).met)

	delete(r.PacedFloors, PacedFloorKey{Workload: WorkloadRealistic, Instances: 100})
	assert.Equal(t, notMeasured, r.withinPacedFloor(WorkloadRealistic, realisticWallFactors).judge(BackendRegion))
	assert.Equal(t, notMeasured, lagTargets[1].judge(BackendRegion))
	assert.Equal(t, notMeasured, lagTargets[2].judge(BackendRegion))
}

// A reader that learns of a change only by reading sees it on its poll grid's first
// tick after a read could show it, half an interval late on average; and a deleted
// instance's miss in that tick's list is confirmed by a read of it by ID. Each slot's
// ten instances wait for that in turn, and so do the realistic configuration's stages.
func TestAPolledReaderSeesEachChangeOnItsNextTick(t *testing.T) {
	t.Parallel()

	r := realisticRun(1040*time.Millisecond, 2.1, 1.03, 14*time.Second, 120<<20)
	config := func(workload, backend string) Config {
		return Config{Workload: workload, Backend: backend, ReadLag: 2 * time.Second}
	}
	polledAbove := func(c Config, phase string) time.Duration {
		return r.PolledLagFloor(c, phase, 100) - r.LagFloor(c, phase, 100)
	}

	for _, backend := range []string{BackendCompute, BackendRegion} {
		// The same lags drawn, the slowest slot waits ten ticks at least, 125 ms each on
		// average; and a little more where another slot becomes the slowest.
		creations := polledAbove(config(WorkloadBare, backend), PhaseApply)
		assert.Greater(t, creations, 10*120*time.Millisecond, backend)
		assert.Less(t, creations, 10*125*time.Millisecond+200*time.Millisecond, backend)

		deletions := polledAbove(config(WorkloadBare, backend), PhaseDestroy)
		assert.InDelta(t, 0.25, (deletions - creations).Seconds(), 0.1, "%s confirms each of ten deletions by a read of it", backend)
	}

	stages := polledAbove(config(WorkloadRealistic, BackendRegion), PhaseApply) -
		polledAbove(config(WorkloadBare, BackendRegion), PhaseApply)
	assert.InDelta(t, 0.375, stages.Seconds(), 0.1, "the network, the groups and storage, and the load balancer, each on a tick")

	assert.Zero(t, r.PolledLagFloor(Config{Workload: WorkloadBare, Backend: BackendRegion}, PhaseApply, 100), "no lag, no floor")

	// A wall time above the floor the lag imposes but within the polled one is met by
	// the polled reader's target alone.
	lagged := config(WorkloadRealistic, BackendRegion)
	for _, phase := range []string{PhaseApply, PhaseTags, PhaseDestroy} {
		measured := r.phaseAt(lagged, 100, phase)
		measured.Wall = time.Duration(lagFloorFactor*float64(r.LagFloor(lagged, phase, 100))) + polledAbove(lagged, phase)/2 + r.AbovePacedFloor(WorkloadRealistic, 100, phase)
	}

	lagTargets := r.realisticTargets()[len(r.realisticTargets())-2:]
	assert.False(t, lagTargets[0].judge(BackendRegion).met, "held to the floor of a reader that sees every change at once")

	v := lagTargets[1].judge(BackendRegion)
	assert.True(t, v.met, v.measured)
	assert.Contains(t, lagTargets[1].name, "for a reader polling every 250ms plus what the paced floor provider takes above its bound")
}

// The targets for a realistic configuration, a thousand instances and the
// sandbox are judged from their figures, per back end.
func TestRealisticAndScaleTargetsAreJudged(t *testing.T) {
	t.Parallel()

	good := realisticRun(1040*time.Millisecond, 2.1, 1.03, 14*time.Second, 120<<20)

	for _, target := range append(good.realisticTargets(), good.scaleTargets()...) {
		v := target.judge(BackendRegion)
		assert.True(t, v.met, "%s: %s", target.name, v.measured)
	}

	markdown := good.Markdown()
	assert.Contains(t, markdown, "| realistic: apply of 100 instances: at most 3.6 requests per instance | 2.10 | met |")
	assert.Contains(t, markdown, "| 1,000 instances: plan and refresh within 1.5× the floor provider's, the provider's peak memory under 150 MiB | plan 1.40×, refresh 1.20×, 120.0 MiB | met |")
	assert.Contains(t, markdown, "| floor: floor provider | 10.00 s |")
	assert.Contains(t, markdown, "| `SandboxReadByID/region/objects=2000/lag=0s` | 0.040 ms |")
	assert.Contains(t, markdown, "### realistic, instance_api = \"region\", read lag 2s")
	assert.Contains(t, markdown, "| instances | plan | apply | lag floor | ÷ lag floor | tag change | lag floor | ÷ lag floor | refresh | bound | ÷ bound | destroy | lag floor | ÷ lag floor |")

	bad := realisticRun(1200*time.Millisecond, 4, 1.2, 30*time.Second, 160<<20)

	for _, target := range append(bad.realisticTargets(), bad.scaleTargets()...) {
		v := target.judge(BackendRegion)
		assert.False(t, v.met, "%s: %s", target.name, v.measured)
	}
}

func TestReadSandboxBenchmarkTakesEveryFigure(t *testing.T) {
	t.Parallel()

	path := filepath.Join(t.TempDir(), "sandbox.txt")
	require.NoError(t, os.WriteFile(path, []byte("goos: linux\n"+
		"BenchmarkSandboxReadByID/region/objects=2000/lag=0s-2         \t    2000\t     15857 ns/op\n"+
		"BenchmarkSandboxReadByID/compute/objects=2000/lag=2s-2        \t    2000\t   1538413.5 ns/op\n"+
		"PASS\n"), 0o600))

	reads, err := ReadSandboxBenchmark(path)
	require.NoError(t, err)
	assert.Equal(t, []SandboxRead{
		{Name: "BenchmarkSandboxReadByID/region/objects=2000/lag=0s", PerOp: 15857 * time.Nanosecond},
		{Name: "BenchmarkSandboxReadByID/compute/objects=2000/lag=2s", PerOp: 1538413 * time.Nanosecond},
	}, reads)

	require.NoError(t, os.WriteFile(path, []byte("PASS\n"), 0o600))
	_, err = ReadSandboxBenchmark(path)
	require.ErrorContains(t, err, "no benchmark figures")
}

// The configurations Terraform applies are the ones the report describes.
func TestRealisticConfigurationMakesWhatInstancesStandOn(t *testing.T) {
	t.Parallel()

	config, err := realisticConfig()
	require.NoError(t, err)

	for _, want := range []string{
		`resource "unikorn_network" "bench"`, `resource "unikorn_security_group" "ssh"`, `resource "unikorn_security_group" "web"`,
		`resource "unikorn_ssh_certificate_authority" "ops"`, "public_ip                    = count.index % 10 == 0",
		"generation = var.generation", `public_key = "ssh-ed25519 AAAA`,
		`resource "unikorn_file_storage" "shared"`, "attachments      = [unikorn_network.bench.id]",
		`unikorn_file_storage.shared.mounts[unikorn_network.bench.id].mount_source`,
		`resource "unikorn_load_balancer" "web"`, "for instance in unikorn_compute_instance.bench",
	} {
		assert.Contains(t, config, want)
	}

	// The paced floor walks the same configuration, but for the storage class, written
	// out, and the mount, named after the storage, which its instances still wait for.
	floorConfig, err := pacedFloorConfig()
	require.NoError(t, err)

	var kept []string
	for _, line := range strings.Split(config, "\n") {
		if !strings.Contains(line, "unikorn_file_storage_classes") && !strings.Contains(line, ".mount_source") &&
			!strings.HasPrefix(line, "  region_id = ") && !strings.HasPrefix(line, "  protocol  = ") {
			assert.Contains(t, floorConfig, line)
			kept = append(kept, line)
		}
	}

	assert.Greater(t, len(kept), 90, "nearly every line of the configuration")
	assert.NotContains(t, floorConfig, "data \"", "the floor serves no data source")
	assert.Contains(t, floorConfig, `${format("%s.nfs.example.com:/shared", unikorn_file_storage.shared.id)}`)

	names := func(phases []benchPhase) []string {
		var names []string
		for _, phase := range phases {
			names = append(names, phase.name)
		}

		return names
	}

	assert.Equal(t, []string{PhasePlan, PhaseApply, PhaseRefresh, PhaseDestroy}, names(phases(WorkloadBare, 10, 10)))

	realistic := phases(WorkloadRealistic, 10, 10)
	assert.Equal(t, []string{PhasePlan, PhaseApply, PhaseTags, PhaseRefresh, PhaseDestroy}, names(realistic))
	assert.Contains(t, realistic[2].args, "generation=2", "the tag change moves every instance's generation on")
	assert.NotContains(t, realistic[0].args, "generation=2", "the plan is of the first generation")
	assert.Contains(t, realistic[4].args, "generation=2", "the destroy plans nothing but the deletions")
}

// smallRun is a run of the region back end, without read lag, at the small counts the
// paced floor judges, each phase taking ratio times what the paced floor, walked
// beside it, took for it.
func smallRun(ratio float64) *Report {
	r := report(0, nil, 0, nil, Phase{})

	for _, key := range []PacedFloorKey{
		{WorkloadBare, 1, BackendRegion}, {WorkloadBare, 10, BackendRegion},
		{WorkloadRealistic, 10, BackendRegion}, {WorkloadPeer, peerInstances, BackendRegion},
	} {
		floorWalk := &Walk{Name: FloorPaced, Instances: key.Instances}
		measured := Result{Instances: key.Instances}

		for i, phase := range phases(key.Workload, key.Instances, r.Options.Parallelism) {
			wall := time.Duration(i+2) * time.Second
			floorWalk.Phases = append(floorWalk.Phases, Phase{Name: phase.name, Wall: wall})
			measured.Phases = append(measured.Phases, Phase{Name: phase.name, Wall: time.Duration(ratio * float64(wall))})
		}

		r.PacedFloors[key] = floorWalk

		config := baseline(key.Workload, BackendRegion)
		if series := r.series(config); series != nil {
			series.Results = append(series.Results, measured)
		} else {
			r.Series = append(r.Series, Series{Config: config, Results: []Result{measured}})
		}
	}

	return r
}

// At the small counts, each apply and destroy is held to what the paced floor took
// walked the same way, and to nothing else.
func TestSmallConfigurationsAreHeldToThePacedFloorWalkedTheSameWay(t *testing.T) {
	t.Parallel()

	good := smallRun(1.14)
	targets := good.smallTargets()
	require.NotEmpty(t, targets)

	for _, target := range targets {
		v := target.judge(BackendRegion)
		assert.True(t, v.met, "%s: %s", target.name, v.measured)
		assert.Equal(t, notMeasured, target.judge(BackendCompute), "%s: compute did not run", target.name)
	}

	markdown := good.Markdown()
	assert.Contains(t, markdown, "| bare: apply and destroy of 1 instance within 1.15× the paced floor provider's, walked the same way "+
		"| apply 1.14× (3.42 s ÷ 3.00 s), destroy 1.14× (5.70 s ÷ 5.00 s) | met |")
	assert.Contains(t, markdown, "| realistic: apply and destroy of 10 instances within 1.15× the paced floor provider's, walked the same way "+
		"| apply 1.14× (3.42 s ÷ 3.00 s), destroy 1.14× (6.84 s ÷ 6.00 s) | met |")
	assert.Contains(t, markdown, "| peer: apply, destroy (right after the apply) and destroy (settled) of 20 instances within 1.15× the paced floor "+
		"provider's, walked the same way | apply 1.14× (3.42 s ÷ 3.00 s), destroy (right after the apply) 1.14× (4.56 s ÷ 4.00 s), "+
		"destroy (settled) 1.14× (6.84 s ÷ 6.00 s) | met |", "both destroys, each against its own")
	assert.Contains(t, markdown, "### peer, instance_api = \"region\", no read lag\n\n20 instances in one security group")
	assert.Contains(t, markdown, "| destroy (settled) | 6.84 s | 6.00 s | 1.14× |")
	assert.Contains(t, markdown, "| 20 | `region` | apply again | 5.00 s |  |  |", "the paced floor's peer walk, held to no bound")
	assert.Contains(t, markdown, "and its security group created in 2.075s and deleted in 550ms: what the bounds")
	assert.Contains(t, markdown, "### The paced floor provider, bare\n\nThe bare configuration of 1, 10 and 100 instances")
	assert.Contains(t, markdown, "| 1 | `region` | apply | 3.00 s | 2.08 s | 0.93 s |", "beside region, region's bounds")
	assert.Contains(t, markdown, "| 10 | `region` | destroy | 5.00 s | 0.60 s | 4.40 s |")
	assert.Contains(t, markdown, "each delete 550ms (walked beside `region`, 2.075s and 575ms: its bounds count the quota's charge and release as well)")
	assert.Contains(t, markdown, "| 100 | — | apply | 21.00 s | 20.50 s | 0.50 s |")

	for _, target := range smallRun(1.16).smallTargets() {
		v := target.judge(BackendRegion)
		assert.False(t, v.met, "%s: %s", target.name, v.measured)
	}

	// One phase alone above its floor fails the target.
	oneSlow := smallRun(1.0)
	oneSlow.phaseAt(baseline(WorkloadBare, BackendRegion), 10, PhaseDestroy).Wall = 5800 * time.Millisecond
	assert.True(t, oneSlow.smallTargets()[0].judge(BackendRegion).met, "a single instance is judged on its own walk")
	assert.False(t, oneSlow.smallTargets()[1].judge(BackendRegion).met, "the destroy of 10 is 1.16× its floor's")

	// The peer's destroy right after the apply is held to the floor's own, not to
	// the settled one's.
	oneSlow.phaseAt(baseline(WorkloadPeer, BackendRegion), peerInstances, PhaseDestroyRightAfter).Wall = 4700 * time.Millisecond
	v := oneSlow.smallTargets()[3].judge(BackendRegion)
	assert.False(t, v.met, v.measured)
	assert.Contains(t, v.measured, "destroy (right after the apply) 1.18× (4.70 s ÷ 4.00 s), destroy (settled) 1.00×")

	// Without the floor's walk beside it, or the provider's phase, nothing is judged.
	// Nor by the floor walked beside another back end.
	good.PacedFloors[PacedFloorKey{WorkloadBare, 10, BackendCompute}] = &Walk{Name: FloorPaced, Instances: 10, Phases: []Phase{
		{Name: PhaseApply, Wall: 20 * time.Second}, {Name: PhaseDestroy, Wall: 20 * time.Second},
	}}
	delete(good.PacedFloors, PacedFloorKey{WorkloadBare, 10, BackendRegion})
	assert.Equal(t, notMeasured, good.smallTargets()[1].judge(BackendRegion))
	assert.True(t, good.smallTargets()[0].judge(BackendRegion).met)

	result := good.series(baseline(WorkloadRealistic, BackendRegion)).Result(10)
	result.Phases = slices.DeleteFunc(result.Phases, func(p Phase) bool { return p.Name == PhaseDestroy })
	assert.Equal(t, notMeasured, good.smallTargets()[2].judge(BackendRegion))

	peer := good.series(baseline(WorkloadPeer, BackendRegion)).Result(peerInstances)
	peer.Phases = slices.DeleteFunc(peer.Phases, func(p Phase) bool { return p.Name == PhaseDestroySettled })
	assert.Equal(t, notMeasured, good.smallTargets()[3].judge(BackendRegion), "the settled destroy is judged too")

	// A back end the configuration does not run on is no target of it.
	good.Series = slices.DeleteFunc(good.Series, func(s Series) bool { return s.Config.Workload == WorkloadPeer })
	inapplicable := good.smallTargets()[3].judge(BackendRegion)
	assert.True(t, inapplicable.inapplicable, "the peer configuration runs on compute alone: %+v", inapplicable)
	assert.Equal(t, notMeasured, good.smallTargets()[3].judge(BackendCompute), "compute's peer run is missing")
}

// The peer configuration is taken as `terraform test` takes it: destroyed the moment
// its apply ends, with nothing between (no refresh, no wait), then applied again and
// destroyed once its objects have had peerSettle to settle. Every phase runs once.
func TestThePeerConfigurationIsDestroyedRightAfterItsApplyThenSettled(t *testing.T) {
	t.Parallel()

	peer := phases(WorkloadPeer, peerInstances, 10)

	var names []string
	for _, phase := range peer {
		names = append(names, phase.name)
		assert.False(t, phase.changesNothing && phase.name != PhasePlan, "%s changes what the next phase finds", phase.name)
	}

	require.Equal(t, []string{PhasePlan, PhaseApply, PhaseDestroyRightAfter, PhaseReapply, PhaseDestroySettled}, names)

	right, again, settled := peer[2], peer[3], peer[4]
	assert.Equal(t, "destroy", right.args[0])
	assert.Equal(t, "delete", right.action)
	assert.Zero(t, right.settle, "nothing waits between the apply and its destroy")
	assert.Equal(t, []string{"apply", "-auto-approve", "-json"}, again.args[:3], "planned and applied in one command")
	assert.Equal(t, "create", again.action)
	assert.Equal(t, 5*time.Second, settled.settle, "the objects settle before the second destroy")
	assert.Equal(t, right.args, settled.args, "the two destroys differ by when they run alone")

	// The peer configuration: compute's path without read lag, 20 instances in one
	// group with three tags each, walked on the paced floor at its one count.
	options := Options{
		FloorDir: "floor", Workloads: []string{WorkloadPeer}, Counts: []int{1, 100},
		Backends: []string{BackendCompute, BackendRegion}, ReadLags: []time.Duration{0, 2 * time.Second},
	}
	assert.Equal(t, []int{peerInstances}, options.counts(WorkloadPeer), "whatever the bare configuration's counts")
	assert.Equal(t, []int{peerInstances}, options.pacedFloorCounts(WorkloadPeer))
	assert.True(t, options.runs(Config{Workload: WorkloadPeer, Backend: BackendCompute}))
	assert.False(t, options.runs(Config{Workload: WorkloadPeer, Backend: BackendRegion}))
	assert.False(t, options.runs(Config{Workload: WorkloadPeer, Backend: BackendCompute, ReadLag: 2 * time.Second}))
	assert.True(t, options.runs(Config{Workload: WorkloadBare, Backend: BackendRegion, ReadLag: 2 * time.Second}))

	options.Backends = []string{BackendRegion}
	assert.Empty(t, options.pacedFloorCounts(WorkloadPeer), "compute's path is not measured")

	config := peerConfig()
	assert.Equal(t, 1, strings.Count(config, `resource "unikorn_security_group"`))
	assert.Contains(t, config, "security_group_ids = [unikorn_security_group.peer.id]")
	assert.Equal(t, 3, strings.Count(strings.SplitAfter(config, "tags = {")[1], " = "), "three tags")
	assert.NotContains(t, config, "data \"", "the paced floor walks it as it is")
}

// A phase's settle is waited out before it runs, and left out of its wall time.
func TestRunPhasesWaitsOutTheSettleOutsideTheWallTime(t *testing.T) {
	t.Parallel()

	binary, err := exec.LookPath("true")
	require.NoError(t, err)

	settle := 300 * time.Millisecond
	start := time.Now()
	measured, err := runPhases(context.Background(), &terraform{binary: binary, dir: t.TempDir()}, nil,
		[]benchPhase{{name: PhaseDestroySettled, args: []string{"destroy"}, settle: settle}}, 0, 1, io.Discard)
	require.NoError(t, err)

	// However slow the machine, the settle comes on top of the phase's wall time.
	assert.GreaterOrEqual(t, time.Since(start), settle+measured[0].Wall)
}

// A small configuration lives through its phases smallLives times and each phase's
// median run is kept, so that one run slowed by a busy machine decides nothing; a
// large one lives once.
func TestASmallConfigurationKeepsTheMedianOfItsLives(t *testing.T) {
	t.Parallel()

	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	// A Terraform whose first command is slow.
	script := filepath.Join(dir, "terraform")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho x >> "+calls+"\n"+
		"if [ \"$(wc -l < "+calls+")\" -eq 1 ]; then sleep 1; fi\n"), 0o700)) //nolint:gosec // a script the test runs

	destroy := []benchPhase{{name: PhaseDestroy, args: []string{"destroy"}}}

	measured, floorMeasured, err := runLives(context.Background(), &terraform{binary: script, dir: dir}, nil, nil, destroy, 1, 1, io.Discard)
	require.NoError(t, err)

	lines, err := os.ReadFile(calls)
	require.NoError(t, err)
	assert.Equal(t, smallLives, strings.Count(string(lines), "\n"), "every life ran")
	assert.Less(t, measured[0].Wall, time.Second, "the slow first life is not the median")
	assert.Nil(t, floorMeasured, "no floor walked beside it")

	require.NoError(t, os.Remove(calls))

	_, _, err = runLives(context.Background(), &terraform{binary: script, dir: dir}, nil, nil, destroy, targetInstances, 1, io.Discard)
	require.NoError(t, err)

	lines, err = os.ReadFile(calls)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(lines), "\n"), "100 instances live once")
}

// A floor walked beside a small configuration lives as often, a life of its between
// two of the provider's, the two taking turns to go first, so that neither meets the
// machine alone in its quieter or busier minutes; each keeps its own medians.
func TestThePacedFloorTakesTurnsWithTheProvidersLives(t *testing.T) {
	t.Parallel()

	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	walker := func(name string, pause time.Duration) *terraform {
		script := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\necho %s >> %s\nsleep %g\n", name, calls, pause.Seconds())), 0o700)) //nolint:gosec // a script the test runs

		return &terraform{binary: script, dir: dir}
	}

	destroy := []benchPhase{{name: PhaseDestroy, args: []string{"destroy"}}}

	measured, floorMeasured, err := runLives(context.Background(), walker("provider", 0), nil, walker("floor", 300*time.Millisecond),
		destroy, 10, 1, io.Discard)
	require.NoError(t, err)

	lines, err := os.ReadFile(calls)
	require.NoError(t, err)
	assert.Equal(t, "provider floor floor provider provider floor", strings.Join(strings.Fields(string(lines)), " "))

	require.Len(t, floorMeasured, 1)
	assert.GreaterOrEqual(t, floorMeasured[0].Wall, 300*time.Millisecond, "the floor's own runs")
	assert.Less(t, measured[0].Wall, floorMeasured[0].Wall, "the provider's own runs")
}
