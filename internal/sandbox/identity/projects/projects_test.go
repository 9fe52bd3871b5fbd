package projects_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestOnlyAnAdministratorCreatesProjectsAndTheyProvision(t *testing.T) {
	h := sandboxtest.New(t)
	write := unikorn.ProjectWrite{Metadata: unikorn.WriteMetadata{Name: "team"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}}}

	// The project user and compute's service principal hold no project creation.
	refusal := h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.OrganizationPath("/projects"), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "operation is not allowed by rbac: operation 'create' on endpoint 'identity:projects' is not permitted", refusal.ErrorDescription)
	h.CallAs(sandbox.ServiceToken, http.MethodPost, sandboxtest.OrganizationPath("/projects"), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.AdminToken, http.MethodPost, "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/projects", write).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	project := h.CreateProject(sandboxtest.EmptyOrganizationPath)
	assert.Equal(t, unikorn.ProvisioningPending, project.Metadata.ProvisioningStatus)
	assert.Equal(t, sandbox.EmptyOrganizationID, project.Metadata.OrganizationID)

	// Nobody else in the organization reads it; its groups name none of them.
	h.ProjectAs(sandbox.DefaultToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.Clock.Advance(sandboxtest.Settle)

	var read unikorn.Project

	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, &read)
	assert.Equal(t, unikorn.ProvisioningProvisioned, read.Metadata.ProvisioningStatus)

	var projects []unikorn.Project

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.EmptyOrganizationPath("/projects"), nil).Expect(http.StatusOK, &projects)
	require.Len(t, projects, 1)

	// The fixture projects are where they were, for the tokens that had them.
	h.ProjectAs(sandbox.DefaultToken, sandbox.OrganizationID, sandbox.ProjectID).Expect(http.StatusOK, nil)
}

func TestProjectUpdateAnswersNoBodyAndConflictsWhileReconciling(t *testing.T) {
	h := sandboxtest.New(t)
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath)
	path := sandboxtest.EmptyOrganizationPath("/projects/" + project.Metadata.ID)
	write := unikorn.ProjectWrite{Metadata: unikorn.WriteMetadata{Name: "renamed", Description: "d"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}}}

	h.CallAs(sandbox.AdminToken, http.MethodPut, path, write).ExpectError(http.StatusConflict, unikorn.ErrorConflict)
	h.Clock.Advance(sandboxtest.Settle)

	response := h.CallAs(sandbox.AdminToken, http.MethodPut, path, write).Expect(http.StatusOK, nil)
	assert.Empty(t, response.Body, "identity answers a project update with no body")

	unknown := write
	unknown.Spec.GroupIDs = []string{"f0000000-0000-4000-8000-0000000000aa"}
	h.Clock.Advance(sandboxtest.Settle)
	refusal := h.CallAs(sandbox.AdminToken, http.MethodPut, path, unknown).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, refusal.ErrorDescription, "group ID f0000000-0000-4000-8000-0000000000aa does not exist")

	h.CallAs(sandbox.AdminToken, http.MethodPut, sandboxtest.EmptyOrganizationPath("/projects/f0000000-0000-4000-8000-0000000000aa"), write).
		ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	var read unikorn.Project

	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, &read)
	assert.Equal(t, "renamed", read.Metadata.Name)
}

func TestProjectDeleteIsHeldWhileSomethingReferencesIt(t *testing.T) {
	h := sandboxtest.New(t)
	group := h.CreateGroup(sandboxtest.EmptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath, group.Metadata.ID)
	h.Clock.Advance(sandboxtest.Settle)

	body := sandboxtest.NetworkCreate("net", "10.9.0.0/24")
	body.Spec.OrganizationID, body.Spec.ProjectID = sandbox.EmptyOrganizationID, project.Metadata.ID

	var network unikorn.Network

	h.CallAs(sandbox.AdminToken, http.MethodPost, "/api/v2/networks", body).Expect(http.StatusCreated, &network)
	h.Clock.Advance(sandboxtest.Settle)

	path := sandboxtest.EmptyOrganizationPath("/projects/" + project.Metadata.ID)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)

	// Nothing new goes into a project being deleted.
	h.CallAs(sandbox.AdminToken, http.MethodPost, "/api/v2/networks", body).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(10 * sandboxtest.Settle)

	var held unikorn.Project

	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, &held)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, held.Metadata.ProvisioningStatus)
	assert.NotNil(t, held.Metadata.DeletionTime)
	assert.Equal(t, []string{"region network " + network.Metadata.ID}, h.Sandbox.ProjectReferences(project.Metadata.ID))

	h.CallAs(sandbox.AdminToken, http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}
