package rbac_test

import (
	"net/http"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestRegionsSystemAccountMayOnlyWhatItsRoleGrants(t *testing.T) {
	h := sandboxtest.New(t)
	projectPath := "/api/v1/organizations/" + sandbox.OrganizationID + "/projects/" + sandbox.ProjectID

	// The region-service role: projects read, allocations, references; everywhere.
	h.CallAsRegion(http.MethodGet, projectPath, nil).Expect(http.StatusOK, nil)
	h.CallAsRegion(http.MethodGet, "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/projects/"+sandbox.ForeignProjectID, nil).Expect(http.StatusOK, nil)
	h.CallAsRegion(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("i-1", 0, 0)).
		Expect(http.StatusCreated, nil)

	// Nothing more.
	h.CallAsRegion(http.MethodDelete, projectPath, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAsRegion(http.MethodGet, "/api/v1/organizations/"+sandbox.OrganizationID+"/quotas", nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// Without X-Principal there is no one to be: 401, as without a token.
	h.CallAs("", http.MethodGet, projectPath, nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}
