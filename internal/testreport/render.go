package testreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Render copies the events of r to record unchanged and writes to w what a plain
// `go test` would have printed: a line per package as it ends, the whole output of
// every test that failed, and whatever was printed outside a package's tests (a
// build's errors, a panic), each line after prefix, so that passes running side by
// side can be told apart. It returns whether any package or test failed.
func Render(r io.Reader, record, w io.Writer, prefix string) (bool, error) {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)

	// The output of each running test, printed only if it fails.
	pending := map[string]*strings.Builder{}
	failed := false

	say := func(text string) {
		for line := range strings.Lines(text) {
			fmt.Fprint(w, prefix+line)

			if !strings.HasSuffix(line, "\n") {
				fmt.Fprintln(w)
			}
		}
	}

	for scanner.Scan() {
		line := scanner.Bytes()
		if _, err := record.Write(append(line, '\n')); err != nil {
			return failed, err
		}

		var e Event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event: go test's own words, such as a build error.
			say(string(line) + "\n")

			continue
		}

		key := e.Package + " " + e.Test

		switch {
		case e.Action == "output" && e.Test != "":
			// The framing of a verbose run (=== RUN, PAUSE, CONT), which a plain one lacks.
			if strings.HasPrefix(e.Output, "=== ") {
				continue
			}

			if pending[key] == nil {
				pending[key] = &strings.Builder{}
			}

			pending[key].WriteString(e.Output)
		case e.Action == "output" || e.Action == "build-output":
			// The package's own lines: its ok or FAIL, and what it printed outside
			// its tests; the verbose framing of each test is not among them.
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				say(e.Output)
			}
		case e.Action == "fail" && e.Test != "":
			failed = true

			if out := pending[key]; out != nil {
				say(out.String())
			}

			delete(pending, key)
		case e.Action == "fail":
			failed = true
		case e.Action == "pass" || e.Action == "skip":
			delete(pending, key)
		}
	}

	return failed, scanner.Err()
}
