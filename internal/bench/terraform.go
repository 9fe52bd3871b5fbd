package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// providerExecutable is the name Terraform looks for in a dev_overrides directory.
const providerExecutable = "terraform-provider-unikorn"

// memorySampleInterval paces the /proc samples of the provider's memory: often enough
// to see every short-lived provider process Terraform starts (schema, validate), rare
// enough to cost nothing measurable on a small machine.
const memorySampleInterval = 10 * time.Millisecond

// terraform runs Terraform commands in one working directory with the environment
// that points the provider at the sandbox.
type terraform struct {
	binary  string
	dir     string
	environ []string
}

// run is one finished command with what was measured while it ran.
type run struct {
	wall      time.Duration
	stdout    []byte
	peakRSS   int64 // bytes; the highest of every provider process the command started
	providers int   // provider processes seen
	// providerCPU is the CPU time of those processes, and terraformCPU that of
	// Terraform itself, without them.
	providerCPU, terraformCPU time.Duration
	exitCode                  int
	commandLine               string
}

// run executes terraform with args, measuring wall time and the provider's peak
// memory. A non-zero exit is returned in run.exitCode, not as an error, so that the
// caller can show what Terraform printed.
func (t *terraform) run(ctx context.Context, args ...string) (*run, error) {
	command := exec.CommandContext(ctx, t.binary, args...) //nolint:gosec // the benchmark's own Terraform
	command.Dir = t.dir
	command.Env = t.environ

	var stdout, stderr bytes.Buffer
	command.Stdout, command.Stderr = &stdout, &stderr

	start := time.Now()
	if err := command.Start(); err != nil {
		return nil, fmt.Errorf("starting terraform %s: %w", strings.Join(args, " "), err)
	}

	watch := watchPeakRSS(command.Process.Pid, providerExecutable, memorySampleInterval)
	err := command.Wait()
	wall := time.Since(start)
	peak, processes, providerCPU := watch.Stop()

	result := &run{
		wall:        wall,
		stdout:      stdout.Bytes(),
		peakRSS:     peak,
		providers:   processes,
		providerCPU: providerCPU,
		commandLine: "terraform " + strings.Join(args, " "),
	}

	// Terraform's own usage, as the kernel reports it on exit, holds that of the
	// children it waited for: the provider processes.
	if state := command.ProcessState; state != nil {
		result.terraformCPU = max(state.UserTime()+state.SystemTime()-providerCPU, 0)
	}

	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		result.exitCode = exitErr.ExitCode()
		if stderr.Len() > 0 {
			result.stdout = append(result.stdout, stderr.Bytes()...)
		}

		return result, nil
	}

	if err != nil {
		return nil, fmt.Errorf("running %s: %w", result.commandLine, err)
	}

	return result, nil
}

// mustSucceed turns a non-zero exit into an error that shows what Terraform said.
func (r *run) mustSucceed() error {
	if r.exitCode == 0 {
		return nil
	}

	output := r.stdout
	if len(output) > 4000 {
		output = output[len(output)-4000:]
	}

	return fmt.Errorf("%s exited with %d:\n%s", r.commandLine, r.exitCode, output)
}

// cliConfig writes the Terraform CLI configuration that makes Terraform start the
// provider built into providerDir instead of looking for it in a registry.
func cliConfig(path, providerDir string) error {
	config := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "unikorn-cloud/unikorn" = %q
  }
  direct {}
}
`, providerDir)

	return os.WriteFile(path, []byte(config), 0o600)
}

// exitChanges is the exit code of `terraform plan -detailed-exitcode` that found
// something to change.
const exitChanges = 2

// plannedChanges counts what a plan that should have found nothing to do would do.
type plannedChanges struct {
	created, replaced int
}

// readPlannedChanges reads the changes of `terraform plan -json`. Only creations and
// replacements are expected of a plan right after an apply (instances the provider
// lost track of); anything else is a fault of the provider's reads, and an error.
func readPlannedChanges(output []byte) (plannedChanges, error) {
	var changes plannedChanges

	var unexpected []string

	scanner := bufio.NewScanner(bytes.NewReader(output))
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)

	for scanner.Scan() {
		var message uiMessage
		if err := json.Unmarshal(scanner.Bytes(), &message); err != nil || message.Type != "planned_change" {
			continue
		}

		switch message.Change.Action {
		case "create":
			changes.created++
		case "replace":
			changes.replaced++
		default:
			unexpected = append(unexpected, message.Change.Resource.Addr+" ("+message.Change.Action+")")
		}
	}

	if len(unexpected) > 0 {
		return changes, fmt.Errorf("the plan right after the apply would change %s", strings.Join(unexpected, ", "))
	}

	return changes, scanner.Err()
}

// uiMessage is the part of a line of `terraform apply -json` the benchmark reads.
type uiMessage struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"@timestamp"`
	Hook      struct {
		Resource struct {
			Addr string `json:"addr"`
		} `json:"resource"`
		Action string `json:"action"`
	} `json:"hook"`
	Change struct {
		Resource struct {
			Addr string `json:"addr"`
		} `json:"resource"`
		Action string `json:"action"`
	} `json:"change"`
}

// resourceDurations reads, from the machine-readable output of an apply, how long
// each resource's change took from its start to its completion. Terraform stamps the
// messages to the microsecond, unlike the whole seconds it prints for people.
func resourceDurations(output []byte, action string) (map[string]time.Duration, error) {
	started := map[string]time.Time{}
	durations := map[string]time.Duration{}

	scanner := bufio.NewScanner(bytes.NewReader(output))
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)

	for scanner.Scan() {
		var message uiMessage
		if err := json.Unmarshal(scanner.Bytes(), &message); err != nil {
			continue // not every line is a message: Terraform may print plain errors
		}

		if message.Hook.Action != action {
			continue
		}

		addr := message.Hook.Resource.Addr

		switch message.Type {
		case "apply_start":
			started[addr] = message.Timestamp
		case "apply_complete":
			start, ok := started[addr]
			if !ok {
				return nil, fmt.Errorf("%s completed without having started", addr)
			}

			durations[addr] = message.Timestamp.Sub(start)
		}
	}

	return durations, scanner.Err()
}
