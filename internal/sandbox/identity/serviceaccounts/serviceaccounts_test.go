package serviceaccounts_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAServiceAccountTokenCarriesItsGroupsRights(t *testing.T) {
	h := sandboxtest.New(t)
	group := h.CreateGroup(sandboxtest.EmptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath, group.Metadata.ID)
	h.Clock.Advance(sandboxtest.Settle)

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.EmptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID, "f0000000-0000-4000-8000-0000000000aa"}},
	}).Expect(http.StatusCreated, &account)

	token := account.Status.AccessToken
	require.NotEmpty(t, token)
	assert.Equal(t, unikorn.ProvisioningProvisioned, account.Metadata.ProvisioningStatus, "no status conditions: provisioned")
	assert.Equal(t, unikorn.HealthHealthy, account.Metadata.HealthStatus, "no status conditions: healthy")
	assert.Equal(t, []string{group.Metadata.ID}, account.Spec.GroupIDs, "identity ignores groups that do not exist")
	assert.True(t, account.Status.Expiry.After(h.Clock.Now().Add(89*24*60*60*1e9)))

	// The token is never shown again.
	var accounts []unikorn.ServiceAccount

	listed := h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.EmptyOrganizationPath("/serviceaccounts"), nil).Expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)
	assert.NotContains(t, string(listed.Body), token)

	// It works as a bearer token, with its group's project-user role in the project.
	body := sandboxtest.NetworkCreate("net", "10.9.0.0/24")
	body.Spec.OrganizationID, body.Spec.ProjectID = sandbox.EmptyOrganizationID, project.Metadata.ID
	h.CallAs(token, http.MethodPost, "/api/v2/networks", body).Expect(http.StatusCreated, nil)
	h.ProjectAs(token, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, nil)

	refusal := h.CallAs(token, http.MethodPost, sandboxtest.EmptyOrganizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "more"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, refusal.ErrorDescription, "identity:projects")

	// It sees itself, and only itself, without the permission to list accounts.
	h.CallAs(token, http.MethodGet, sandboxtest.EmptyOrganizationPath("/serviceaccounts"), nil).Expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)

	// A rotation revokes the old token and answers the new one once.
	path := sandboxtest.EmptyOrganizationPath("/serviceaccounts/" + account.Metadata.ID)

	var rotated unikorn.ServiceAccount

	h.CallAs(token, http.MethodPost, path+"/rotate", nil).Expect(http.StatusOK, &rotated)
	require.NotEqual(t, token, rotated.Status.AccessToken)
	h.ProjectAs(token, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.ProjectAs(rotated.Status.AccessToken, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, nil)

	var updated unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPut, path, unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).Expect(http.StatusOK, &updated)
	assert.Empty(t, updated.Spec.GroupIDs)
	assert.Empty(t, updated.Status.AccessToken)
	h.ProjectAs(rotated.Status.AccessToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.CallAs(sandbox.AdminToken, http.MethodGet, path, nil).Expect(http.StatusMethodNotAllowed, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.ProjectAs(rotated.Status.AccessToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}
