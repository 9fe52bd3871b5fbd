package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestStateSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	withState := func(o *sandbox.Options) { o.StatePath = statePath }

	first := sandboxtest.New(t, withState)
	ready := first.CreateReadyServer("kept")
	pending := first.CreateServer(sandboxtest.ServerCreate("still-pending"))

	var allocation unikorn.Allocation

	first.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation(ready.Metadata.ID, 0, 0)).Expect(http.StatusCreated, &allocation)

	// Every change is saved at once, atomically: no temporary file is left behind.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)

	require.NoError(t, first.Sandbox.Close())

	second := sandboxtest.New(t, withState)
	second.Clock.Set(first.Clock.Now())

	assert.Equal(t, ready, second.GetServer(ready.Metadata.ID))
	assert.Equal(t, unikorn.ProvisioningPending, second.GetServer(pending.Metadata.ID).Metadata.ProvisioningStatus)
	second.Call(http.MethodGet, sandboxtest.AllocationsPath(sandbox.ProjectID)+"/"+allocation.Metadata.ID, nil).Expect(http.StatusOK, nil)

	// Transitions in flight carry on where they were.
	second.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, unikorn.ProvisioningProvisioned, second.GetServer(pending.Metadata.ID).Metadata.ProvisioningStatus)

	// The network key pair is kept too.
	var before, after unikorn.SSHKey

	first.Call(http.MethodGet, "/api/v2/servers/"+ready.Metadata.ID+"/sshkey", nil).Expect(http.StatusOK, &before)
	second.Call(http.MethodGet, "/api/v2/servers/"+ready.Metadata.ID+"/sshkey", nil).Expect(http.StatusOK, &after)
	assert.Equal(t, before, after)
}

func TestStateOfAnotherVersionIsRefused(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(statePath, []byte(`{"version": 99}`), 0o600))

	_, err := sandbox.New(sandbox.Options{StatePath: statePath})
	require.ErrorContains(t, err, "version 99")

	require.NoError(t, os.WriteFile(statePath, []byte(`{`), 0o600))

	_, err = sandbox.New(sandbox.Options{StatePath: statePath})
	require.Error(t, err)
}

func TestFreshSandboxesAreIdentical(t *testing.T) {
	first, second := sandboxtest.New(t), sandboxtest.New(t)

	for _, path := range []string{
		"/api/v2/networks", "/api/v2/securitygroups", "/api/v2/sshcertificateauthorities", "/api/v2/loadbalancers",
		sandboxtest.RegionPath("/images"), sandboxtest.OrganizationPath("/quotas"), "/api/v2/filestorageclasses",
	} {
		assert.JSONEq(t, string(first.Call(http.MethodGet, path, nil).Body), string(second.Call(http.MethodGet, path, nil).Body), path)
	}
}

// A world saved before users and organizations were kept (version 2) names the
// fixture users by their IDs alone; loaded, the organizations and users join it and
// the groups name the users as identity does.
func TestStateOfVersion2GainsTheUsers(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	group := func(id, organizationID string) string {
		return `"` + id + `": {"metadata": {"id": "` + id + `", "name": "administrators", "organizationId": "` + organizationID + `",
			"creationTime": "2025-01-01T00:00:00Z", "provisioningStatus": "provisioned", "healthStatus": "healthy"},
			"spec": {"roleIDs": ["` + sandbox.AdministratorRoleID + `"], "serviceAccountIDs": [], "userIDs": ["` + sandbox.AdminUserID + `"],
			"subjects": [{"id": "` + sandbox.AdminUserID + `", "email": "` + sandbox.AdminUserID + `", "issuer": "https://identity.sandbox.unikorn-cloud.org"}]}}`
	}
	saved := `{"version": 2, "groups": {` + group(sandbox.AdministratorsGroupID, sandbox.OrganizationID) + `, ` + group(sandbox.EmptyAdministratorsGroupID, sandbox.EmptyOrganizationID) + `}}`
	require.NoError(t, os.WriteFile(statePath, []byte(saved), 0o600))

	h := sandboxtest.New(t, func(o *sandbox.Options) { o.StatePath = statePath })

	var read unikorn.Group

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.EmptyOrganizationPath("/groups/"+sandbox.EmptyAdministratorsGroupID), nil).Expect(http.StatusOK, &read)
	assert.Equal(t, []string{sandbox.EmptyAdminUserID}, read.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: sandbox.AdminSubject, Email: sandbox.AdminSubject, Issuer: h.URL}}, read.Spec.Subjects)
	var users []unikorn.User

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/users"), nil).Expect(http.StatusOK, &users)
	assert.Len(t, users, 2)
	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath(""), nil).Expect(http.StatusOK, nil)
}
