// Command unikorn-sandbox serves the simulated Unikorn region and identity APIs on one
// listener, for demos, acceptance tests and trying configurations without an account.
//
// Once listening it prints `export UNIKORN_…=…` lines to stdout that point the
// provider at it, so that
//
//	unikorn-sandbox -listen 127.0.0.1:0 >sandbox.env &
//	. ./sandbox.env
//
// configures a shell; logs go to stderr.
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
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// shutdownTimeout bounds how long in-flight requests may take to finish on a signal.
const shutdownTimeout = 10 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "unikorn-sandbox:", err)
		os.Exit(1)
	}
}

// run serves until ctx is cancelled, then shuts down gracefully and saves the state.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	defaults := sandbox.DefaultOptions()

	flags := flag.NewFlagSet("unikorn-sandbox", flag.ContinueOnError)
	flags.SetOutput(stderr)

	listen := flags.String("listen", "127.0.0.1:8080", "address to listen on; port 0 picks a free one")
	token := flags.String("token", defaults.Token, "bearer token of the fixture user")
	provisionDelay := flags.Duration("provision-delay", defaults.ProvisionDelay, "time a create or update takes to settle")
	deprovisionDelay := flags.Duration("deprovision-delay", defaults.DeprovisionDelay, "time from delete to 404")
	latency := flags.Duration("latency", defaults.Latency, "added to every API request")
	statePath := flags.String("state", "", "JSON file loaded at start if present and saved on every change and at exit")
	readLag := flags.Duration("read-lag", defaults.ReadLag, "longest time lists and reads trail a write (random per write; 0: exact reads)")
	seed := flags.Uint64("seed", defaults.Seed, "seed of the random read lags, for reproducible runs")
	visibility := flags.Bool("visibility", !defaults.ShowInvisible, "lists drop what the token may not read, as region's do; false flatters the caller")

	if err := flags.Parse(args); err != nil {
		return err
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
	})
	if err != nil {
		return err
	}

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		return errors.Join(err, sb.Close())
	}

	endpoint := "http://" + clientAddress(listener.Addr())

	for _, variable := range [][2]string{
		{"UNIKORN_REGION_ENDPOINT", endpoint},
		{"UNIKORN_IDENTITY_ENDPOINT", endpoint},
		{"UNIKORN_COMPUTE_ENDPOINT", endpoint + sandbox.ComputePrefix},
		{"UNIKORN_TOKEN", *token},
		{"UNIKORN_ORGANIZATION_ID", sandbox.OrganizationID},
		{"UNIKORN_PROJECT_ID", sandbox.ProjectID},
	} {
		fmt.Fprintf(stdout, "export %s=%s\n", variable[0], shellQuote(variable[1]))
	}

	logger.Info("sandbox listening", "endpoint", endpoint)
	// The printed token is an ordinary project user's, as a real user would hold; the
	// region instance API needs the principal a service holds.
	logger.Info("region's servers and identity's allocations are service-to-service: use the service token to call them",
		"token", sandbox.ServiceToken)

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
