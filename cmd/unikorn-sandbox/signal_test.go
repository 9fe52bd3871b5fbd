//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A CI job stops the sandbox with SIGTERM: the process exits 0, and the state it saves
// on the way out is brought up to date, so a network deleted before the signal is gone
// from the file rather than left deprovisioning.
func TestSIGTERMStopsTheProcessCleanlyAndSavesTheState(t *testing.T) {
	dir := t.TempDir()
	statePath, envFile := filepath.Join(dir, "state.json"), filepath.Join(dir, "sandbox.env")

	var stdout, stderr bytes.Buffer

	cmd := exec.Command(os.Args[0], "-listen", "127.0.0.1:0", "-state", statePath, "-env-file", envFile, "-deprovision-delay", "100ms")
	cmd.Env = append(os.Environ(), commandUnderTest+"=1")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())

	exited := make(chan error, 1)

	go func() { exited <- cmd.Wait() }()

	// A test that failed half way leaves no process behind.
	t.Cleanup(func() {
		if cmd.Process.Kill() == nil {
			t.Log("the sandbox was still running and was killed:", <-exited)
		}
	})

	exports := waitForEnvFile(t, envFile, exited)

	user, err := unikorn.NewClient(unikorn.Config{
		Endpoints: services.Endpoints{
			services.Region: exports["UNIKORN_REGION_ENDPOINT"], services.Identity: exports["UNIKORN_IDENTITY_ENDPOINT"],
		},
		Token: sandbox.DefaultToken, Retry: unikorn.RetryPolicy{MaxAttempts: 1},
	})
	require.NoError(t, err)

	network, err := user.CreateNetwork(t.Context(), unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: "short-lived"},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{}},
			OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID,
			Prefix: "10.77.0.0/24",
		},
	})
	require.NoError(t, err)
	require.NoError(t, user.DeleteNetwork(t.Context(), network.Metadata.ID))

	saved := readSavedNetworks(t, statePath)
	require.Contains(t, saved, network.Metadata.ID, "saved while deprovisioning")

	// Past the deprovision delay, with no request to bring the world up to date.
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))

	select {
	case err := <-exited:
		exited <- err
		require.NoError(t, err, "exit status; stderr:\n%s", stderr.String())
	case <-time.After(15 * time.Second):
		require.FailNow(t, "the sandbox did not exit on SIGTERM")
	}

	assert.NotContains(t, readSavedNetworks(t, statePath), network.Metadata.ID, "the state saved at exit is up to date")
	assert.Contains(t, readSavedNetworks(t, statePath), sandbox.NetworkDefaultID)

	written, err := os.ReadFile(envFile)
	require.NoError(t, err)
	assert.Equal(t, stdout.String(), string(written), "the file holds the printed lines")
	assert.Contains(t, stderr.String(), "shutting down")
}

// waitForEnvFile waits until the sandbox has written its export lines, and reads them.
func waitForEnvFile(t *testing.T, path string, exited chan error) map[string]string {
	t.Helper()

	deadline := time.Now().Add(10 * time.Second)

	for {
		data, err := os.ReadFile(path)
		if err == nil {
			exports := map[string]string{}

			for line := range strings.Lines(string(data)) {
				name, value, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "export "), "=")
				exports[name] = value
			}

			return exports
		}

		require.ErrorIs(t, err, os.ErrNotExist)

		select {
		case err := <-exited:
			require.FailNow(t, "the sandbox exited before it was ready", "%v", err)
		case <-time.After(20 * time.Millisecond):
		}

		if time.Now().After(deadline) {
			require.FailNow(t, "the sandbox wrote no env file within 10 seconds")
		}
	}
}

// readSavedNetworks returns the IDs of the networks in a saved state.
func readSavedNetworks(t *testing.T, path string) []string {
	t.Helper()

	data, err := os.ReadFile(path)
	require.NoError(t, err)

	var state struct {
		Networks map[string]json.RawMessage `json:"networks"`
	}

	require.NoError(t, json.Unmarshal(data, &state))

	ids := make([]string, 0, len(state.Networks))
	for id := range state.Networks {
		ids = append(ids, id)
	}

	return ids
}
