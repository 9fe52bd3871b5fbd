package users_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	identityusers "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/users"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func users(h *sandboxtest.Harness, token string) []unikorn.User {
	h.T.Helper()

	var users []unikorn.User

	h.CallAs(token, http.MethodGet, sandboxtest.OrganizationPath("/users"), nil).Expect(http.StatusOK, &users)

	return users
}

func findUserRead(users []unikorn.User, id string) *unikorn.User {
	for i := range users {
		if users[i].Metadata.ID == id {
			return &users[i]
		}
	}

	return nil
}

func TestTheFixtureUsersAreUsersOfTheirOrganizations(t *testing.T) {
	h := sandboxtest.New(t)

	users := users(h, sandbox.AdminToken)
	require.Len(t, users, 2)
	assert.Equal(t, []string{sandbox.AdminSubject, sandbox.UserSubject}, []string{users[0].Spec.Subject, users[1].Spec.Subject}, "by subject, as identity lists them")

	admin := findUserRead(users, sandbox.AdminUserID)
	require.NotNil(t, admin)
	assert.Equal(t, unikorn.UserActive, admin.Spec.State)
	assert.Equal(t, []string{sandbox.AdministratorsGroupID}, admin.Spec.GroupIDs)
	assert.Equal(t, identityusers.UndefinedName, admin.Metadata.Name)
	assert.Equal(t, unikorn.ProvisioningProvisioned, admin.Metadata.ProvisioningStatus)

	// Only who may read users may list them: an ordinary user may not.
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/users"), nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
}

func TestAUserJoinsGroupsByTheUsersAPIAndLosesThemWhenDeleted(t *testing.T) {
	h := sandboxtest.New(t)
	group := h.CreateGroup(sandboxtest.OrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{sandbox.AuditorRoleID}, ServiceAccountIDs: []string{}})

	write := unikorn.UserWrite{Spec: unikorn.UserSpec{Subject: "someone@example.com", State: unikorn.UserSuspended, GroupIDs: []string{group.Metadata.ID}}}

	var created unikorn.User

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/users"), write).Expect(http.StatusCreated, &created)
	assert.Equal(t, unikorn.UserSuspended, created.Spec.State)
	assert.Equal(t, []string{group.Metadata.ID}, created.Spec.GroupIDs)

	var read unikorn.Group

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+group.Metadata.ID), nil).Expect(http.StatusOK, &read)
	assert.Equal(t, []string{created.Metadata.ID}, read.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: "someone@example.com", Email: "someone@example.com", Issuer: h.URL}}, read.Spec.Subjects)

	// The same subject again is the same user, state kept, groups rewritten.
	write.Spec.State, write.Spec.GroupIDs = unikorn.UserActive, []string{}

	var again unikorn.User

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/users"), write).Expect(http.StatusCreated, &again)
	assert.Equal(t, created.Metadata.ID, again.Metadata.ID)
	assert.Equal(t, unikorn.UserSuspended, again.Spec.State)
	assert.Empty(t, again.Spec.GroupIDs)

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/users"), unikorn.UserWrite{Spec: unikorn.UserSpec{Subject: "not an address", State: unikorn.UserActive, GroupIDs: []string{}}}).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// Deleting the fixture user takes it out of the organization: its token no
	// longer reaches anything there.
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath(""), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.OrganizationPath("/users/"+sandbox.UserID), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath(""), nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.OrganizationPath("/users/"+sandbox.UserID), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Nil(t, findUserRead(users(h, sandbox.AdminToken), sandbox.UserID))

	// An update reads its body before it looks the user up.
	h.CallAs(sandbox.AdminToken, http.MethodPut, sandboxtest.OrganizationPath("/users/"+sandbox.UserID), `{"spec":{"subject":"x@example.com","state":"asleep","groupIDs":[]}}`).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.CallAs(sandbox.AdminToken, http.MethodPut, sandboxtest.OrganizationPath("/users/"+sandbox.UserID), write).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestAGroupDerivesUserIDsFromTheSandboxsOwnSubjects(t *testing.T) {
	h := sandboxtest.New(t)

	spec := unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{
		{ID: sandbox.UserSubject, Email: sandbox.UserSubject, Issuer: h.URL},
		{ID: "someone@elsewhere.example", Issuer: ""},
	}}
	group := h.CreateGroup(sandboxtest.OrganizationPath, "mixed", spec)
	assert.Equal(t, []string{sandbox.UserID}, group.Spec.UserIDs, "only subjects of the sandbox's own issuer are its users")
	assert.Equal(t, spec.Subjects, group.Spec.Subjects)

	// A subject of the sandbox's own issuer must be a user of the organization.
	spec.Subjects = []unikorn.Subject{{ID: sandbox.ForeignSubject, Issuer: h.URL}}
	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "foreign"}, Spec: spec}).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// A group with no members reads with empty lists.
	empty := h.CreateGroup(sandboxtest.OrganizationPath, "empty", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})

	response := h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+empty.Metadata.ID), nil).Expect(http.StatusOK, nil)
	assert.Contains(t, string(response.Body), `"userIDs":[]`)
	assert.Contains(t, string(response.Body), `"subjects":[]`)
}
