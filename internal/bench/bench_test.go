package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
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

	return &Report{
		Options: Options{
			Parallelism: 10, Repeats: 3, Latency: 25 * time.Millisecond,
			ProvisionDelay: 2 * time.Second, DeprovisionDelay: 500 * time.Millisecond,
			Backends: []string{BackendRegion},
		},
		PollPolicy: cloud.PollPolicy{Min: 250 * time.Millisecond, Max: 250 * time.Millisecond, Factor: 2},
		Series: []Series{
			{Config: Config{Backend: BackendRegion}, Results: plain},
			{Config: Config{Backend: BackendRegion, ReadLag: 2 * time.Second}, Results: withLag},
		},
	}
}

func TestBoundsFollowTheWavesOfParallelWork(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil, Phase{})

	assert.Equal(t, 10*(2*time.Second+75*time.Millisecond), r.ApplyBound(BackendRegion, 100))
	assert.Equal(t, 2*(2*time.Second+75*time.Millisecond), r.ApplyBound(BackendRegion, 11))
	assert.Equal(t, 2*time.Second+50*time.Millisecond, r.ApplyBound(BackendCompute, 1), "compute keeps the quota itself")
	assert.Equal(t, 250*time.Millisecond+10*(500*time.Millisecond+75*time.Millisecond), r.DestroyBound(BackendRegion, 100),
		"the refresh destroy runs first, then the deletions")
	assert.Equal(t, 250*time.Millisecond, r.RefreshBound(100))
	assert.InDelta(t, 10.0, r.PollingAllowance(), 1e-9, "2 s ÷ 250 ms + 2")
}

func TestTargetsAreJudgedFromTheFigures(t *testing.T) {
	t.Parallel()

	good := report(21*time.Second, map[string]int{
		"POST /api/v2/servers": 100, "GET /api/v2/servers": 600, "GET /api/v2/networks/{networkID}": 1,
	}, 5, []time.Duration{2100 * time.Millisecond, 2300 * time.Millisecond},
		Phase{Wall: 1050 * time.Millisecond, Requests: stats(map[string]int{"GET /api/v2/servers": 5}), PeakRSS: 30 << 20})

	for _, target := range good.targets() {
		v := target.judge(BackendRegion)
		assert.True(t, v.met, "%s: %s", target.name, v.measured)
		assert.Equal(t, notMeasured, target.judge(BackendCompute), "%s: compute did not run", target.name)
	}

	markdown := good.Markdown()
	assert.Contains(t, markdown, "| apply of 100 instances within 1.05× its bound, and polling at most 2s ÷ 250ms + 2 = 10 requests per instance "+
		"| 1.01× (21.00 s against 20.75 s); 6.00 polls | met |")
	assert.Contains(t, markdown, "| destroy of 100 instances within 1.25× its bound (its refresh included) | 1.17× (7.00 s against 6.00 s) | met |")
	assert.Contains(t, markdown, "| from 100 to 300 instances, plan and refresh time grow at most linearly (3×) | plan 2.00×, refresh 2.00× | met |")
	assert.Contains(t, markdown, "worst +5 % (wall time of refresh, 100 instances, lag 2s)")
	assert.Contains(t, markdown, `### instance_api = "region", read lag 2s`)
	assert.Contains(t, markdown, "| `GET /api/v2/servers` | 6.00 | 2.00 |")
	assert.NotContains(t, markdown, "not met")

	bad := report(30*time.Second, map[string]int{
		"POST /api/v2/servers": 700, "GET /api/v2/servers/{serverID}": 1100,
	}, 150, []time.Duration{2700 * time.Millisecond},
		Phase{Wall: 2 * time.Second, Requests: stats(map[string]int{"GET /api/v2/servers": 150}), PeakRSS: 70 << 20, Lost: 1, Replaced: 2})
	bad.Series[0].Results[0].Phases[3].Wall = 8 * time.Second
	bad.Series[0].Results[1].Phases[0].Wall = 4 * time.Second

	for _, target := range bad.targets() {
		v := target.judge(BackendRegion)
		assert.False(t, v.met, "%s: %s", target.name, v.measured)
	}

	markdown = bad.Markdown()
	assert.Contains(t, markdown, "| readiness noticed within 500ms (every instance created) | 650 ms at most | **not met** |")
	assert.Contains(t, markdown, "| with read lag, no instance lost or replaced (every count) | 1 lost, 2 replaced | **not met** |")
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
