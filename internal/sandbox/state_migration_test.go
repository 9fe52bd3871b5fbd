package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAVersionOneStateGainsTheIdentityFixtures(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	withState := func(o *sandbox.Options) { o.StatePath = statePath }

	first := sandboxtest.New(t, withState)
	group := first.CreateGroup(sandboxtest.EmptyOrganizationPath, "kept", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})
	require.NoError(t, first.Sandbox.Close())

	second := sandboxtest.New(t, withState)
	second.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.EmptyOrganizationPath("/groups/"+group.Metadata.ID), nil).Expect(http.StatusOK, nil)

	data, err := os.ReadFile(statePath)
	require.NoError(t, err)

	old := strings.Replace(string(data), `"version": 2`, `"version": 1`, 1)
	require.NoError(t, os.WriteFile(statePath, []byte(old), 0o600))
	require.NoError(t, second.Sandbox.Close())
	require.NoError(t, os.WriteFile(statePath, []byte(old), 0o600))

	third := sandboxtest.New(t, withState)
	third.ProjectAs(sandbox.DefaultToken, sandbox.OrganizationID, sandbox.ProjectID).Expect(http.StatusOK, nil)
	third.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+sandbox.AdministratorsGroupID), nil).Expect(http.StatusOK, nil)
}
