// Command unikorn-testreport runs a pass of `go test -json` and tells where the time of
// passes went (see internal/testreport). `make test` runs each of its passes under it
// and prints the table at its end.
//
//	unikorn-testreport run -name terraform -json out/terraform.json -- go test -json ./...
//	unikorn-testreport table [-top 15] [-min 10s] out/terraform.json out/tofu.json
//
// run prints what a plain `go test` would, each line after the pass's name, records
// the events in the -json file, and exits as the command did (1 if a test failed
// though it did not). table prints, per file, the pass's wall time, its tests passed,
// failed and skipped, its slowest packages and its slowest tests.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/testreport"
)

func main() {
	code, err := dispatch(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "unikorn-testreport:", err)
	}

	os.Exit(code)
}

func dispatch(args []string) (int, error) {
	if len(args) == 0 {
		return 2, errors.New("usage: unikorn-testreport run|table …")
	}

	switch args[0] {
	case "run":
		return run(args[1:])
	case "table":
		return 0, table(args[1:])
	default:
		return 2, fmt.Errorf("unknown command %q: run or table", args[0])
	}
}

func run(args []string) (int, error) {
	flags := flag.NewFlagSet("run", flag.ContinueOnError)
	name := flags.String("name", "", "the pass's name, before each line it prints")
	record := flags.String("json", "", "file to record the events in")

	if err := flags.Parse(args); err != nil {
		return 2, err
	}

	command := flags.Args()
	if len(command) == 0 || *record == "" {
		return 2, errors.New("usage: unikorn-testreport run -name NAME -json FILE -- go test -json …")
	}

	if err := os.MkdirAll(filepath.Dir(*record), 0o755); err != nil {
		return 2, err
	}

	file, err := os.Create(*record)
	if err != nil {
		return 2, err
	}
	defer file.Close()

	cmd := exec.Command(command[0], command[1:]...) //nolint:gosec // the command make gives
	cmd.Stderr = os.Stderr

	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 2, err
	}

	// An interrupt reaches the command, which ends its tests' cleanups, rather than
	// this process alone.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)

	if err := cmd.Start(); err != nil {
		return 2, err
	}

	go func() {
		for s := range signals {
			_ = cmd.Process.Signal(s)
		}
	}()

	prefix := ""
	if *name != "" {
		prefix = *name + ": "
	}

	failed, renderErr := testreport.Render(stdout, file, os.Stdout, prefix)
	// Whatever is left is drained, so that the command never blocks on its output.
	_, _ = io.Copy(file, stdout)

	waitErr := cmd.Wait()

	var exit *exec.ExitError

	switch {
	case errors.As(waitErr, &exit):
		return exit.ExitCode(), renderErr
	case waitErr != nil:
		return 2, waitErr
	case failed:
		return 1, renderErr
	default:
		return 0, renderErr
	}
}

func table(args []string) error {
	flags := flag.NewFlagSet("table", flag.ContinueOnError)
	top := flags.Int("top", 15, "how many of the slowest tests to list")
	minimum := flags.Duration("min", 10*time.Second, "list the packages that took at least this long")

	if err := flags.Parse(args); err != nil {
		return err
	}

	for i, name := range flags.Args() {
		file, err := os.Open(name)
		if err != nil {
			return err
		}

		r, err := testreport.Read(strings.TrimSuffix(filepath.Base(name), ".json"), file)
		file.Close()

		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}

		if i > 0 {
			fmt.Println()
		}

		r.Table(os.Stdout, *top, *minimum)
	}

	return nil
}
