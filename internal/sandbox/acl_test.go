package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (h *harness) acl(token, path string) aclRead {
	h.t.Helper()

	var read aclRead

	h.callAs(token, http.MethodGet, path, nil).expect(http.StatusOK, &read)

	return read
}

func grants(endpoints []aclEndpoint, name, operation string) bool {
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

func organizationIDs(read aclRead) []string {
	ids := []string{}
	for _, organization := range read.Organizations {
		ids = append(ids, organization.ID)
	}

	return ids
}

func TestTheACLIsWhatTheCallersRolesGive(t *testing.T) {
	h := newHarness(t)

	// The administrator: both organizations it administers, no global permissions.
	admin := h.acl(AdminToken, "/api/v1/acl")
	assert.Empty(t, admin.Global)
	assert.Nil(t, admin.Organization, "no organization asked about")
	require.Equal(t, []string{OrganizationID, EmptyOrganizationID}, organizationIDs(admin))
	assert.True(t, grants(admin.Organizations[0].Endpoints, "identity:groups", "create"))

	// The user: in the organization asked about, its projects and what its role
	// gives at organization scope.
	user := h.acl(DefaultToken, organizationPath("/acl"))
	require.NotNil(t, user.Organization)
	assert.True(t, grants(user.Organization.Endpoints, "identity:quotas", "read"))
	assert.False(t, grants(user.Organization.Endpoints, "identity:groups", "create"))
	require.Len(t, user.Projects, 2)
	assert.Equal(t, ProjectID, user.Projects[0].ID)
	assert.True(t, grants(user.Projects[0].Endpoints, "region:networks:v2", "create"))

	// A group naming the user's subject gives it the group's role at once, whatever
	// the subject's issuer: identity's group filter compares subjects by ID alone.
	assert.False(t, grants(user.Organization.Endpoints, "identity:groups", "read"))
	h.createGroup(organizationPath, "auditors", unikorn.GroupSpec{RoleIDs: []string{AuditorRoleID}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{{ID: UserSubject, Issuer: "https://accounts.example.com"}}})
	assert.True(t, grants(h.acl(DefaultToken, organizationPath("/acl")).Organization.Endpoints, "identity:groups", "read"))

	h.createGroup(organizationPath, "admins", unikorn.GroupSpec{RoleIDs: []string{AdministratorRoleID}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{{ID: UserSubject, Issuer: h.url}}})
	assert.True(t, grants(h.acl(DefaultToken, organizationPath("/acl")).Organization.Endpoints, "identity:groups", "create"))

	// A user asking about an organization it is not in is refused.
	h.callAs(DefaultToken, http.MethodGet, "/api/v1/organizations/"+ForeignOrganizationID+"/acl", nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A service account asking about another organization gets its home one, unscoped.
	account := h.acl(h.tokenWithRole(AuditorRoleID), "/api/v1/organizations/"+ForeignOrganizationID+"/acl")
	assert.Nil(t, account.Organization)
	assert.Equal(t, []string{OrganizationID}, organizationIDs(account))

	// A platform administrator has its global permissions only.
	platform := h.acl(PlatformAdminToken, "/api/v1/acl")
	assert.True(t, grants(platform.Global, "identity:quotas", "update"))
	assert.Empty(t, platform.Organizations)
}
