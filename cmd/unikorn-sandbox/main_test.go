package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

func TestRunPrintsExportsServesAndSavesOnShutdown(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	stdout, stdoutWriter := io.Pipe()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	done := make(chan error, 1)

	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-token", "it's-mine", "-state", statePath}, stdoutWriter, io.Discard)
		stdoutWriter.Close()
	}()

	exports := map[string]string{}
	scanner := bufio.NewScanner(stdout)

	for len(exports) < 6 && scanner.Scan() {
		name, value, found := strings.Cut(strings.TrimPrefix(scanner.Text(), "export "), "=")
		require.True(t, found, "line %q", scanner.Text())

		exports[name] = value
	}

	endpoint := exports["UNIKORN_REGION_ENDPOINT"]
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, endpoint)
	assert.Equal(t, endpoint, exports["UNIKORN_IDENTITY_ENDPOINT"])
	assert.Equal(t, endpoint+"/compute", exports["UNIKORN_COMPUTE_ENDPOINT"])
	assert.Equal(t, `'it'\''s-mine'`, exports["UNIKORN_TOKEN"], "quoted for eval")
	assert.Equal(t, sandbox.OrganizationID, exports["UNIKORN_ORGANIZATION_ID"])
	assert.Equal(t, sandbox.ProjectID, exports["UNIKORN_PROJECT_ID"])

	req, err := http.NewRequest(http.MethodGet, endpoint+"/api/v1/organizations/"+sandbox.OrganizationID+"/regions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer it's-mine")

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	cancel()
	require.NoError(t, <-done)

	_, err = os.Stat(statePath)
	require.NoError(t, err, "the state is saved at exit")
}

func TestRunRejectsBadFlags(t *testing.T) {
	err := run(context.Background(), []string{"-provision-delay", "soon"}, io.Discard, io.Discard)
	require.Error(t, err)

	err = run(context.Background(), []string{"-read-lag", "a while"}, io.Discard, io.Discard)
	require.Error(t, err)

	err = run(context.Background(), []string{"-seed", "-1"}, io.Discard, io.Discard)
	require.Error(t, err)
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
