package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// CLI runs the Terraform CLI itself in a working directory of its own, against the
// provider served in-process. It is for what the testing framework cannot observe:
// the warnings a plan prints, and commands such as `terraform apply -invoke`.
type CLI struct {
	t         *testing.T
	dir       string
	terraform string
	environ   []string
}

// CLI starts the provider for one test and returns a CLI whose configuration is the
// environment's provider block followed by config.
func (e *Environment) CLI(t *testing.T, config string) *CLI {
	t.Helper()

	cli := NewCLI(t, t.TempDir())
	cli.WriteConfig(e.ProviderConfig() + config)
	cli.Run("init", "-input=false")

	return cli
}

// NewCLI starts the provider for one test and returns a CLI that works in dir,
// which holds a configuration already. It needs no Unikorn, so it suits commands
// that only need the provider's schema, such as `terraform validate`; like the
// acceptance tests it skips unless TF_ACC is set.
func NewCLI(t *testing.T, dir string) *CLI {
	t.Helper()

	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1 (make testacc)")
	}

	terraform := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if terraform == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no Terraform CLI (make testacc sets it)")
	}

	SkipUnlessSupported(t)

	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})

	go func() {
		err := tf6server.Serve(providerAddress(), providerserver.NewProtocol6(provider.New(ProviderVersion)()),
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			// As the testing framework does: provider logs only when TF_LOG asks for them.
			tf6server.WithLoggingSink(t))
		if err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()

	config6 := <-reattach
	t.Cleanup(func() {
		cancel()
		<-closed
	})

	reattachJSON, err := json.Marshal(map[string]any{
		providerAddress(): map[string]any{
			"Protocol":        config6.Protocol,
			"ProtocolVersion": config6.ProtocolVersion,
			"Pid":             config6.Pid,
			"Test":            true,
			"Addr":            map[string]string{"Network": config6.Addr.Network(), "String": config6.Addr.String()},
		},
	})
	require.NoError(t, err)

	// An empty CLI configuration of the test's own, so that the user's (a
	// dev_overrides block, say) cannot swap the provider under test.
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	require.NoError(t, os.WriteFile(cliConfig, nil, 0o600))

	return &CLI{
		t:         t,
		dir:       dir,
		terraform: terraform,
		environ: append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+cliConfig,
			"TF_REATTACH_PROVIDERS="+string(reattachJSON),
			"TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1",
		),
	}
}

// NewProcessCLI is NewCLI with the provider built and started by the CLI, as users
// run it: a process of its own for every provider block. A configuration with more
// than one block of this provider needs it, because an in-process provider serves
// every block of a run with the configuration of the last one configured.
func NewProcessCLI(t *testing.T, dir string) *CLI {
	t.Helper()

	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1 (make testacc)")
	}

	terraform := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if terraform == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no Terraform CLI (make testacc sets it)")
	}

	SkipUnlessSupported(t)

	bin := builtProvider(t)

	// dev_overrides makes the CLI start the binary for the provider's source, and
	// nothing else of the user's configuration applies.
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	require.NoError(t, os.WriteFile(cliConfig, []byte(fmt.Sprintf(`provider_installation {
  dev_overrides {
    %q = %q
  }
  direct {}
}
`, providerAddress(), bin)), 0o600))

	return &CLI{
		t:         t,
		dir:       dir,
		terraform: terraform,
		environ: append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+cliConfig,
			"TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1",
		),
	}
}

// built is the provider binary that the tests of this process running NewProcessCLI
// share: built once for all that run at the same time (a link is seconds of work for
// the processor, and they run in parallel), and removed after the last of them.
var built struct {
	mu    sync.Mutex
	users int
	dir   string
}

// builtProvider returns the directory holding the provider built from this module,
// building it if no running test holds it, until t ends.
func builtProvider(t *testing.T) string {
	t.Helper()

	built.mu.Lock()
	defer built.mu.Unlock()

	if built.users == 0 {
		dir, err := os.MkdirTemp("", "unikorn-acctest-provider-") //nolint:usetesting // shared by the tests that run at once, it outlives the first
		require.NoError(t, err)

		goCommand, err := exec.LookPath("go")
		if err != nil {
			_ = os.RemoveAll(dir)
		}

		require.NoError(t, err, "building the provider needs the go command on PATH")

		// The module's root, where main.go is: this package's directory's grandparent.
		_, self, _, _ := runtime.Caller(0)
		build := exec.CommandContext(t.Context(), goCommand, "build", "-o", filepath.Join(dir, "terraform-provider-unikorn"), ".") //nolint:gosec // the test's own module
		build.Dir = filepath.Join(filepath.Dir(self), "..", "..")

		output, err := build.CombinedOutput()
		if err != nil {
			_ = os.RemoveAll(dir)
		}

		require.NoError(t, err, "building the provider:\n%s", output)

		built.dir = dir
	}

	built.users++
	dir := built.dir

	t.Cleanup(func() {
		built.mu.Lock()
		defer built.mu.Unlock()

		if built.users--; built.users == 0 {
			_ = os.RemoveAll(dir)
		}
	})

	return dir
}

// requiredProviders names the provider's source, as a user's configuration does, so
// that Terraform looks for it under the address it is served at.
const requiredProviders = `terraform {
  required_providers {
    unikorn = { source = "unikorn-cloud/unikorn" }
  }
}
`

// WriteConfig replaces the working directory's configuration.
func (c *CLI) WriteConfig(config string) {
	c.t.Helper()

	require.NoError(c.t, os.WriteFile(filepath.Join(c.dir, "main.tf"), []byte(requiredProviders+config), 0o600))
}

// WriteFile writes a file into the working directory beside the configuration, such
// as the `.tfquery.hcl` file that `terraform query` reads.
func (c *CLI) WriteFile(name, content string) {
	c.t.Helper()

	require.NoError(c.t, os.WriteFile(filepath.Join(c.dir, name), []byte(content), 0o600))
}

// ReadFile returns a file of the working directory, such as one Terraform generated.
func (c *CLI) ReadFile(name string) string {
	c.t.Helper()

	content, err := os.ReadFile(filepath.Join(c.dir, name))
	require.NoError(c.t, err)

	return string(content)
}

// Setenv sets an environment variable of the commands that follow, such as a TF_VAR_
// one. The provider runs in the test's process, so this reaches only the CLI.
func (c *CLI) Setenv(name, value string) {
	c.environ = append(c.environ, name+"="+value)
}

// Dir is the working directory, where the CLI keeps its state file.
func (c *CLI) Dir() string {
	return c.dir
}

// Run runs a Terraform command and returns what it printed; the test fails if the
// command does.
func (c *CLI) Run(args ...string) string {
	c.t.Helper()

	output, err := c.Try(args...)
	require.NoError(c.t, err, "terraform %v:\n%s", args, output)

	return output
}

// Try runs a Terraform command and returns what it printed and how it ended.
func (c *CLI) Try(args ...string) (string, error) {
	c.t.Helper()

	// Not the test's context: a cleanup (such as a destroy) runs after it is cancelled.
	command := exec.CommandContext(context.Background(), c.terraform, append(args, "-no-color")...) //nolint:gosec // the test's own Terraform
	command.Dir = c.dir
	command.Env = c.environ

	output, err := command.CombinedOutput()

	return string(output), err
}

// Running is a Terraform command running in the background.
type Running struct {
	command *exec.Cmd
	output  *syncBuffer
	done    chan error
}

// Start runs a Terraform command in the background, for a test that interrupts it as a
// user's Ctrl-C does.
func (c *CLI) Start(args ...string) *Running {
	c.t.Helper()

	output := &syncBuffer{}
	command := exec.CommandContext(context.Background(), c.terraform, append(args, "-no-color")...) //nolint:gosec // the test's own Terraform
	command.Dir, command.Env, command.Stdout, command.Stderr = c.dir, c.environ, output, output

	require.NoError(c.t, command.Start())

	running := &Running{command: command, output: output, done: make(chan error, 1)}
	go func() { running.done <- command.Wait() }()

	c.t.Cleanup(func() {
		_ = command.Process.Kill()
		_, _ = running.Wait() // killed, or ended before: either way gone
	})

	return running
}

// Output is what the command has printed so far.
func (r *Running) Output() string { return r.output.String() }

// Interrupt sends the command an interrupt, as Ctrl-C does: Terraform stops what it
// can, and waits for the provider to return what is under way.
func (r *Running) Interrupt() error { return r.command.Process.Signal(os.Interrupt) }

// Wait waits for the command to end, and returns what it printed and how it ended.
func (r *Running) Wait() (string, error) {
	err := <-r.done
	r.done <- err

	return r.output.String(), err
}

// syncBuffer is a buffer safe to write from the command and read from the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()

	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()

	return b.buf.String()
}
