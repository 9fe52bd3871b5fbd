// Command upstream runs Unikorn's own black-box API test suites (region's and
// identity's test/api/suites, build tag integration) against a fresh sandbox.
//
// It builds the sandbox from the repository above, starts it on a free port, makes the
// fixtures upstream's CI makes (hack/ci/fixtures) through the sandbox's identity API as
// a user of it would, fills every configuration variable the sandbox can stand for,
// runs both suites and prints passed, failed and skipped per suite. It exits non-zero
// when a spec fails. The skips it asks for are in skips.go, each with its reason.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// The sandbox's fixtures, as README and docs/sandbox.md describe them.
const (
	adminToken = "sandbox-admin-token"
	// userToken is a user of the fixture organization. The sandbox creates neither
	// organizations nor users, so the fixtures go in the organization that holds this
	// user, whom the runner puts in the user group as upstream's CI puts its user.
	userToken = "sandbox-token"
	// userID is that user's ID (internal/sandbox's UserID), which identity's userinfo
	// does not tell: it names a user by email.
	userID = "a0000000-0000-4000-8000-000000000101"
	// fixtureOrganizationID is the fixture organization, whose administrator the admin
	// token is.
	fixtureOrganizationID = "a0000000-0000-4000-8000-000000000001"
	// emptyOrganizationID is another organization the admin token administers: region's
	// secondary organization.
	emptyOrganizationID = "a0000000-0000-4000-8000-000000000021"
	// foreignOrganizationID is an organization none of the fixtures made here belongs to.
	foreignOrganizationID = "a0000000-0000-4000-8000-000000000011"
	regionID              = "b0000000-0000-4000-8000-000000000001"
	// privateRegionID is the sandbox's region private to the fixture organization.
	privateRegionID = "b0000000-0000-4000-8000-000000000003"
	flavorID        = "11111111-1111-1111-1111-111111111111" // standard
	imageID         = "33333333-3333-3333-3333-333333333333" // Ubuntu, fits standard
	rebuildImageID  = "99999999-9999-9999-9999-999999999999" // Debian, fits standard
	// regionPrefix is region's own base URL on the sandbox (internal/sandbox's
	// RegionPrefix), as region's CI points both of its URLs at region alone.
	regionPrefix = "/region"
)

func main() {
	repo := flag.String("repo", "..", "the provider's repository, whose cmd/unikorn-sandbox is run")
	work := flag.String("work", "", "directory for the binaries and reports (default: a temporary one)")
	verbose := flag.Bool("v", false, "show the suites' own output")
	only := flag.String("suite", "", "run only this suite (region or identity)")
	focus := flag.String("focus", "", "run only the specs whose full text matches this regular expression")
	identity := flag.String("identity", "", "a sandbox already running, whose identity API the suites and their fixtures use (default: start one)")
	attempts := flag.Int("flake-attempts", 1, "run a failing spec up to this many times, reporting those that passed only on a later attempt")
	skip := flag.String("skip", "", "skip also the specs whose full text matches this regular expression")
	region := flag.String("region", "", "region's base URL for region's suite (default: the sandbox's "+regionPrefix+")")
	built := flag.String("built", "", "a file to create once the suites are built: make test builds real region (test-real-region), which shares most of their dependencies, only then, so that they are compiled once")
	flag.Parse()

	code, err := run(*repo, *work, *verbose, *only, *focus, *skip, *identity, *region, *attempts, *built)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test-upstream:", err)
		os.Exit(2)
	}

	os.Exit(code)
}

func run(repo, work string, verbose bool, only, focus, skip, identity, region string, attempts int, built string) (int, error) {
	chosen := []suite{}

	for _, s := range suites {
		if only == "" || s.name == only {
			chosen = append(chosen, s)
		}
	}

	if len(chosen) == 0 {
		return 0, fmt.Errorf("no suite is named %q", only)
	}

	if work == "" {
		dir, err := os.MkdirTemp("", "unikorn-upstream-")
		if err != nil {
			return 0, err
		}

		defer os.RemoveAll(dir)

		work = dir
	}

	work, err := filepath.Abs(work)
	if err != nil {
		return 0, err
	}

	if err := os.MkdirAll(work, 0o755); err != nil {
		return 0, err
	}

	for _, s := range chosen {
		step("building %s's suite", s.name)

		if err := command(".", "go", "test", "-tags", "integration", "-c", "-o", filepath.Join(work, s.name+".test"), s.pkg).Run(); err != nil {
			return 0, fmt.Errorf("building %s: %w", s.pkg, err)
		}
	}

	if built != "" {
		if err := os.WriteFile(built, nil, 0o644); err != nil {
			return 0, err
		}
	}

	endpoint := identity

	if endpoint == "" {
		sandboxBinary := filepath.Join(work, "unikorn-sandbox")

		step("building the sandbox")

		if err := command(repo, "go", "build", "-o", sandboxBinary, "./cmd/unikorn-sandbox").Run(); err != nil {
			return 0, fmt.Errorf("building the sandbox: %w", err)
		}

		started, stop, err := startSandbox(sandboxBinary, work)
		if err != nil {
			return 0, err
		}

		defer stop()

		endpoint = started
	}

	if region == "" {
		region = endpoint + regionPrefix
	}

	step("making the fixtures through %s", endpoint)

	env, err := makeFixtures(endpoint, region)
	if err != nil {
		return 0, fmt.Errorf("fixtures: %w", err)
	}

	for _, u := range unset {
		step("%s: %s left unset: %s", u.suite, u.variable, u.reason)
	}

	failed := 0
	results := []result{}

	for _, s := range chosen {
		step("running %s's suite", s.name)

		res, err := runSuite(s, work, env, verbose, focus, skip, attempts)
		if err != nil {
			return 0, err
		}

		results = append(results, res)
		failed += len(res.failures)
	}

	fmt.Println()

	for _, res := range results {
		fmt.Printf("%-9s passed %3d  failed %3d  skipped %3d  of %3d\n", res.suite, res.passed, len(res.failures), res.skipped, res.total)
	}

	for _, res := range results {
		for _, name := range res.flaky {
			fmt.Printf("%s: passed only when tried again: %s\n", res.suite, name)
		}

		if len(res.failures) == 0 {
			continue
		}

		fmt.Printf("\n%s's failures:\n", res.suite)

		for _, f := range res.failures {
			fmt.Printf("- %s\n    %s\n", f.name, f.message)
		}
	}

	if failed > 0 {
		return 1, nil
	}

	return 0, nil
}

func step(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "==> "+format+"\n", args...)
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr

	return cmd
}

// startWithin bounds the wait for the sandbox to serve.
const startWithin = 3 * time.Minute

// startSandbox runs the sandbox on a free port and waits for its env file.
func startSandbox(binary, work string) (string, func(), error) {
	envFile := filepath.Join(work, "sandbox.env")
	_ = os.Remove(envFile)

	logFile, err := os.Create(filepath.Join(work, "sandbox.log"))
	if err != nil {
		return "", nil, err
	}

	cmd := exec.Command(binary, "-listen", "127.0.0.1:0", "-env-file", envFile)
	cmd.Stdout = io.Discard
	cmd.Stderr = logFile // its request log, for -work's reader

	if err := cmd.Start(); err != nil {
		logFile.Close()
		return "", nil, err
	}

	exited := make(chan struct{})

	var waitErr error

	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-exited
		logFile.Close()
	}

	// The sandbox serves within a second when the machine is idle; beside make test's
	// passes a loaded machine may leave it little for a while, so the wait is generous,
	// and ends early if it stopped.
	deadline := time.Now().Add(startWithin)

	for time.Now().Before(deadline) {
		select {
		case <-exited:
			logFile.Close()

			// The work directory may go with this run, so the log's end goes in the error.
			return "", nil, fmt.Errorf("the sandbox ended before it served (%v); its log ends:\n%s", waitErr, lastLines(logFile.Name(), 20))
		default:
		}

		data, err := os.ReadFile(envFile)
		if err == nil {
			scanner := bufio.NewScanner(bytes.NewReader(data))
			for scanner.Scan() {
				if value, ok := strings.CutPrefix(scanner.Text(), "export UNIKORN_IDENTITY_ENDPOINT="); ok {
					return strings.Trim(value, "'\""), stop, nil
				}
			}
		}

		time.Sleep(100 * time.Millisecond)
	}

	stop()

	return "", nil, fmt.Errorf("the sandbox wrote no env file within %s", startWithin)
}

// lastLines returns the last n lines of the file at name, or why it could not be read.
func lastLines(name string, n int) string {
	data, err := os.ReadFile(name)
	if err != nil {
		return err.Error()
	}

	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")

	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

type result struct {
	suite                  string
	passed, skipped, total int
	failures               []failure
	// flaky are the specs that passed only on a later attempt (-flake-attempts).
	flaky []string
}

type failure struct {
	name, message string
}

// runSuite runs one suite's binary in an empty directory (so that no stray .env is
// read) and reads its JSON report.
func runSuite(s suite, work string, env map[string]string, verbose bool, focus, also string, attempts int) (result, error) {
	dir := filepath.Join(work, s.name)
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		return result{}, err
	}

	report := filepath.Join(dir, "report.json")
	args := []string{"-ginkgo.json-report=" + report, "-ginkgo.timeout=30m"}

	skips := []string{}

	for _, pattern := range []string{skipPattern(s.name), also} {
		if pattern != "" {
			skips = append(skips, "(?:"+pattern+")")
		}
	}

	if len(skips) > 0 {
		args = append(args, "-ginkgo.skip="+strings.Join(skips, "|"))
	}

	if focus != "" {
		args = append(args, "-ginkgo.focus="+focus)
	}

	if attempts > 1 {
		args = append(args, fmt.Sprintf("-ginkgo.flake-attempts=%d", attempts))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 35*time.Minute)
	defer cancel()

	cmd := exec.CommandContext(ctx, filepath.Join(work, s.name+".test"), args...)
	cmd.Dir = filepath.Join(dir, "a", "b")
	cmd.Env = os.Environ()

	for _, key := range sortedKeys(env) {
		if s.uses(key) {
			cmd.Env = append(cmd.Env, key+"="+env[key])
		}
	}

	var out bytes.Buffer

	if verbose {
		cmd.Stdout = os.Stderr
		cmd.Stderr = os.Stderr
	} else {
		cmd.Stdout = &out
		cmd.Stderr = &out
	}

	_ = cmd.Run() // a failing suite exits non-zero; the report says why

	data, err := os.ReadFile(report)
	if err != nil {
		os.Stderr.Write(out.Bytes())
		return result{}, fmt.Errorf("%s wrote no report: %w", s.name, err)
	}

	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil {
		return result{}, fmt.Errorf("%s's report: %w", s.name, err)
	}

	res := result{suite: s.name}

	for _, r := range reports {
		for _, spec := range r.SpecReports {
			if spec.LeafNodeType != types.NodeTypeIt {
				if spec.State.Is(types.SpecStateFailureStates) {
					res.failures = append(res.failures, failure{name: "[" + spec.LeafNodeType.String() + "] " + spec.FullText(), message: firstLine(spec.Failure.Message)})
				}

				continue
			}

			res.total++

			switch {
			case spec.State == types.SpecStatePassed:
				res.passed++

				if spec.NumAttempts > 1 {
					res.flaky = append(res.flaky, fmt.Sprintf("%s (attempt %d)", spec.FullText(), spec.NumAttempts))
				}
			case spec.State.Is(types.SpecStateSkipped | types.SpecStatePending):
				res.skipped++
			default:
				res.failures = append(res.failures, failure{name: spec.FullText(), message: firstLine(spec.Failure.Message)})
			}
		}
	}

	return res, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}

	if len(s) > 200 {
		s = s[:200] + "…"
	}

	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}

	sort.Strings(keys)

	return keys
}

// client speaks to the sandbox's identity API with a bearer token.
type client struct {
	endpoint, token string
}

func (c client) do(method, path string, body, into any, want int) error {
	var reader io.Reader

	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}

		reader = bytes.NewReader(data)
	}

	req, err := http.NewRequest(method, c.endpoint+path, reader)
	if err != nil {
		return err
	}

	req.Header.Set("Authorization", "Bearer "+c.token)

	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}

	defer resp.Body.Close()

	data, _ := io.ReadAll(resp.Body)

	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(data)))
	}

	if into != nil {
		return json.Unmarshal(data, into)
	}

	return nil
}

type object struct {
	Metadata struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"metadata"`
	Status struct {
		AccessToken string `json:"accessToken"`
	} `json:"status"`
}

func (c client) roleIDs(org string) (map[string]string, error) {
	var roles []object
	if err := c.do(http.MethodGet, "/api/v1/organizations/"+org+"/roles", nil, &roles, http.StatusOK); err != nil {
		return nil, err
	}

	ids := map[string]string{}
	for _, r := range roles {
		ids[r.Metadata.Name] = r.Metadata.ID
	}

	for _, name := range []string{"administrator", "user", "auditor"} {
		if ids[name] == "" {
			return nil, fmt.Errorf("organization %s has no role %q", org, name)
		}
	}

	return ids, nil
}

func (c client) group(org, name, roleID string, userIDs ...string) (string, error) {
	var created object

	spec := map[string]any{"roleIDs": []string{roleID}, "serviceAccountIDs": []string{}}
	if len(userIDs) > 0 {
		spec["userIDs"] = userIDs
	}

	body := map[string]any{"metadata": map[string]any{"name": name}, "spec": spec}

	err := c.do(http.MethodPost, "/api/v1/organizations/"+org+"/groups", body, &created, http.StatusCreated)

	return created.Metadata.ID, err
}

func (c client) project(org, name string, groupIDs []string) (string, error) {
	var created object

	body := map[string]any{
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"groupIDs": groupIDs},
	}

	err := c.do(http.MethodPost, "/api/v1/organizations/"+org+"/projects", body, &created, http.StatusAccepted)

	return created.Metadata.ID, err
}

func (c client) serviceAccount(org, name string, groupIDs []string) (string, string, error) {
	var created object

	body := map[string]any{
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"groupIDs": groupIDs},
	}

	err := c.do(http.MethodPost, "/api/v1/organizations/"+org+"/serviceaccounts", body, &created, http.StatusCreated)

	return created.Metadata.ID, created.Status.AccessToken, err
}

// makeFixtures makes what identity's and region's hack/ci/fixtures make, in the
// organizations the sandbox's administrator holds (the sandbox creates no
// organizations), and returns the configuration both suites read, region's pointed at
// region (the sandbox's own, or real region asking the sandbox as its identity).
func makeFixtures(endpoint, region string) (map[string]string, error) {
	c := client{endpoint: endpoint, token: adminToken}
	org := fixtureOrganizationID

	roles, err := c.roleIDs(org)
	if err != nil {
		return nil, err
	}

	adminGroup, err := c.group(org, "ci-admin-group", roles["administrator"])
	if err != nil {
		return nil, err
	}

	userGroup, err := c.group(org, "ci-user-group", roles["user"], userID)
	if err != nil {
		return nil, err
	}

	// The user's subject, as the group names it.
	var read struct {
		Spec struct {
			Subjects []struct {
				ID    string `json:"id"`
				Email string `json:"email"`
			} `json:"subjects"`
		} `json:"spec"`
	}

	if err := c.do(http.MethodGet, "/api/v1/organizations/"+org+"/groups/"+userGroup, nil, &read, http.StatusOK); err != nil {
		return nil, err
	}

	subjectEmail := ""
	if len(read.Spec.Subjects) == 1 {
		subjectEmail = read.Spec.Subjects[0].Email
	}

	project, err := c.project(org, "ci-test-project", []string{adminGroup, userGroup})
	if err != nil {
		return nil, err
	}

	adminSA, adminSAToken, err := c.serviceAccount(org, "ci-admin-sa", []string{adminGroup})
	if err != nil {
		return nil, err
	}

	userSA, userSAToken, err := c.serviceAccount(org, "ci-user-sa", []string{userGroup})
	if err != nil {
		return nil, err
	}

	auditGroup, err := c.group(org, "ci-audit-group", roles["auditor"])
	if err != nil {
		return nil, err
	}

	_, auditSAToken, err := c.serviceAccount(org, "ci-audit-sa", []string{auditGroup})
	if err != nil {
		return nil, err
	}

	// Region's secondary organization: an administrator's service account there.
	secondaryRoles, err := c.roleIDs(emptyOrganizationID)
	if err != nil {
		return nil, err
	}

	secondaryGroup, err := c.group(emptyOrganizationID, "ci-secondary-admin-group", secondaryRoles["administrator"])
	if err != nil {
		return nil, err
	}

	_, secondaryToken, err := c.serviceAccount(emptyOrganizationID, "ci-secondary-admin-sa", []string{secondaryGroup})
	if err != nil {
		return nil, err
	}

	// A project there, for what the secondary organization tries to create.
	secondaryProject, err := c.project(emptyOrganizationID, "ci-secondary-project", []string{secondaryGroup})
	if err != nil {
		return nil, err
	}

	return map[string]string{
		// Both suites.
		"IDENTITY_BASE_URL": endpoint,
		"TEST_ORG_ID":       org,
		"TEST_PROJECT_ID":   project,
		"API_AUTH_TOKEN":    adminSAToken,
		"REQUEST_TIMEOUT":   "30s",
		// How long a spec waits for something to settle (20m by default, for a real
		// cluster). The sandbox settles within seconds, and a spec that waits for what
		// the sandbox never does would otherwise hold the run for 20 minutes.
		"TEST_TIMEOUT": "2m",
		// Identity's (hack/ci/fixtures of identity).
		"UNAUTHORISED_ORG_ID":     foreignOrganizationID,
		"ADMIN_AUTH_TOKEN":        adminSAToken,
		"TEST_ADMIN_GROUP_ID":     adminGroup,
		"TEST_USER_GROUP_ID":      userGroup,
		"TEST_ADMIN_SA_ID":        adminSA,
		"TEST_USER_SA_ID":         userSA,
		"SERVICE_ACCOUNT_TOKEN":   userSAToken,
		"AUDIT_AUTH_TOKEN":        auditSAToken,
		"USER_AUTH_TOKEN":         userToken,
		"TEST_USER_ID":            userID,
		"TEST_USER_SUBJECT_EMAIL": subjectEmail,
		// Region's (hack/ci/fixtures of region).
		// Region's own base URL: the root answers /api/version as identity.
		"API_BASE_URL":                 region,
		"REGION_BASE_URL":              region,
		"TEST_REGION_ID":               regionID,
		"TEST_PRIVATE_REGION_ID":       privateRegionID,
		"TEST_SECONDARY_ORG_ID":        emptyOrganizationID,
		"TEST_SECONDARY_AUTH_TOKEN":    secondaryToken,
		"TEST_SECONDARY_PROJECT_ID":    secondaryProject,
		"TEST_SERVER_FLAVOR_ID":        flavorID,
		"TEST_SERVER_IMAGE_ID":         imageID,
		"TEST_SERVER_REBUILD_IMAGE_ID": rebuildImageID,
		"INTERNAL_API_ACTOR":           adminSA,
	}, nil
}
