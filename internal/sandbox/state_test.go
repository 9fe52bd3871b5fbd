package sandbox

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestStateSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	withState := func(o *Options) { o.StatePath = statePath }

	first := newHarness(t, withState)
	ready := first.createReadyServer("kept")
	pending := first.createServer(serverCreate("still-pending"))

	var allocation unikorn.Allocation

	first.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation(ready.Metadata.ID, 0, 0)).expect(http.StatusCreated, &allocation)

	// Every change is saved at once, atomically: no temporary file is left behind.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)

	require.NoError(t, first.sb.Close())

	second := newHarness(t, withState)
	second.clock.now = first.clock.Now()

	assert.Equal(t, ready, second.getServer(ready.Metadata.ID))
	assert.Equal(t, unikorn.ProvisioningPending, second.getServer(pending.Metadata.ID).Metadata.ProvisioningStatus)
	second.call(http.MethodGet, allocationsPath(ProjectID)+"/"+allocation.Metadata.ID, nil).expect(http.StatusOK, nil)

	// Transitions in flight carry on where they were.
	second.clock.Advance(settle)
	assert.Equal(t, unikorn.ProvisioningProvisioned, second.getServer(pending.Metadata.ID).Metadata.ProvisioningStatus)

	// The network key pair is kept too.
	var before, after unikorn.SSHKey

	first.call(http.MethodGet, "/api/v2/servers/"+ready.Metadata.ID+"/sshkey", nil).expect(http.StatusOK, &before)
	second.call(http.MethodGet, "/api/v2/servers/"+ready.Metadata.ID+"/sshkey", nil).expect(http.StatusOK, &after)
	assert.Equal(t, before, after)
}

func TestStateOfAnotherVersionIsRefused(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(statePath, []byte(`{"version": 99}`), 0o600))

	_, err := New(Options{StatePath: statePath})
	require.ErrorContains(t, err, "version 99")

	require.NoError(t, os.WriteFile(statePath, []byte(`{`), 0o600))

	_, err = New(Options{StatePath: statePath})
	require.Error(t, err)
}

func TestFreshSandboxesAreIdentical(t *testing.T) {
	first, second := newHarness(t), newHarness(t)

	for _, path := range []string{
		"/api/v2/networks", "/api/v2/securitygroups", "/api/v2/sshcertificateauthorities", "/api/v2/loadbalancers",
		regionPath("/images"), organizationPath("/quotas"), "/api/v2/filestorageclasses",
	} {
		assert.JSONEq(t, string(first.call(http.MethodGet, path, nil).body), string(second.call(http.MethodGet, path, nil).body), path)
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
			"spec": {"roleIDs": ["` + AdministratorRoleID + `"], "serviceAccountIDs": [], "userIDs": ["` + AdminUserID + `"],
			"subjects": [{"id": "` + AdminUserID + `", "email": "` + AdminUserID + `", "issuer": "https://identity.sandbox.unikorn-cloud.org"}]}}`
	}
	saved := `{"version": 2, "groups": {` + group(AdministratorsGroupID, OrganizationID) + `, ` + group(EmptyAdministratorsGroupID, EmptyOrganizationID) + `}}`
	require.NoError(t, os.WriteFile(statePath, []byte(saved), 0o600))

	h := newHarness(t, func(o *Options) { o.StatePath = statePath })

	var read groupRead

	h.callAs(AdminToken, http.MethodGet, emptyOrganizationPath("/groups/"+EmptyAdministratorsGroupID), nil).expect(http.StatusOK, &read)
	assert.Equal(t, []string{EmptyAdminUserID}, read.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: AdminSubject, Email: AdminSubject, Issuer: h.url}}, read.Spec.Subjects)
	assert.Len(t, h.users(AdminToken), 2)
	h.callAs(AdminToken, http.MethodGet, organizationPath(""), nil).expect(http.StatusOK, nil)
}
