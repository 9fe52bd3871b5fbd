// Command unikorn-sandbox serves the simulated Unikorn region, identity and compute
// APIs on one listener, for demos, acceptance tests, module tests in CI and trying
// configurations without an account.
//
// Once listening it prints `export UNIKORN_…=…` lines to stdout that point the
// provider at it, and writes the same lines to -env-file when given, so that
//
//	unikorn-sandbox -listen 127.0.0.1:0 -env-file sandbox.env &
//	until [ -s sandbox.env ]; do sleep 0.1; done
//	. ./sandbox.env
//
// configures a shell; logs go to stderr. Every flag can also be set from the
// environment (-read-lag as UNIKORN_SANDBOX_READ_LAG), so that a CI job can make it
// harsher without changing the command. SIGINT and SIGTERM stop it cleanly, saving
// -state.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// version is set by the release build (-ldflags "-X main.version=1.2.3"); a build
// without it reports what the Go toolchain recorded, the module version under
// `go install …@v1.2.3`.
var version = ""

// shutdownTimeout bounds how long in-flight requests may take to finish on a signal.
const shutdownTimeout = 10 * time.Second

// envPrefix names the environment variables that set flags: -read-lag is
// UNIKORN_SANDBOX_READ_LAG. A flag on the command line wins.
const envPrefix = "UNIKORN_SANDBOX_"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	err := run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}

	if err != nil {
		fmt.Fprintln(os.Stderr, "unikorn-sandbox:", err)
		os.Exit(1)
	}
}

// run serves until ctx is cancelled, then shuts down gracefully and saves the state.
// environ is the process environment, as os.Environ gives it.
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer) error {
	defaults := sandbox.DefaultOptions()

	flags := flag.NewFlagSet("unikorn-sandbox", flag.ContinueOnError)
	flags.SetOutput(stderr)

	listen := flags.String("listen", "127.0.0.1:8080", "address to listen on; port 0 picks a free one")
	token := flags.String("token", defaults.Token, "bearer token of the fixture user")
	provisionDelay := flags.Duration("provision-delay", defaults.ProvisionDelay, "time a create or update takes to settle")
	deprovisionDelay := flags.Duration("deprovision-delay", defaults.DeprovisionDelay, "time from delete to 404")
	latency := flags.Duration("latency", defaults.Latency, "added to every API request")
	statePath := flags.String("state", "", "JSON file loaded at start if present and saved on every change and at exit")
	envFile := flags.String("env-file", "", "file to write the export lines to once listening (replaced whole, so its presence means ready)")
	readLag := flags.Duration("read-lag", defaults.ReadLag, "longest time lists and reads trail a write (random per write; 0: exact reads)")
	seed := flags.Uint64("seed", defaults.Seed, "seed of the random read lags, for reproducible runs")
	visibility := flags.Bool("visibility", !defaults.ShowInvisible, "lists drop what the token may not read, as region's do; false flatters the caller")
	showVersion := flags.Bool("version", false, "print the version and exit")

	quotas := quotaFlag{}
	flags.Var(quotas, "quota", "the fixture organization's quota of some kinds, e.g. servers=2,gpus=0 (repeatable)")

	var faults faultFlag

	flags.Var(&faults, "fault", `a fault rule as the control API takes it, or a JSON array of them, e.g. {"method":"POST","route":"/compute/api/v2/instances","status":503,"count":1} (repeatable)`)

	flags.Usage = func() {
		fmt.Fprintf(stderr, "Usage of unikorn-sandbox:\n")
		flags.PrintDefaults()
		fmt.Fprintf(stderr, "\nEvery flag but -version can also be set from the environment, -read-lag as %sREAD_LAG;\n"+
			"a flag given on the command line wins, and repeatable ones add to the environment's.\n", envPrefix)
	}

	if err := setFromEnvironment(flags, environ); err != nil {
		return err
	}

	if err := flags.Parse(args); err != nil {
		return err
	}

	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: every setting is a flag", flags.Args())
	}

	if *showVersion {
		fmt.Fprintln(stdout, "unikorn-sandbox", currentVersion())

		return nil
	}

	logger := slog.New(slog.NewTextHandler(stderr, nil))

	sb, err := sandbox.New(sandbox.Options{
		Token:            *token,
		ProvisionDelay:   *provisionDelay,
		DeprovisionDelay: *deprovisionDelay,
		Latency:          *latency,
		StatePath:        *statePath,
		Logger:           logger,
		ReadLag:          *readLag,
		Seed:             *seed,
		ShowInvisible:    !*visibility,
		Quotas:           quotas,
	})
	if err != nil {
		return err
	}

	for i, rule := range faults {
		if _, err := sb.AddFault(rule); err != nil {
			return errors.Join(fmt.Errorf("fault rule %d: %w", i+1, err), sb.Close())
		}
	}

	// A file left by an earlier run must not be taken for this one being ready.
	if *envFile != "" {
		if err := os.Remove(*envFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			return errors.Join(err, sb.Close())
		}
	}

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		return errors.Join(err, sb.Close())
	}

	exports := exportLines("http://"+clientAddress(listener.Addr()), *token)

	// The file first, so that whoever waits for either finds both.
	if *envFile != "" {
		if err := writeFileWhole(*envFile, exports); err != nil {
			return errors.Join(err, listener.Close(), sb.Close())
		}
	}

	fmt.Fprint(stdout, exports)

	logger.Info("sandbox listening", "endpoint", "http://"+clientAddress(listener.Addr()), "version", currentVersion())
	// The printed token is an ordinary project user's, as a real user would hold; the
	// region instance API needs a role that grants it, as the platform
	// administrator's does.
	logger.Info("region's servers and identity's allocations are service-to-service: use the platform administrator's token to call them",
		"token", sandbox.PlatformAdminToken)

	server := &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second}

	served := make(chan error, 1)

	go func() {
		served <- server.Serve(listener)
	}()

	select {
	case err = <-served:
	case <-ctx.Done():
		logger.Info("shutting down")

		shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()

		err = server.Shutdown(shutdownCtx)
	}

	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}

	return errors.Join(err, sb.Close())
}

// exportLines are the shell lines that point the provider at the sandbox: every
// service's endpoint where the sandbox serves it, then the fixture user's token and
// project.
func exportLines(endpoint, token string) string {
	var (
		lines     strings.Builder
		variables [][2]string
	)

	endpoints := services.InSandbox(endpoint)
	for _, service := range services.All() {
		variables = append(variables, [2]string{service.EnvVar(), endpoints[service]})
	}

	for _, variable := range append(variables,
		[2]string{"UNIKORN_TOKEN", token},
		[2]string{"UNIKORN_ORGANIZATION_ID", sandbox.OrganizationID},
		[2]string{"UNIKORN_PROJECT_ID", sandbox.ProjectID},
	) {
		fmt.Fprintf(&lines, "export %s=%s\n", variable[0], shellQuote(variable[1]))
	}

	return lines.String()
}

// setFromEnvironment sets every flag named by a UNIKORN_SANDBOX_ variable. A variable
// of that prefix that names no flag is an error, so that a misspelt setting is not
// silently ignored.
func setFromEnvironment(flags *flag.FlagSet, environ []string) error {
	var errs []error

	for _, entry := range environ {
		name, value, _ := strings.Cut(entry, "=")

		setting, ok := strings.CutPrefix(name, envPrefix)
		if !ok || value == "" {
			continue
		}

		f := flags.Lookup(strings.ReplaceAll(strings.ToLower(setting), "_", "-"))
		if f == nil || f.Name == "version" {
			errs = append(errs, fmt.Errorf("%s is not a setting of the sandbox (run unikorn-sandbox -h for them)", name))

			continue
		}

		if err := f.Value.Set(value); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", name, value, err))
		}
	}

	return errors.Join(errs...)
}

// currentVersion is the release's version, or the module version the Go toolchain
// recorded (without its "v", as releases write it), or "dev".
func currentVersion() string {
	if version != "" {
		return version
	}

	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return strings.TrimPrefix(info.Main.Version, "v")
	}

	return "dev"
}

// writeFileWhole replaces path with content in one rename, so that a reader waiting
// for the file never sees it half written.
func writeFileWhole(path, content string) error {
	temp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}

	defer os.Remove(temp.Name())

	if _, err := temp.WriteString(content); err != nil {
		temp.Close()

		return fmt.Errorf("writing %s: %w", path, err)
	}

	if err := temp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}

	if err := os.Rename(temp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}

	return nil
}

// clientAddress is the address a client on this machine dials: a wildcard listener
// is reached on loopback.
func clientAddress(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}

	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}

	return net.JoinHostPort(host, port)
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:@%+,=-]+$`)

// shellQuote makes a value safe to eval: single quotes protect everything but a
// single quote, which is closed, escaped and reopened.
func shellQuote(value string) string {
	if shellSafe.MatchString(value) {
		return value
	}

	return "'" + strings.ReplaceAll(value, "'", `'\''`) + "'"
}
