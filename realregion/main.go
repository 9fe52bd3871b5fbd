// Command realregion runs the provider's acceptance tests of region's families, and
// region's own API suite, against region v1.20.0's own code (harness/), with the
// sandbox standing for identity.
//
// It builds the sandbox from the repository above and starts it, builds region's
// server and controllers (cmd/unikorn-region-controller) and starts them with the
// sandbox as their identity, makes the network the tests build
// on through region's API, and runs the provider's acceptance packages of regions,
// flavors, images, networks, security groups, SSH certificate authorities and load
// balancers through the real Terraform CLI, pointed at region for region's APIs and
// at the sandbox for identity's. What cannot run there is skipped, each with its
// reason, in skips.go. Then region's own API suite runs against the same region,
// through upstream/ (make test-upstream's runner), as a check of the harness.
//
// With -serve it only starts the sandbox and region and prints the provider's
// environment, for trying configurations by hand.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// The sandbox's fixtures (internal/sandbox's fixtures.go), which region and the tests
// share: identity's organization and project, and the regions region serves under
// the sandbox's IDs, so that identity's and region's answers agree.
const (
	organizationID  = "a0000000-0000-4000-8000-000000000001"
	projectID       = "a0000000-0000-4000-8000-000000000002"
	regionID        = "b0000000-0000-4000-8000-000000000001"
	privateRegionID = "b0000000-0000-4000-8000-000000000003"
	// userToken is the fixture user's, a user of the project: what region's public
	// APIs take. (The sandbox's service token stands for compute's service
	// principal, which identity's chart gives no right to make networks.)
	userToken = "sandbox-token"
	// The simulated provider's flavor sim-standard-4 and an image that fits it
	// (region pkg/providers/internal/simulated).
	flavorID = "11111111-1111-1111-1111-111111111111"
	imageID  = "33333333-3333-3333-3333-333333333333"

	// regionVersion is the version region is stamped with, through the variable its
	// Makefile sets: the module version the harness runs.
	regionVersion   = "v1.20.0"
	versionVariable = "github.com/unikorn-cloud/region/pkg/constants.Version"
)

// acceptancePackages are the provider's packages whose acceptance tests run here.
var acceptancePackages = []string{
	"./internal/provider/catalogue",
	"./internal/provider/image",
	"./internal/provider/networking",
	"./internal/provider/loadbalancing",
}

func main() {
	repo := flag.String("repo", "..", "the provider's repository")
	work := flag.String("work", "", "directory for the binaries and logs (default: a temporary one)")
	verbose := flag.Bool("v", false, "show the tests' own output")
	run := flag.String("run", "", "run only the acceptance tests matching this regular expression (go test -run)")
	serve := flag.Bool("serve", false, "start the sandbox and region, print the provider's environment and wait for an interrupt")
	suite := flag.Bool("suite", true, "run region's own API suite too")
	flag.Parse()

	code, err := realRegion(*repo, *work, *verbose, *run, *serve, *suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test-real-region:", err)
		os.Exit(2)
	}

	os.Exit(code)
}

func step(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "==> "+format+"\n", args...)
}

func realRegion(repo, work string, verbose bool, run string, serve, suite bool) (int, error) {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return 0, err
	}

	if work == "" {
		dir, err := os.MkdirTemp("", "unikorn-real-region-")
		if err != nil {
			return 0, err
		}

		defer os.RemoveAll(dir)

		work = dir
	}

	if work, err = filepath.Abs(work); err != nil {
		return 0, err
	}

	if err := os.MkdirAll(work, 0o755); err != nil {
		return 0, err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	step("building the sandbox")

	sandboxBinary := filepath.Join(work, "unikorn-sandbox")
	if err := command(repo, "go", "build", "-o", sandboxBinary, "./cmd/unikorn-sandbox").Run(); err != nil {
		return 0, fmt.Errorf("building the sandbox: %w", err)
	}

	identityURL, stopSandbox, err := startSandbox(sandboxBinary, work)
	if err != nil {
		return 0, err
	}

	defer stopSandbox()

	step("building region")

	regionBinary := filepath.Join(work, "unikorn-region-controller")
	if err := command(".", "go", "build", "-ldflags", "-X "+versionVariable+"="+regionVersion, "-o", regionBinary, "./cmd/unikorn-region-controller").Run(); err != nil {
		return 0, fmt.Errorf("building region: %w", err)
	}

	started := time.Now()

	regionURL, stopRegion, err := startRegion(regionBinary, work, identityURL)
	if err != nil {
		return 0, err
	}

	defer stopRegion()

	regionLog := filepath.Join(work, "region.log")

	step("region %s at %s, identity (the sandbox) at %s, serving in %s", regionVersion, regionURL, identityURL, time.Since(started).Round(time.Millisecond))

	networkID, err := makeNetwork(ctx, regionURL)
	if err != nil {
		return 0, fmt.Errorf("the tests' network: %w (region's log: %s)", err, regionLog)
	}

	step("the tests' network %s is provisioned, %s after region started", networkID, time.Since(started).Round(time.Millisecond))

	imageURL, stopImages, err := serveImages()
	if err != nil {
		return 0, err
	}

	defer stopImages()

	env := map[string]string{
		"UNIKORN_REGION_ENDPOINT":      regionURL,
		"UNIKORN_IDENTITY_ENDPOINT":    identityURL,
		"UNIKORN_TOKEN":                userToken,
		"UNIKORN_ORGANIZATION_ID":      organizationID,
		"UNIKORN_PROJECT_ID":           projectID,
		"UNIKORN_ACC_REGION_ID":        regionID,
		"UNIKORN_ACC_NETWORK_ID":       networkID,
		"UNIKORN_ACC_FLAVOR_ID":        flavorID,
		"UNIKORN_ACC_IMAGE_ID":         imageID,
		"UNIKORN_ACC_SANDBOX_IDENTITY": identityURL,
		"UNIKORN_ACC_IMAGE_URL":        imageURL,
	}

	if serve {
		for _, key := range sortedKeys(env) {
			fmt.Printf("export %s=%s\n", key, env[key])
		}

		<-ctx.Done()

		return 0, nil
	}

	failed := false

	if ok, err := acceptanceTests(ctx, repo, env, verbose, run); err != nil {
		return 0, err
	} else if !ok {
		failed = true
	}

	if suite && run == "" {
		step("running region's own API suite against region (upstream/)")

		for _, s := range suiteSkips {
			step("not run here: %s: %s", s.test, s.reason)
		}

		if ok, err := regionSuite(ctx, repo, identityURL, regionURL, verbose); err != nil {
			return 0, err
		} else if !ok {
			failed = true
		}
	}

	if failed {
		fmt.Fprintf(os.Stderr, "region's log: %s (kept with -work)\n", regionLog)

		return 1, nil
	}

	return 0, nil
}

// acceptanceTests runs the acceptance packages under Terraform against region, and
// checks that every test that did not run is in skips.go: a test that skips itself
// for a reason the list does not give fails the run.
func acceptanceTests(ctx context.Context, repo string, env map[string]string, verbose bool, run string) (bool, error) {
	terraform, err := exec.CommandContext(ctx, filepath.Join(repo, "scripts", "terraform.sh")).Output()
	if err != nil {
		return false, fmt.Errorf("finding Terraform (scripts/terraform.sh): %w", err)
	}

	for _, s := range skips {
		step("not run here: %s: %s", s.test, s.reason)
	}

	// Linked as make test's passes link them (without debug information), so that beside
	// them the test binaries come from the build cache instead of being linked again.
	args := []string{"test", "-count=1", "-ldflags=-s -w", "-timeout=20m", "-json", "-skip=" + skipPattern()}

	if run != "" {
		args = append(args, "-run="+run)
	}

	args = append(args, acceptancePackages...)

	step("running the acceptance tests of %s", strings.Join(acceptancePackages, ", "))

	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = repo
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), "TF_ACC=1", "TF_ACC_TERRAFORM_PATH="+strings.TrimSpace(string(terraform)), "CHECKPOINT_DISABLE=1")

	for _, key := range sortedKeys(env) {
		cmd.Env = append(cmd.Env, key+"="+env[key])
	}

	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, err
	}

	if err := cmd.Start(); err != nil {
		return false, err
	}

	report := readEvents(stdout, verbose)

	if err := cmd.Wait(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return false, err
		}
	}

	return report.print(), nil
}

// regionSuite runs region's API suite against region, through upstream's runner,
// whose fixtures are made in the sandbox that region asks.
func regionSuite(ctx context.Context, repo, identityURL, regionURL string, verbose bool) (bool, error) {
	// A spec that updates an object its controller is writing at that instant gets
	// region's 500 for the conflict, in production as here; on a loaded machine the
	// controllers are slow enough for the suite to meet it. Such a spec is tried again
	// once, and the runner names it.
	args := []string{"run", ".", "-repo", repo, "-suite", "region", "-identity", identityURL, "-region", regionURL, "-skip", suiteSkipPattern(), "-flake-attempts", "2"}
	if verbose {
		args = append(args, "-v")
	}

	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = filepath.Join(repo, "upstream")
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr

	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return false, nil
		}

		return false, err
	}

	return true, nil
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr

	return cmd
}

// startSandbox runs the sandbox on a free port and waits for its env file, which
// names identity's endpoint.
func startSandbox(binary, work string) (string, func(), error) {
	envFile := filepath.Join(work, "sandbox.env")

	// Every test here shares the fixture organization, whose quotas are sized for one
	// test's worth of objects: region's networks and load balancers charge them.
	args := []string{"-listen", "127.0.0.1:0", "-env-file", envFile, "-quota", "networks=1000,loadbalancers=1000,publicips=1000"}

	return startChild("the sandbox", binary, args, filepath.Join(work, "sandbox.log"), envFile, func(data string) (string, bool) {
		scanner := bufio.NewScanner(strings.NewReader(data))
		for scanner.Scan() {
			if value, ok := strings.CutPrefix(scanner.Text(), "export UNIKORN_IDENTITY_ENDPOINT="); ok {
				return strings.Trim(value, "'\""), true
			}
		}

		return "", false
	})
}

// startRegion runs region (cmd/unikorn-region-controller) on a free port, with the
// sandbox's regions, and waits until it serves.
func startRegion(binary, work, identityURL string) (string, func(), error) {
	urlFile := filepath.Join(work, "region.url")
	args := []string{
		"-identity", identityURL, "-url-file", urlFile,
		"-region", regionID + "=sandbox-1",
		"-region", privateRegionID + "=sandbox-private=" + organizationID,
	}

	return startChild("region", binary, args, filepath.Join(work, "region.log"), urlFile, func(data string) (string, bool) {
		return strings.TrimSpace(data), strings.HasSuffix(data, "\n")
	})
}

// startLimit bounds the waits for what the runner starts (the sandbox, region, the
// first network): long enough for a loaded machine, short enough to end a hang.
const startLimit = 10 * time.Minute

// startChild starts a process that dies with the runner, its standard error in
// logPath, and waits for it to write readyFile, whose content read turns into the
// address it serves at. stop interrupts it and waits for it to end.
//
// The wait is bounded by startLimit, which catches a child that hangs, not one that
// is slow: warm, both serve within seconds, but make test runs this step beside both
// CLIs' passes, where on a loaded machine a start has taken over a minute.
func startChild(name, binary string, args []string, logPath, readyFile string, read func(string) (string, bool)) (string, func(), error) {
	_ = os.Remove(readyFile)

	logFile, err := os.Create(logPath)
	if err != nil {
		return "", nil, err
	}

	cmd := exec.Command(binary, args...)
	cmd.Stdout = io.Discard
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}

	if err := cmd.Start(); err != nil {
		logFile.Close()

		return "", nil, err
	}

	exited := make(chan struct{})

	go func() {
		_ = cmd.Wait()

		close(exited)
	}()

	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-exited
		logFile.Close()
	}

	deadline := time.Now().Add(startLimit)

	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(readyFile); err == nil {
			if address, ok := read(string(data)); ok {
				return address, stop, nil
			}
		}

		select {
		case <-exited:
			logFile.Close()

			return "", nil, fmt.Errorf("%s ended before it served (its log: %s)", name, logPath)
		case <-time.After(50 * time.Millisecond):
		}
	}

	stop()

	return "", nil, fmt.Errorf("%s did not serve within %s (its log: %s)", name, startLimit, logPath)
}

// makeNetwork makes the network the tests build on, through region's API as the
// fixture user, and waits until region has provisioned it.
func makeNetwork(ctx context.Context, regionURL string) (string, error) {
	body := fmt.Sprintf(`{"metadata":{"name":"acceptance"},"spec":{"organizationId":%q,"projectId":%q,"regionId":%q,"prefix":"10.0.0.0/24","dnsNameservers":["8.8.8.8"]}}`,
		organizationID, projectID, regionID)

	var network struct {
		Metadata struct {
			ID                 string `json:"id"`
			ProvisioningStatus string `json:"provisioningStatus"`
		} `json:"metadata"`
	}

	if err := call(ctx, http.MethodPost, regionURL+"/api/v2/networks", body, http.StatusCreated, &network); err != nil {
		return "", err
	}

	deadline := time.Now().Add(startLimit)

	for network.Metadata.ProvisioningStatus != "provisioned" {
		if time.Now().After(deadline) {
			return "", fmt.Errorf("network %s is %s after %s", network.Metadata.ID, network.Metadata.ProvisioningStatus, startLimit)
		}

		time.Sleep(200 * time.Millisecond)

		if err := call(ctx, http.MethodGet, regionURL+"/api/v2/networks/"+network.Metadata.ID, "", http.StatusOK, &network); err != nil {
			return "", err
		}
	}

	return network.Metadata.ID, nil
}

func call(ctx context.Context, method, url, body string, want int, into any) error {
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}

	req, err := http.NewRequestWithContext(ctx, method, url, reader)
	if err != nil {
		return err
	}

	req.Header.Set("Authorization", "Bearer "+userToken)

	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}

	defer resp.Body.Close()

	data, _ := io.ReadAll(resp.Body)

	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, strings.TrimSpace(string(data)))
	}

	return json.Unmarshal(data, into)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}

	sort.Strings(keys)

	return keys
}
