package groups_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestGroupsAreSynchronousAndFollowIdentitysRules(t *testing.T) {
	h := sandboxtest.New(t)
	spec := unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID, sandbox.UserRoleID}, UserIDs: []string{sandbox.UserID}, ServiceAccountIDs: []string{}}
	group := h.CreateGroup(sandboxtest.OrganizationPath, "team", spec)
	assert.Equal(t, []string{sandbox.UserRoleID}, group.Spec.RoleIDs, "identity deduplicates role IDs")
	// A group has no status conditions, which core's conversion reports as provisioned
	// and healthy.
	assert.Equal(t, unikorn.ProvisioningProvisioned, group.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthHealthy, group.Metadata.HealthStatus)

	path := sandboxtest.OrganizationPath("/groups/" + group.Metadata.ID)
	h.CallAs(sandbox.AdminToken, http.MethodGet, path, nil).Expect(http.StatusOK, nil)

	// A group without members reads with empty lists, as identity's convert writes them.
	bare := h.CreateGroup(sandboxtest.OrganizationPath, "bare", unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{}})
	bareRead := h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+bare.Metadata.ID), nil).Expect(http.StatusOK, nil)
	assert.Contains(t, string(bareRead.Body), `"userIDs":[],"subjects":[]`)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.OrganizationPath("/groups/"+bare.Metadata.ID), nil).Expect(http.StatusOK, nil)

	spec.RoleIDs = []string{sandbox.ReaderRoleID}
	response := h.CallAs(sandbox.AdminToken, http.MethodPut, path, unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: spec}).Expect(http.StatusOK, nil)
	assert.Empty(t, response.Body)

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
			h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "bad"}, Spec: bad}).
				Expect(tc.status, nil)
		})
	}

	// A project user may not manage groups at all.
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/groups"), nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A deleted group leaves the projects that named it.
	project := h.CreateProject(sandboxtest.OrganizationPath, group.Metadata.ID)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.AdminToken, http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/not-an-id"), nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	var read unikorn.Project

	h.ProjectAs(sandbox.AdminToken, sandbox.OrganizationID, project.Metadata.ID).Expect(http.StatusOK, &read)
	assert.Empty(t, read.Spec.GroupIDs)

	var roles []unikorn.Role

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/roles"), nil).Expect(http.StatusOK, &roles)
	names := make([]string, 0, len(roles))
	for _, role := range roles {
		names = append(names, role.Metadata.Name)
	}

	assert.Equal(t, []string{"administrator", "auditor", "reader", "user"}, names, "protected roles are never listed")

	// The fixture administrators group names its user as a subject too, as every group
	// with user IDs does: by the user's subject, issued by the sandbox itself at the
	// address it was reached at.
	var administrators unikorn.Group

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+sandbox.AdministratorsGroupID), nil).Expect(http.StatusOK, &administrators)
	assert.Equal(t, []string{sandbox.AdminUserID}, administrators.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: sandbox.AdminSubject, Email: sandbox.AdminSubject, Issuer: h.URL}}, administrators.Spec.Subjects)
}
