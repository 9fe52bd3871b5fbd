package sandbox

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func emptyOrganizationPath(suffix string) string {
	return "/api/v1/organizations/" + EmptyOrganizationID + suffix
}

func (h *harness) createGroup(organizationPath func(string) string, name string, spec unikorn.GroupSpec) unikorn.Group {
	h.t.Helper()

	var group unikorn.Group

	h.callAs(AdminToken, http.MethodPost, organizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: name}, Spec: spec}).
		expect(http.StatusCreated, &group)

	return group
}

func (h *harness) createProject(organizationPath func(string) string, groupIDs ...string) unikorn.Project {
	h.t.Helper()

	var project unikorn.Project

	h.callAs(AdminToken, http.MethodPost, organizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "team"}, Spec: unikorn.ProjectSpec{GroupIDs: append([]string{}, groupIDs...)},
	}).expect(http.StatusAccepted, &project)

	return project
}

func (h *harness) projectAs(token, organizationID, projectID string) *response {
	h.t.Helper()

	return h.callAs(token, http.MethodGet, "/api/v1/organizations/"+organizationID+"/projects/"+projectID, nil)
}

func TestOnlyAnAdministratorCreatesProjectsAndTheyProvision(t *testing.T) {
	h := newHarness(t)
	write := unikorn.ProjectWrite{Metadata: unikorn.WriteMetadata{Name: "team"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}}}

	// The project user and compute's service principal hold no project creation.
	refusal := h.callAs(DefaultToken, http.MethodPost, organizationPath("/projects"), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "operation is not allowed by rbac: operation 'create' on endpoint 'identity:projects' is not permitted", refusal.ErrorDescription)
	h.call(http.MethodPost, organizationPath("/projects"), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(AdminToken, http.MethodPost, "/api/v1/organizations/"+ForeignOrganizationID+"/projects", write).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	project := h.createProject(emptyOrganizationPath)
	assert.Equal(t, unikorn.ProvisioningPending, project.Metadata.ProvisioningStatus)
	assert.Equal(t, EmptyOrganizationID, project.Metadata.OrganizationID)

	// Nobody else in the organization reads it; its groups name none of them.
	h.projectAs(DefaultToken, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.clock.Advance(settle)

	var read unikorn.Project

	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, &read)
	assert.Equal(t, unikorn.ProvisioningProvisioned, read.Metadata.ProvisioningStatus)

	var projects []unikorn.Project

	h.callAs(AdminToken, http.MethodGet, emptyOrganizationPath("/projects"), nil).expect(http.StatusOK, &projects)
	require.Len(t, projects, 1)

	// The fixture projects are where they were, for the tokens that had them.
	h.projectAs(DefaultToken, OrganizationID, ProjectID).expect(http.StatusOK, nil)
}

func TestProjectUpdateAnswersNoBodyAndConflictsWhileReconciling(t *testing.T) {
	h := newHarness(t)
	project := h.createProject(emptyOrganizationPath)
	path := emptyOrganizationPath("/projects/" + project.Metadata.ID)
	write := unikorn.ProjectWrite{Metadata: unikorn.WriteMetadata{Name: "renamed", Description: "d"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}}}

	h.callAs(AdminToken, http.MethodPut, path, write).expectError(http.StatusConflict, unikorn.ErrorConflict)
	h.clock.Advance(settle)

	response := h.callAs(AdminToken, http.MethodPut, path, write).expect(http.StatusOK, nil)
	assert.Empty(t, response.body, "identity answers a project update with no body")

	unknown := write
	unknown.Spec.GroupIDs = []string{"f0000000-0000-4000-8000-0000000000aa"}
	h.clock.Advance(settle)
	refusal := h.callAs(AdminToken, http.MethodPut, path, unknown).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, refusal.ErrorDescription, "group ID f0000000-0000-4000-8000-0000000000aa does not exist")

	h.callAs(AdminToken, http.MethodPut, emptyOrganizationPath("/projects/f0000000-0000-4000-8000-0000000000aa"), write).
		expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	var read unikorn.Project

	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, &read)
	assert.Equal(t, "renamed", read.Metadata.Name)
}

func TestProjectDeleteIsHeldWhileSomethingReferencesIt(t *testing.T) {
	h := newHarness(t)
	group := h.createGroup(emptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.createProject(emptyOrganizationPath, group.Metadata.ID)
	h.clock.Advance(settle)

	body := networkCreate("net", "10.9.0.0/24")
	body.Spec.OrganizationID, body.Spec.ProjectID = EmptyOrganizationID, project.Metadata.ID

	var network unikorn.Network

	h.callAs(AdminToken, http.MethodPost, "/api/v2/networks", body).expect(http.StatusCreated, &network)
	h.clock.Advance(settle)

	path := emptyOrganizationPath("/projects/" + project.Metadata.ID)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)

	// Nothing new goes into a project being deleted.
	h.callAs(AdminToken, http.MethodPost, "/api/v2/networks", body).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.clock.Advance(10 * settle)

	var held unikorn.Project

	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, &held)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, held.Metadata.ProvisioningStatus)
	assert.NotNil(t, held.Metadata.DeletionTime)
	assert.Equal(t, []string{"region network " + network.Metadata.ID}, h.sb.ProjectReferences(project.Metadata.ID))

	h.callAs(AdminToken, http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)

	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestGroupsAreSynchronousAndFollowIdentitysRules(t *testing.T) {
	h := newHarness(t)
	spec := unikorn.GroupSpec{RoleIDs: []string{UserRoleID, UserRoleID}, UserIDs: []string{UserID}, ServiceAccountIDs: []string{}}
	group := h.createGroup(organizationPath, "team", spec)
	assert.Equal(t, []string{UserRoleID}, group.Spec.RoleIDs, "identity deduplicates role IDs")
	// A group has no status conditions, which core's conversion reports as provisioned
	// and healthy.
	assert.Equal(t, unikorn.ProvisioningProvisioned, group.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthHealthy, group.Metadata.HealthStatus)

	path := organizationPath("/groups/" + group.Metadata.ID)
	h.callAs(AdminToken, http.MethodGet, path, nil).expect(http.StatusOK, nil)

	// A group without members reads with empty lists, as identity's convert writes them.
	bare := h.createGroup(organizationPath, "bare", unikorn.GroupSpec{RoleIDs: []string{UserRoleID}, ServiceAccountIDs: []string{}})
	bareRead := h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+bare.Metadata.ID), nil).expect(http.StatusOK, nil)
	assert.Contains(t, string(bareRead.body), `"userIDs":[],"subjects":[]`)
	h.callAs(AdminToken, http.MethodDelete, organizationPath("/groups/"+bare.Metadata.ID), nil).expect(http.StatusOK, nil)

	spec.RoleIDs = []string{ReaderRoleID}
	response := h.callAs(AdminToken, http.MethodPut, path, unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: spec}).expect(http.StatusOK, nil)
	assert.Empty(t, response.body)

	for name, tc := range map[string]struct {
		mutate func(*unikorn.GroupSpec)
		status int
	}{
		"unknown role":    {func(s *unikorn.GroupSpec) { s.RoleIDs = []string{"f0000000-0000-4000-8000-0000000000aa"} }, http.StatusBadRequest},
		"protected role":  {func(s *unikorn.GroupSpec) { s.RoleIDs = []string{"f1000000-0000-4000-8000-000000000005"} }, http.StatusForbidden},
		"unknown user":    {func(s *unikorn.GroupSpec) { s.UserIDs = []string{"f0000000-0000-4000-8000-0000000000aa"} }, http.StatusBadRequest},
		"users both ways": {func(s *unikorn.GroupSpec) { s.Subjects = []unikorn.Subject{{ID: "x", Issuer: "y"}} }, http.StatusBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			bad := spec
			tc.mutate(&bad)
			h.callAs(AdminToken, http.MethodPost, organizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "bad"}, Spec: bad}).
				expect(tc.status, nil)
		})
	}

	// A project user may not manage groups at all.
	h.callAs(DefaultToken, http.MethodGet, organizationPath("/groups"), nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A deleted group leaves the projects that named it.
	project := h.createProject(organizationPath, group.Metadata.ID)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expect(http.StatusOK, nil)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(AdminToken, http.MethodGet, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/not-an-id"), nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	var read unikorn.Project

	h.projectAs(AdminToken, OrganizationID, project.Metadata.ID).expect(http.StatusOK, &read)
	assert.Empty(t, read.Spec.GroupIDs)

	var roles []unikorn.Role

	h.callAs(AdminToken, http.MethodGet, organizationPath("/roles"), nil).expect(http.StatusOK, &roles)
	names := make([]string, 0, len(roles))
	for _, role := range roles {
		names = append(names, role.Metadata.Name)
	}

	assert.Equal(t, []string{"administrator", "auditor", "reader", "user"}, names, "protected roles are never listed")

	// The fixture administrators group names its user as a subject too, as every group
	// with user IDs does: by the user's subject, issued by the sandbox itself at the
	// address it was reached at.
	var administrators unikorn.Group

	h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+AdministratorsGroupID), nil).expect(http.StatusOK, &administrators)
	assert.Equal(t, []string{AdminUserID}, administrators.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: AdminSubject, Email: AdminSubject, Issuer: h.url}}, administrators.Spec.Subjects)
}

func TestAServiceAccountTokenCarriesItsGroupsRights(t *testing.T) {
	h := newHarness(t)
	group := h.createGroup(emptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.createProject(emptyOrganizationPath, group.Metadata.ID)
	h.clock.Advance(settle)

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, emptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID, "f0000000-0000-4000-8000-0000000000aa"}},
	}).expect(http.StatusCreated, &account)

	token := account.Status.AccessToken
	require.NotEmpty(t, token)
	assert.Equal(t, unikorn.ProvisioningProvisioned, account.Metadata.ProvisioningStatus, "no status conditions: provisioned")
	assert.Equal(t, unikorn.HealthHealthy, account.Metadata.HealthStatus, "no status conditions: healthy")
	assert.Equal(t, []string{group.Metadata.ID}, account.Spec.GroupIDs, "identity ignores groups that do not exist")
	assert.True(t, account.Status.Expiry.After(h.clock.Now().Add(89*24*60*60*1e9)))

	// The token is never shown again.
	var accounts []unikorn.ServiceAccount

	listed := h.callAs(AdminToken, http.MethodGet, emptyOrganizationPath("/serviceaccounts"), nil).expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)
	assert.NotContains(t, string(listed.body), token)

	// It works as a bearer token, with its group's project-user role in the project.
	body := networkCreate("net", "10.9.0.0/24")
	body.Spec.OrganizationID, body.Spec.ProjectID = EmptyOrganizationID, project.Metadata.ID
	h.callAs(token, http.MethodPost, "/api/v2/networks", body).expect(http.StatusCreated, nil)
	h.projectAs(token, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, nil)

	refusal := h.callAs(token, http.MethodPost, emptyOrganizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "more"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, refusal.ErrorDescription, "identity:projects")

	// It sees itself, and only itself, without the permission to list accounts.
	h.callAs(token, http.MethodGet, emptyOrganizationPath("/serviceaccounts"), nil).expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)

	// A rotation revokes the old token and answers the new one once.
	path := emptyOrganizationPath("/serviceaccounts/" + account.Metadata.ID)

	var rotated unikorn.ServiceAccount

	h.callAs(token, http.MethodPost, path+"/rotate", nil).expect(http.StatusOK, &rotated)
	require.NotEqual(t, token, rotated.Status.AccessToken)
	h.projectAs(token, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.projectAs(rotated.Status.AccessToken, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, nil)

	var updated unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPut, path, unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).expect(http.StatusOK, &updated)
	assert.Empty(t, updated.Spec.GroupIDs)
	assert.Empty(t, updated.Status.AccessToken)
	h.projectAs(rotated.Status.AccessToken, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.callAs(AdminToken, http.MethodGet, path, nil).expect(http.StatusMethodNotAllowed, nil)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expect(http.StatusOK, nil)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.projectAs(rotated.Status.AccessToken, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}

func TestAVersionOneStateGainsTheIdentityFixtures(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	withState := func(o *Options) { o.StatePath = statePath }

	first := newHarness(t, withState)
	group := first.createGroup(emptyOrganizationPath, "kept", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})
	require.NoError(t, first.sb.Close())

	second := newHarness(t, withState)
	second.callAs(AdminToken, http.MethodGet, emptyOrganizationPath("/groups/"+group.Metadata.ID), nil).expect(http.StatusOK, nil)

	data, err := os.ReadFile(statePath)
	require.NoError(t, err)

	old := strings.Replace(string(data), `"version": 2`, `"version": 1`, 1)
	require.NoError(t, os.WriteFile(statePath, []byte(old), 0o600))
	require.NoError(t, second.sb.Close())
	require.NoError(t, os.WriteFile(statePath, []byte(old), 0o600))

	third := newHarness(t, withState)
	third.projectAs(DefaultToken, OrganizationID, ProjectID).expect(http.StatusOK, nil)
	third.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+AdministratorsGroupID), nil).expect(http.StatusOK, nil)
}

func TestObjectsListIdentitysObjectsInAnyState(t *testing.T) {
	h := newHarness(t)

	group := h.createGroup(emptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})
	project := h.createProject(emptyOrganizationPath, group.Metadata.ID)

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, emptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "pipeline"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).expect(http.StatusCreated, &account)

	made := map[string]string{}
	for _, object := range h.made() {
		assert.Equal(t, EmptyOrganizationID, object.OrganizationID)
		made[object.Kind] = object.ID
	}

	assert.Equal(t, map[string]string{
		ObjectProject: project.Metadata.ID, ObjectGroup: group.Metadata.ID, ObjectServiceAccount: account.Metadata.ID,
	}, made, "a project still provisioning is there")

	// A project being deleted is there until identity lets it go.
	h.callAs(AdminToken, http.MethodDelete, emptyOrganizationPath("/projects/"+project.Metadata.ID), nil).expect(http.StatusAccepted, nil)
	assert.Len(t, h.made(), 3)

	h.clock.Advance(settle)
	assert.Len(t, h.made(), 2)
}
