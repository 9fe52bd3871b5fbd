// Command unikorn-bench runs the provider's end-to-end benchmark (see internal/bench)
// and writes its figures into a section of BENCHMARKS.md. `make bench` builds the
// binaries it needs and runs it; it takes a few minutes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "unikorn-bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	flags := flag.NewFlagSet("unikorn-bench", flag.ContinueOnError)

	var options bench.Options

	flags.StringVar(&options.Terraform, "terraform", "terraform", "Terraform CLI to run")
	flags.StringVar(&options.ProviderDir, "provider-dir", "", "directory holding the terraform-provider-unikorn binary to measure")
	flags.StringVar(&options.Sandbox, "sandbox", "", "unikorn-sandbox binary")
	flags.StringVar(&options.WorkDir, "work-dir", "", "directory for configurations, states and the sandbox log")
	flags.IntVar(&options.Parallelism, "parallelism", 10, "Terraform's -parallelism")
	flags.IntVar(&options.Repeats, "repeats", 3, "runs of each phase that changes nothing (plan, refresh), of which the median is kept")
	flags.DurationVar(&options.Latency, "latency", 25*time.Millisecond, "latency the sandbox adds to every request")
	flags.DurationVar(&options.ProvisionDelay, "provision-delay", 2*time.Second, "the sandbox's provisioning time")
	flags.DurationVar(&options.DeprovisionDelay, "deprovision-delay", 500*time.Millisecond, "the sandbox's deprovisioning time")
	workloads := flags.String("workloads", strings.Join(bench.Workloads, ","), "comma-separated configurations to apply")
	counts := flags.String("instances", "1,10,100,300", "comma-separated instance counts of the bare configuration")
	realisticCounts := flags.String("realistic-instances", "10,100,300", "comma-separated instance counts of the realistic configuration")
	flags.IntVar(&options.Scale, "scale", bench.DefaultScale, "instances of the walk against the floors; 0 for none")
	flags.DurationVar(&options.ScaleProvisionDelay, "scale-provision-delay", 100*time.Millisecond, "the sandbox's provisioning time in that walk")
	flags.DurationVar(&options.ScaleDeprovisionDelay, "scale-deprovision-delay", 50*time.Millisecond, "the sandbox's deprovisioning time in that walk")
	flags.StringVar(&options.FloorDir, "floor-dir", "", "directory holding the floor provider, named terraform-provider-unikorn (required with -scale)")
	flags.StringVar(&options.SandboxBenchmark, "sandbox-benchmark", "", "output of `go test -bench SandboxReadByID ./internal/sandbox` to report")
	backends := flags.String("backends", bench.BackendCompute+","+bench.BackendRegion, "comma-separated instance APIs to measure")
	lags := flags.String("read-lags", "0s,2s", "comma-separated read lags of the sandbox to measure each back end under")
	output := flags.String("output", "BENCHMARKS.md", "Markdown file whose section (see -section) receives the figures; empty prints them")
	flags.StringVar(&options.Command, "command", "make bench", "what ran the benchmark, as the report names it")
	section := flags.String("section", "bench", "generated section of the output that receives the figures: a narrowed run (BENCH_SIZES, …) "+
		"may keep its own beside the whole run's")

	if err := flags.Parse(args); err != nil {
		return err
	}

	if options.ProviderDir == "" || options.Sandbox == "" || options.WorkDir == "" {
		return errors.New("-provider-dir, -sandbox and -work-dir are required (make bench sets them)")
	}

	if options.Scale > 0 && options.FloorDir == "" {
		return errors.New("-floor-dir is required with -scale (make bench sets it)")
	}

	for _, field := range strings.Split(*workloads, ",") {
		workload := strings.TrimSpace(field)
		if workload == "" {
			continue
		}

		if !slices.Contains(bench.Workloads, workload) {
			return fmt.Errorf("-workloads: %q is none of %s", field, strings.Join(bench.Workloads, ", "))
		}

		options.Workloads = append(options.Workloads, workload)
	}

	var err error

	if options.Counts, err = parseCounts("-instances", *counts); err != nil {
		return err
	}

	if options.RealisticCounts, err = parseCounts("-realistic-instances", *realisticCounts); err != nil {
		return err
	}

	for _, field := range strings.Split(*backends, ",") {
		backend := strings.TrimSpace(field)
		if backend != bench.BackendCompute && backend != bench.BackendRegion {
			return fmt.Errorf("-backends: %q is neither %s nor %s", field, bench.BackendCompute, bench.BackendRegion)
		}

		options.Backends = append(options.Backends, backend)
	}

	for _, field := range strings.Split(*lags, ",") {
		lag, err := time.ParseDuration(strings.TrimSpace(field))
		if err != nil || lag < 0 {
			return fmt.Errorf("-read-lags: %q is not a duration of zero or more", field)
		}

		options.ReadLags = append(options.ReadLags, lag)
	}

	options.Progress = os.Stderr

	report, err := bench.Run(ctx, options)
	if err != nil {
		return err
	}

	markdown := report.Markdown()
	if *output == "" {
		fmt.Print(markdown)

		return nil
	}

	if err := bench.UpdateSection(*output, *section, markdown); err != nil {
		return err
	}

	fmt.Fprintln(os.Stderr, "wrote", *output)

	return nil
}

// parseCounts reads a comma-separated list of positive instance counts.
func parseCounts(flag, list string) ([]int, error) {
	var counts []int

	for _, field := range strings.Split(list, ",") {
		count, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || count < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive number", flag, field)
		}

		counts = append(counts, count)
	}

	return counts, nil
}
