package organizations_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAnAdministratorUpdatesItsOrganization(t *testing.T) {
	h := sandboxtest.New(t)

	write := map[string]any{
		"metadata": map[string]any{"name": "renamed", "description": "now with a description"},
		"spec":     map[string]any{"organizationType": "adhoc"},
	}

	// Neither a user nor an auditor may update it.
	h.CallAs(sandbox.DefaultToken, http.MethodPut, sandboxtest.OrganizationPath(""), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(h.TokenWithRole(sandbox.AuditorRoleID), http.MethodPut, sandboxtest.OrganizationPath(""), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.CallAs(sandbox.AdminToken, http.MethodPut, sandboxtest.OrganizationPath(""), write).Expect(http.StatusOK, nil)

	var read unikorn.Organization

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath(""), nil).Expect(http.StatusOK, &read)
	assert.Equal(t, "renamed", read.Metadata.Name)
	assert.Equal(t, "now with a description", read.Metadata.Description)
	assert.NotNil(t, read.Metadata.ModifiedTime)
	assert.Equal(t, "adhoc", read.Spec.OrganizationType)

	var listed []unikorn.Organization

	h.CallAs(sandbox.AdminToken, http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, &listed)
	assert.Equal(t, "renamed", listed[0].Metadata.Name)

	// A domain organization needs a provider scope.
	write["spec"] = map[string]any{"organizationType": "domain", "domain": "example.com"}
	h.CallAs(sandbox.AdminToken, http.MethodPut, sandboxtest.OrganizationPath(""), write).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}
