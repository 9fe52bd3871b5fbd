package organizations_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestOrganizationsAndProjects(t *testing.T) {
	h := sandboxtest.New(t)

	var organizations []unikorn.Organization

	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1)
	assert.Equal(t, "sandbox", organizations[0].Metadata.Name)

	var organization unikorn.Organization

	h.Call(http.MethodGet, sandboxtest.OrganizationPath(""), nil).Expect(http.StatusOK, &organization)
	assert.Equal(t, sandbox.OrganizationID, organization.Metadata.ID)

	var projects []unikorn.Project

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/projects"), nil).Expect(http.StatusOK, &projects)
	require.Len(t, projects, 2)
	assert.Equal(t, "sandbox-project", projects[0].Metadata.Name)
	assert.Equal(t, "other-project", projects[1].Metadata.Name)

	var project unikorn.Project

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/projects/"+sandbox.OtherProjectID), nil).Expect(http.StatusOK, &project)
	assert.Equal(t, sandbox.OrganizationID, project.Metadata.OrganizationID)

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/projects/a0000000-0000-4000-8000-0000000000ff"), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/api/v1/organizations/a0000000-0000-4000-8000-0000000000ff", nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
}
