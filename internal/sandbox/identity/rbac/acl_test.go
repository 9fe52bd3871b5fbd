package rbac_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/rbac"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func acl(h *sandboxtest.Harness, token, path string) rbac.ACLRead {
	h.T.Helper()

	var read rbac.ACLRead

	h.CallAs(token, http.MethodGet, path, nil).Expect(http.StatusOK, &read)

	return read
}

func grants(endpoints []rbac.ACLEndpoint, name, operation string) bool {
	for _, endpoint := range endpoints {
		if endpoint.Name == name {
			for _, op := range endpoint.Operations {
				if op == operation {
					return true
				}
			}
		}
	}

	return false
}

func organizationIDs(read rbac.ACLRead) []string {
	ids := []string{}
	for _, organization := range read.Organizations {
		ids = append(ids, organization.ID)
	}

	return ids
}

func TestTheACLIsWhatTheCallersRolesGive(t *testing.T) {
	h := sandboxtest.New(t)

	// The administrator: both organizations it administers, no global permissions.
	admin := acl(h, sandbox.AdminToken, "/api/v1/acl")
	assert.Empty(t, admin.Global)
	assert.Nil(t, admin.Organization, "no organization asked about")
	require.Equal(t, []string{sandbox.OrganizationID, sandbox.EmptyOrganizationID}, organizationIDs(admin))
	assert.True(t, grants(admin.Organizations[0].Endpoints, "identity:groups", "create"))

	// The user: in the organization asked about, its projects and what its role
	// gives at organization scope.
	user := acl(h, sandbox.DefaultToken, sandboxtest.OrganizationPath("/acl"))
	require.NotNil(t, user.Organization)
	assert.True(t, grants(user.Organization.Endpoints, "identity:quotas", "read"))
	assert.False(t, grants(user.Organization.Endpoints, "identity:groups", "create"))
	require.Len(t, user.Projects, 2)
	assert.Equal(t, sandbox.ProjectID, user.Projects[0].ID)
	assert.True(t, grants(user.Projects[0].Endpoints, "region:networks:v2", "create"))

	// A group naming the user's subject gives it the group's role at once, whatever
	// the subject's issuer: identity's group filter compares subjects by ID alone.
	assert.False(t, grants(user.Organization.Endpoints, "identity:groups", "read"))
	h.CreateGroup(sandboxtest.OrganizationPath, "auditors", unikorn.GroupSpec{RoleIDs: []string{sandbox.AuditorRoleID}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{{ID: sandbox.UserSubject, Issuer: "https://accounts.example.com"}}})
	assert.True(t, grants(acl(h, sandbox.DefaultToken, sandboxtest.OrganizationPath("/acl")).Organization.Endpoints, "identity:groups", "read"))

	h.CreateGroup(sandboxtest.OrganizationPath, "admins", unikorn.GroupSpec{RoleIDs: []string{sandbox.AdministratorRoleID}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{{ID: sandbox.UserSubject, Issuer: h.URL}}})
	assert.True(t, grants(acl(h, sandbox.DefaultToken, sandboxtest.OrganizationPath("/acl")).Organization.Endpoints, "identity:groups", "create"))

	// A user asking about an organization it is not in is refused.
	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/acl", nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A service account asking about another organization gets its home one, unscoped.
	account := acl(h, h.TokenWithRole(sandbox.AuditorRoleID), "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/acl")
	assert.Nil(t, account.Organization)
	assert.Equal(t, []string{sandbox.OrganizationID}, organizationIDs(account))

	// A platform administrator has its global permissions only.
	platform := acl(h, sandbox.PlatformAdminToken, "/api/v1/acl")
	assert.True(t, grants(platform.Global, "identity:quotas", "update"))
	assert.Empty(t, platform.Organizations)
}

// The Kubernetes service's account holds the chart's kubernetes-service role
// everywhere: it charges and reads allocations and reads projects and region's
// catalogue in any organization, and may not call region's servers, which its role
// does not grant, though they are a service's API.
func TestTheKubernetesServiceHoldsItsChartRole(t *testing.T) {
	h := sandboxtest.New(t)

	service := acl(h, sandbox.KubernetesServiceToken, "/api/v1/acl")
	assert.True(t, grants(service.Global, "identity:allocations", "create"))
	assert.True(t, grants(service.Global, "region:identities", "delete"))
	assert.False(t, grants(service.Global, "region:servers", "create"))
	assert.Empty(t, service.Organizations)

	allocation := sandboxtest.InstanceAllocation("cluster", 0, 0)
	allocation.Spec.Kind = "kubernetesclusters.kubernetes.unikorn-cloud.org"
	allocation.Spec.Allocations = []unikorn.ResourceAllocation{{Kind: "clusters", Committed: 1}}
	h.CallAs(sandbox.KubernetesServiceToken, http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), allocation).Expect(http.StatusCreated, nil)
	h.CallAs(sandbox.KubernetesServiceToken, http.MethodPost,
		"/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/projects/"+sandbox.ForeignProjectID+"/allocations", allocation).Expect(http.StatusCreated, nil)
	assert.Equal(t, 1, h.Quota("clusters").Used)

	h.ProjectAs(sandbox.KubernetesServiceToken, sandbox.OrganizationID, sandbox.ProjectID).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.KubernetesServiceToken, http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.KubernetesServiceToken, http.MethodGet, sandboxtest.OrganizationPath("/regions/"+sandbox.RegionID+"/images"), nil).Expect(http.StatusOK, nil)

	h.CallAs(sandbox.KubernetesServiceToken, http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("node")).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
}
