package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// commandUnderTest makes the test binary run the command itself, so that a test can
// start it as a process and signal it.
const commandUnderTest = "SANDBOX_COMMAND_UNDER_TEST"

func TestMain(m *testing.M) {
	if os.Getenv(commandUnderTest) == "1" {
		main()
		os.Exit(0)
	}

	os.Exit(m.Run())
}

// started is a sandbox that run serves in the background.
type started struct {
	exports map[string]string
	stop    func() error
}

// exportCount is how many export lines the command prints: every service's endpoint,
// the token, the organization and the project.
var exportCount = len(services.All()) + 3

// start runs the command with args and environ until the test ends, and reads the
// export lines it prints once listening.
func start(t *testing.T, args, environ []string) *started {
	t.Helper()

	stdout, stdoutWriter := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)

	go func() {
		done <- run(ctx, append([]string{"-listen", "127.0.0.1:0"}, args...), environ, stdoutWriter, io.Discard)
		stdoutWriter.Close()
	}()

	s := &started{exports: map[string]string{}, stop: sync.OnceValue(func() error {
		cancel()

		return <-done
	})}

	t.Cleanup(func() { _ = s.stop() })

	scanner := bufio.NewScanner(stdout)

	for len(s.exports) < exportCount && scanner.Scan() {
		name, value, found := strings.Cut(strings.TrimPrefix(scanner.Text(), "export "), "=")
		require.True(t, found, "line %q", scanner.Text())

		s.exports[name] = value
	}

	require.Len(t, s.exports, exportCount, "the sandbox stopped before it listened")

	// The rest of stdout is not read; keep the pipe from blocking the command.
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	return s
}

// client is a wire client of the started sandbox holding token.
func (s *started) client(t *testing.T, token string) *unikorn.Client {
	t.Helper()

	endpoint := s.exports["UNIKORN_REGION_ENDPOINT"]

	c, err := unikorn.NewClient(unikorn.Config{
		Endpoints: services.InSandbox(endpoint), Token: token, Retry: unikorn.RetryPolicy{MaxAttempts: 1},
	})
	require.NoError(t, err)

	return c
}

func TestRunPrintsExportsServesAndSavesOnShutdown(t *testing.T) {
	dir := t.TempDir()
	statePath, envFile := filepath.Join(dir, "state.json"), filepath.Join(dir, "sandbox.env")
	require.NoError(t, os.WriteFile(envFile, []byte("export UNIKORN_REGION_ENDPOINT=http://stale\n"), 0o600))

	s := start(t, []string{"-token", "it's-mine", "-state", statePath, "-env-file", envFile}, nil)

	endpoint := s.exports["UNIKORN_REGION_ENDPOINT"]
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, endpoint)
	assert.Equal(t, endpoint, s.exports["UNIKORN_IDENTITY_ENDPOINT"])
	assert.Equal(t, endpoint+"/compute", s.exports["UNIKORN_COMPUTE_ENDPOINT"])
	assert.Equal(t, `'it'\''s-mine'`, s.exports["UNIKORN_TOKEN"], "quoted for eval")
	assert.Equal(t, sandbox.OrganizationID, s.exports["UNIKORN_ORGANIZATION_ID"])
	assert.Equal(t, sandbox.ProjectID, s.exports["UNIKORN_PROJECT_ID"])

	for _, service := range services.All() {
		assert.Equal(t, endpoint+service.SandboxPrefix(), s.exports[service.EnvVar()], "%s is exported", service)
	}

	written, err := os.ReadFile(envFile)
	require.NoError(t, err)
	assert.Equal(t, exportLines(endpoint, "it's-mine"), string(written), "the file holds what was printed, not what an earlier run left")

	_, err = s.client(t, "it's-mine").ListRegions(t.Context(), sandbox.OrganizationID)
	require.NoError(t, err)

	require.NoError(t, s.stop())

	_, err = os.Stat(statePath)
	require.NoError(t, err, "the state is saved at exit")
}

func TestEnvironmentMakesTheSandboxHarsher(t *testing.T) {
	s := start(t, []string{"-quota", "gpus=0"}, []string{
		"HOME=/somewhere",
		"UNIKORN_SANDBOX_QUOTA=servers=1,gpus=1",
		`UNIKORN_SANDBOX_FAULT=[{"method":"GET","route":"/api/v1/organizations/{organizationID}/regions","status":503,"count":1}]`,
		"UNIKORN_SANDBOX_READ_LAG=",
	})
	user := s.client(t, sandbox.DefaultToken)

	_, err := user.ListRegions(t.Context(), sandbox.OrganizationID)
	require.ErrorContains(t, err, "503", "the fault rule from the environment")

	_, err = user.ListRegions(t.Context(), sandbox.OrganizationID)
	require.NoError(t, err, "the rule faults one request")

	quotas, err := user.GetQuotas(t.Context(), sandbox.OrganizationID)
	require.NoError(t, err)

	quantities := map[string]int{}
	for _, quota := range quotas.Quotas {
		quantities[quota.Kind] = quota.Quantity
	}

	assert.Equal(t, 1, quantities["servers"], "from the environment")
	assert.Equal(t, 0, quantities["gpus"], "the flag wins over the environment")
	assert.Equal(t, 5, quantities["networks"], "the fixtures' own")
}

func TestRunRejectsBadSettings(t *testing.T) {
	for name, setting := range map[string]struct {
		args, environ []string
		says          string
	}{
		"duration":                 {args: []string{"-provision-delay", "soon"}, says: "invalid value"},
		"seed":                     {args: []string{"-seed", "-1"}, says: "invalid value"},
		"read lag in the env":      {environ: []string{"UNIKORN_SANDBOX_READ_LAG=a while"}, says: `UNIKORN_SANDBOX_READ_LAG="a while"`},
		"misspelt variable":        {environ: []string{"UNIKORN_SANDBOX_READLAG=2s"}, says: "UNIKORN_SANDBOX_READLAG is not a setting"},
		"version from the env":     {environ: []string{"UNIKORN_SANDBOX_VERSION=true"}, says: "UNIKORN_SANDBOX_VERSION is not a setting"},
		"quota pair":               {args: []string{"-quota", "servers"}, says: "is not kind=quantity"},
		"quota kind":               {args: []string{"-quota", "server=1"}, says: `quota kind "server" is not one of`},
		"negative quota":           {args: []string{"-quota", "servers=-1"}, says: "a quantity is 0 or more"},
		"fault field misspelt":     {args: []string{"-fault", `{"stauts":503}`}, says: `unknown field "stauts"`},
		"fault route":              {args: []string{"-fault", `{"route":"/api/v2/nowhere","status":503}`}, says: "fault rule 1"},
		"argument that is no flag": {args: []string{"serve"}, says: "unexpected arguments"},
	} {
		t.Run(name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"-listen", "127.0.0.1:0"}, setting.args...), setting.environ, io.Discard, io.Discard)
			require.ErrorContains(t, err, setting.says)
		})
	}
}

func TestVersion(t *testing.T) {
	var stdout bytes.Buffer

	require.NoError(t, run(context.Background(), []string{"-version"}, nil, &stdout, io.Discard))
	assert.Regexp(t, `^unikorn-sandbox \S+\n$`, stdout.String())

	version = "1.2.3"
	defer func() { version = "" }()

	stdout.Reset()
	require.NoError(t, run(context.Background(), []string{"-version"}, nil, &stdout, io.Discard))
	assert.Equal(t, "unikorn-sandbox 1.2.3\n", stdout.String(), "the release's version, set at link time")
}

func TestClientAddressReachesAWildcardListenerOnLoopback(t *testing.T) {
	assert.Equal(t, "127.0.0.1:8080", clientAddress(&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}))
	assert.Equal(t, "10.1.2.3:80", clientAddress(&net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 80}))
}

func TestShellQuote(t *testing.T) {
	assert.Equal(t, "http://127.0.0.1:8080", shellQuote("http://127.0.0.1:8080"))
	assert.Equal(t, "'a b'", shellQuote("a b"))
	assert.Equal(t, `'a'\''b'`, shellQuote("a'b"))
}
