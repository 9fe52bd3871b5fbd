package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of go test -json.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// report is what the acceptance tests did, per test.
type report struct {
	passed, failed, skipped []string
	// output is each test's output, for the failures and the skips' reasons.
	output map[string]*strings.Builder
	// packageFailed are packages that failed outside any test (a build, a panic).
	packageFailed []string
}

// readEvents reads go test -json, echoing the tests' output when verbose.
func readEvents(r io.Reader, verbose bool) *report {
	rep := &report{output: map[string]*strings.Builder{}}
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)

	for scanner.Scan() {
		var e event
		if err := json.Unmarshal(scanner.Bytes(), &e); err != nil {
			fmt.Fprintln(os.Stderr, scanner.Text())

			continue
		}

		name := e.Test

		switch e.Action {
		case "output":
			if verbose {
				fmt.Fprint(os.Stderr, e.Output)
			}

			if name != "" {
				if rep.output[name] == nil {
					rep.output[name] = &strings.Builder{}
				}

				rep.output[name].WriteString(e.Output)
			}
		case "pass":
			if name != "" {
				rep.passed = append(rep.passed, name)
			}
		case "skip":
			if name != "" {
				rep.skipped = append(rep.skipped, name)
			}
		case "fail":
			if name != "" {
				rep.failed = append(rep.failed, name)
			} else {
				rep.packageFailed = append(rep.packageFailed, e.Package)
			}
		}
	}

	return rep
}

// skipLine is the line a skipping test prints: file:line: reason.
var skipLine = regexp.MustCompile(`^\s*\S+\.go:\d+: (.*)$`)

// reason is what a skipped test said, its last file:line line.
func (r *report) reason(name string) string {
	reason := ""

	if out := r.output[name]; out != nil {
		for _, line := range strings.Split(out.String(), "\n") {
			if m := skipLine.FindStringSubmatch(line); m != nil {
				reason = m[1]
			}
		}
	}

	return reason
}

// print summarizes the run and reports whether it passed: no test failed, and every
// test that skipped itself is named in skips.go.
func (r *report) print() bool {
	unlisted := []string{}

	for _, name := range r.skipped {
		if !listed(name) {
			unlisted = append(unlisted, name)
		}
	}

	sort.Strings(r.failed)
	sort.Strings(unlisted)

	fmt.Printf("\nacceptance tests against real region: %d passed, %d failed, %d skipped themselves, besides those skips.go's %d entries name\n",
		len(r.passed), len(r.failed)+len(r.packageFailed), len(r.skipped), len(skips))

	for _, name := range r.failed {
		fmt.Printf("\nFAIL %s\n%s", name, r.output[name])
	}

	for _, name := range r.packageFailed {
		fmt.Printf("\nFAIL package %s\n", name)
	}

	for _, name := range unlisted {
		fmt.Printf("\nSKIPPED WITHOUT AN ENTRY IN skips.go: %s: %s\n", name, r.reason(name))
	}

	return len(r.failed) == 0 && len(r.packageFailed) == 0 && len(unlisted) == 0
}
