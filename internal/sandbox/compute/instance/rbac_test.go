package instance_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Compute asks identity's ACL before it creates an instance, as its handler does: an
// auditor of the organization, who may read instances and the project, may not create
// one, and nothing is charged to the quota for the refusal.
func TestComputeInstanceCreateChecksRBAC(t *testing.T) {
	h := sandboxtest.New(t)
	group := h.CreateGroup(sandboxtest.OrganizationPath, "auditors", unikorn.GroupSpec{RoleIDs: []string{sandbox.AuditorRoleID}, ServiceAccountIDs: []string{}})

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "audit"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).Expect(http.StatusCreated, &account)

	auditor := account.Status.AccessToken
	h.ProjectAs(auditor, sandbox.OrganizationID, sandbox.ProjectID).Expect(http.StatusOK, nil)

	create := unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      sandbox.NetworkDefaultID,
		},
	}

	allocations := len(h.Sandbox.Allocations())

	refusal := h.CallAs(auditor, http.MethodPost, sandbox.ComputePrefix+"/api/v2/instances", create).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, refusal.ErrorDescription, "operation is not allowed by rbac: operation 'create' on endpoint 'compute:instances'")
	assert.Len(t, h.Sandbox.Allocations(), allocations, "a refused create charges nothing")

	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandbox.ComputePrefix+"/api/v2/instances", create).Expect(http.StatusCreated, nil)
}
