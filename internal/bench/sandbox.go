package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// sandboxProcess is the sandbox command running beside the benchmark, as a user
// would run it: its own process, reached over loopback like a real cloud.
type sandboxProcess struct {
	command *exec.Cmd
	exited  chan error
	// exports are the UNIKORN_* variables it printed.
	exports map[string]string
	control *sandbox.ControlClient
}

// sandboxTimings are how long the sandbox takes to provision and to deprovision.
type sandboxTimings struct {
	provision, deprovision time.Duration
}

// startSandbox runs the sandbox binary on a free loopback port with the latency of
// options, timings and the read lag of config, and waits until it prints where it
// listens. Its request log goes to logPath. The provider is pointed at config's
// instance API.
func startSandbox(ctx context.Context, options Options, config Config, timings sandboxTimings, logPath string) (*sandboxProcess, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}

	command := exec.CommandContext(ctx, options.Sandbox, //nolint:gosec // the benchmark's own sandbox
		"-listen", "127.0.0.1:0",
		"-latency", options.Latency.String(),
		"-provision-delay", timings.provision.String(),
		"-deprovision-delay", timings.deprovision.String(),
		"-read-lag", config.ReadLag.String(),
	)
	command.Stderr = logFile
	// Stop it the way a person would, so that it shuts down gracefully.
	command.Cancel = func() error { return command.Process.Signal(syscall.SIGTERM) }

	stdout, err := command.StdoutPipe()
	if err != nil {
		return nil, errors.Join(err, logFile.Close())
	}

	if err := command.Start(); err != nil {
		return nil, errors.Join(err, logFile.Close())
	}

	process := &sandboxProcess{command: command, exited: make(chan error, 1), exports: map[string]string{}}

	ready := make(chan error, 1)

	go func() {
		ready <- readExports(stdout, process.exports)
		// Keep draining so that the sandbox never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, stdout)
	}()

	go func() {
		process.exited <- command.Wait()
		_ = logFile.Close()
	}()

	select {
	case err := <-ready:
		if err != nil {
			return nil, errors.Join(err, process.stop())
		}
	case err := <-process.exited:
		if err == nil {
			err = errors.New("it exited with status 0")
		}

		return nil, fmt.Errorf("the sandbox exited before listening, its log is %s: %w", logPath, err)
	case <-time.After(30 * time.Second):
		return nil, errors.Join(errors.New("the sandbox did not start within 30 seconds"), process.stop())
	}

	// Through compute's public API the provider holds the user's token, as printed;
	// through region's servers and identity's allocations it needs a platform
	// administrator's, whose role grants those APIs and the networks around the
	// instances, which compute's own account may only read. The control API is the
	// fixture user's.
	process.control = sandbox.NewControlClient(process.exports["UNIKORN_REGION_ENDPOINT"], process.exports["UNIKORN_TOKEN"], nil)

	process.exports["UNIKORN_INSTANCE_API"] = config.Backend
	if config.Backend == BackendRegion {
		process.exports["UNIKORN_TOKEN"] = sandbox.PlatformAdminToken
	}

	return process, nil
}

// readExports collects `export NAME=VALUE` lines until the project, which the sandbox
// prints last.
func readExports(r io.Reader, exports map[string]string) error {
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		assignment, ok := strings.CutPrefix(scanner.Text(), "export ")
		if !ok {
			continue
		}

		name, value, _ := strings.Cut(assignment, "=")
		if unquoted, err := unquoteShell(value); err == nil {
			value = unquoted
		}

		exports[name] = value

		if name == "UNIKORN_PROJECT_ID" {
			return nil
		}
	}

	return fmt.Errorf("the sandbox stopped printing before UNIKORN_PROJECT_ID: %w", scanner.Err())
}

// unquoteShell undoes the sandbox's single quoting of values that need it.
func unquoteShell(value string) (string, error) {
	if !strings.HasPrefix(value, "'") {
		return value, nil
	}

	if !strings.HasSuffix(value, "'") || len(value) < 2 {
		return "", fmt.Errorf("unterminated quote in %q", value)
	}

	return strings.ReplaceAll(value[1:len(value)-1], `'\''`, `'`), nil
}

// environ is the sandbox's exports as environment entries.
func (p *sandboxProcess) environ() []string {
	entries := make([]string, 0, len(p.exports))
	for name, value := range p.exports {
		entries = append(entries, name+"="+value)
	}

	return entries
}

// stop asks the sandbox to shut down and waits for it.
func (p *sandboxProcess) stop() error {
	if err := p.command.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}

	select {
	case err := <-p.exited:
		return err
	case <-time.After(15 * time.Second):
		return errors.Join(errors.New("the sandbox ignored SIGTERM"), p.command.Process.Kill())
	}
}

// setQuotas raises the organization's quotas through identity's administrator call,
// so that the largest run fits: a server per instance, and a public address for every
// tenth of the realistic configuration's.
func (p *sandboxProcess) setQuotas(ctx context.Context, instances int) error {
	body, err := json.Marshal(unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{
		{Kind: compute.QuotaServers, Quantity: instances},
		{Kind: compute.QuotaFloatingIPs, Quantity: instances/10 + 1},
	}})
	if err != nil {
		return err
	}

	url := p.exports["UNIKORN_IDENTITY_ENDPOINT"] + "/api/v1/organizations/" + p.exports["UNIKORN_ORGANIZATION_ID"] + "/quotas"

	request, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return err
	}

	request.Header.Set("Authorization", "Bearer "+sandbox.PlatformAdminToken)
	request.Header.Set("Content-Type", "application/json")

	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return err
	}
	defer response.Body.Close()

	if response.StatusCode != http.StatusOK {
		return fmt.Errorf("setting the quotas for %s instances: %s", strconv.Itoa(instances), response.Status)
	}

	return nil
}
