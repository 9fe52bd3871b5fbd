package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAnAdministratorUpdatesItsOrganization(t *testing.T) {
	h := newHarness(t)

	write := map[string]any{
		"metadata": map[string]any{"name": "renamed", "description": "now with a description"},
		"spec":     map[string]any{"organizationType": "adhoc"},
	}

	// Neither a user nor an auditor may update it.
	h.callAs(DefaultToken, http.MethodPut, organizationPath(""), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(h.tokenWithRole(AuditorRoleID), http.MethodPut, organizationPath(""), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.callAs(AdminToken, http.MethodPut, organizationPath(""), write).expect(http.StatusOK, nil)

	var read unikorn.Organization

	h.callAs(DefaultToken, http.MethodGet, organizationPath(""), nil).expect(http.StatusOK, &read)
	assert.Equal(t, "renamed", read.Metadata.Name)
	assert.Equal(t, "now with a description", read.Metadata.Description)
	assert.NotNil(t, read.Metadata.ModifiedTime)
	assert.Equal(t, "adhoc", read.Spec.OrganizationType)

	var listed []unikorn.Organization

	h.callAs(AdminToken, http.MethodGet, "/api/v1/organizations", nil).expect(http.StatusOK, &listed)
	assert.Equal(t, "renamed", listed[0].Metadata.Name)

	// A domain organization needs a provider scope.
	write["spec"] = map[string]any{"organizationType": "domain", "domain": "example.com"}
	h.callAs(AdminToken, http.MethodPut, organizationPath(""), write).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}
