// Package testreport reads what `go test -json` prints: it renders a run as a plain
// `go test` would (a line per package, the output of failed tests), and tells where the
// time of a run went, per package and per test, so that what sets the pace of
// `make test` is measured rather than guessed.
package testreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
)

// Event is one line of `go test -json` (see `go doc test2json`).
type Event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// Result is how a test or a package ended.
type Result struct {
	Package string
	// Test is empty for the package itself.
	Test    string
	Action  string // pass, fail or skip
	Elapsed time.Duration
}

// Run is one pass of `go test -json`: every package and test that ended, and when the
// pass began and ended.
type Run struct {
	Name     string
	Packages []Result
	Tests    []Result
	First    time.Time
	Last     time.Time

	// began is when each running test began or, parallel, resumed.
	began map[string]time.Time
}

// Read gathers a run from the events of r; lines that are not events (what a
// build printed before the tests began, say) are ignored.
func Read(name string, r io.Reader) (*Run, error) {
	run := &Run{Name: name}
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)

	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}

		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			continue
		}

		run.add(e)
	}

	return run, scanner.Err()
}

func (r *Run) add(e Event) {
	if !e.Time.IsZero() {
		if r.First.IsZero() || e.Time.Before(r.First) {
			r.First = e.Time
		}

		if e.Time.After(r.Last) {
			r.Last = e.Time
		}
	}

	key := e.Package + " " + e.Test

	switch e.Action {
	case "run", "cont":
		if r.began == nil {
			r.began = map[string]time.Time{}
		}

		r.began[key] = e.Time

		return
	case "pass", "fail", "skip":
	default:
		return
	}

	// A parallel test's Elapsed leaves out its parallel subtests, which may be all it
	// does; from when it resumed to when it ended is what it held the run for.
	elapsed := seconds(e.Elapsed)
	if began, ok := r.began[key]; ok && e.Test != "" && !e.Time.IsZero() {
		elapsed = max(elapsed, e.Time.Sub(began).Round(10*time.Millisecond))
	}

	result := Result{Package: e.Package, Test: e.Test, Action: e.Action, Elapsed: elapsed}
	if e.Test == "" {
		r.Packages = append(r.Packages, result)
	} else {
		r.Tests = append(r.Tests, result)
	}
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(10 * time.Millisecond)
}

// Wall is how long the run took, from its first event to its last.
func (r *Run) Wall() time.Duration {
	return r.Last.Sub(r.First).Round(time.Second)
}

// Counts are the tests of a run by how they ended.
type Counts struct {
	Passed, Failed, Skipped int
}

func (c Counts) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
}

func (c *Counts) add(action string) {
	switch action {
	case "pass":
		c.Passed++
	case "fail":
		c.Failed++
	case "skip":
		c.Skipped++
	}
}

// Count counts the run's top-level tests (functions) and all its tests, subtests
// included.
func (r *Run) Count() (top, all Counts) {
	for _, t := range r.Tests {
		all.add(t.Action)

		if !strings.Contains(t.Test, "/") {
			top.add(t.Action)
		}
	}

	return top, all
}

// Slowest returns the n slowest results of rs, slowest first; ties by name.
func Slowest(rs []Result, n int) []Result {
	sorted := append([]Result(nil), rs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Elapsed != sorted[j].Elapsed {
			return sorted[i].Elapsed > sorted[j].Elapsed
		}

		return sorted[i].Package+" "+sorted[i].Test < sorted[j].Package+" "+sorted[j].Test
	})

	if n >= 0 && len(sorted) > n {
		sorted = sorted[:n]
	}

	return sorted
}

// TopLevel returns the results of test functions, leaving subtests out.
func TopLevel(rs []Result) []Result {
	var top []Result

	for _, r := range rs {
		if !strings.Contains(r.Test, "/") {
			top = append(top, r)
		}
	}

	return top
}

// Table writes where the run's time went: its wall time and counts, the packages
// that took at least minimum, slowest first, and the n slowest test functions.
func (r *Run) Table(w io.Writer, n int, minimum time.Duration) {
	top, all := r.Count()

	fmt.Fprintf(w, "%s: %s wall; tests: %s (with subtests: %s)\n", r.Name, r.Wall(), top, all)

	var packages []Result

	for _, p := range Slowest(r.Packages, -1) {
		if p.Elapsed >= minimum || p.Action == "fail" {
			packages = append(packages, p)
		}
	}

	fmt.Fprintf(w, "  packages taking %s or more (%d of %d):\n", minimum, len(packages), len(r.Packages))

	for _, p := range packages {
		fmt.Fprintf(w, "    %8.1fs  %-4s  %s\n", p.Elapsed.Seconds(), p.Action, short(p.Package))
	}

	fmt.Fprintf(w, "  slowest tests:\n")

	for _, t := range Slowest(TopLevel(r.Tests), n) {
		fmt.Fprintf(w, "    %8.1fs  %-4s  %s %s\n", t.Elapsed.Seconds(), t.Action, short(t.Package), t.Test)
	}
}

// short drops the module's path from a package's import path.
func short(pkg string) string {
	if i := strings.Index(pkg, "/internal/"); i >= 0 {
		return pkg[i+1:]
	}

	if i := strings.Index(pkg, "/cmd/"); i >= 0 {
		return pkg[i+1:]
	}

	return path.Base(pkg)
}
