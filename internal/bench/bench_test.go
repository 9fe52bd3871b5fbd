package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

func TestParseStatFindsTheParentBehindAnAwkwardName(t *testing.T) {
	t.Parallel()

	comm, ppid, err := parseStat([]byte("4242 (odd) name (x)) S 17 4242 4242 0 -1 4194560"))
	require.NoError(t, err)
	assert.Equal(t, "odd) name (x)", comm)
	assert.Equal(t, 17, ppid)

	_, _, err = parseStat([]byte("4242 no-parentheses S 17"))
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

	peak, processes := watch.Stop()
	assert.Equal(t, 1, processes)
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

// report is a benchmark of 100 instances with the figures given.
func report(applyWall time.Duration, applyRoutes map[string]int, refreshRequests int, changes []time.Duration) *Report {
	total := 0
	for _, n := range applyRoutes {
		total += n
	}

	phase := func(name string, wall time.Duration, stats sandbox.Stats, changes []time.Duration) Phase {
		return Phase{Name: name, Wall: wall, Requests: stats, PeakRSS: 30 << 20, Changes: changes}
	}

	return &Report{
		Options: Options{
			Parallelism: 10, Latency: 25 * time.Millisecond,
			ProvisionDelay: 2 * time.Second, DeprovisionDelay: 500 * time.Millisecond,
		},
		PollPolicy: compute.PollPolicy{Min: 200 * time.Millisecond, Max: 400 * time.Millisecond, Factor: 2},
		Results: []Result{{Instances: 100, Phases: []Phase{
			phase(PhasePlan, time.Second, sandbox.Stats{Total: 3, Routes: map[string]int{"GET /api/v2/networks/{networkID}": 3}}, nil),
			phase(PhaseApply, applyWall, sandbox.Stats{Total: total, Routes: applyRoutes}, changes),
			phase(PhaseRefresh, time.Second, sandbox.Stats{Total: refreshRequests, Routes: map[string]int{"GET /api/v2/servers": refreshRequests}}, nil),
			phase(PhaseDestroy, time.Second, sandbox.Stats{Total: 300, Routes: map[string]int{"DELETE /api/v2/servers/{serverID}": 300}}, nil),
		}}},
	}
}

func TestBoundsFollowTheWavesOfParallelWork(t *testing.T) {
	t.Parallel()

	r := report(0, nil, 0, nil)

	assert.Equal(t, 10*(2*time.Second+75*time.Millisecond), r.ApplyBound(100))
	assert.Equal(t, 2*(2*time.Second+75*time.Millisecond), r.ApplyBound(11))
	assert.Equal(t, 2*time.Second+75*time.Millisecond, r.ApplyBound(1))
	assert.Equal(t, 10*(500*time.Millisecond+75*time.Millisecond), r.DestroyBound(100))
	assert.Equal(t, 250*time.Millisecond, r.RefreshBound(100))
	assert.InDelta(t, 7.0, r.PollingAllowance(), 1e-9, "2 s ÷ 400 ms + 2")
}

func TestTargetsAreJudgedFromTheFigures(t *testing.T) {
	t.Parallel()

	good := report(22*time.Second, map[string]int{
		"POST /api/v2/servers": 100, "GET /api/v2/servers": 60, "GET /api/v2/networks/{networkID}": 1,
	}, 20, []time.Duration{2100 * time.Millisecond, 2300 * time.Millisecond})

	for _, target := range good.targets() {
		assert.True(t, target.met, "%s: %s", target.name, target.measured)
	}

	markdown := good.Markdown()
	assert.Contains(t, markdown, "| apply of 100 instances within 1.2× its bound | 1.06× (22.00 s against 20.75 s) | met |")
	assert.Contains(t, markdown, "| `GET /api/v2/servers` | 0.60 |")
	assert.NotContains(t, markdown, "missed")

	bad := report(30*time.Second, map[string]int{
		"POST /api/v2/servers": 700, "GET /api/v2/servers/{serverID}": 800,
	}, 150, []time.Duration{2700 * time.Millisecond})

	for _, target := range bad.targets() {
		assert.False(t, target.met, "%s: %s", target.name, target.measured)
	}

	assert.Contains(t, bad.Markdown(), "| readiness noticed within 500ms | 650 ms at most (of every instance created) | **missed** |")
}
