package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (h *harness) users(token string) []userRead {
	h.t.Helper()

	var users []userRead

	h.callAs(token, http.MethodGet, organizationPath("/users"), nil).expect(http.StatusOK, &users)

	return users
}

func findUserRead(users []userRead, id string) *userRead {
	for i := range users {
		if users[i].Metadata.ID == id {
			return &users[i]
		}
	}

	return nil
}

func TestTheFixtureUsersAreUsersOfTheirOrganizations(t *testing.T) {
	h := newHarness(t)

	users := h.users(AdminToken)
	require.Len(t, users, 2)
	assert.Equal(t, []string{AdminSubject, UserSubject}, []string{users[0].Spec.Subject, users[1].Spec.Subject}, "by subject, as identity lists them")

	admin := findUserRead(users, AdminUserID)
	require.NotNil(t, admin)
	assert.Equal(t, userActive, admin.Spec.State)
	assert.Equal(t, []string{AdministratorsGroupID}, admin.Spec.GroupIDs)
	assert.Equal(t, undefinedName, admin.Metadata.Name)
	assert.Equal(t, unikorn.ProvisioningProvisioned, admin.Metadata.ProvisioningStatus)

	// Only who may read users may list them: an ordinary user may not.
	h.callAs(DefaultToken, http.MethodGet, organizationPath("/users"), nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
}

func TestAUserJoinsGroupsByTheUsersAPIAndLosesThemWhenDeleted(t *testing.T) {
	h := newHarness(t)
	group := h.createGroup(organizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{AuditorRoleID}, ServiceAccountIDs: []string{}})

	write := userWrite{Spec: userSpec{Subject: "someone@example.com", State: userSuspended, GroupIDs: []string{group.Metadata.ID}}}

	var created userRead

	h.callAs(AdminToken, http.MethodPost, organizationPath("/users"), write).expect(http.StatusCreated, &created)
	assert.Equal(t, userSuspended, created.Spec.State)
	assert.Equal(t, []string{group.Metadata.ID}, created.Spec.GroupIDs)

	var read groupRead

	h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+group.Metadata.ID), nil).expect(http.StatusOK, &read)
	assert.Equal(t, []string{created.Metadata.ID}, read.Spec.UserIDs)
	assert.Equal(t, []unikorn.Subject{{ID: "someone@example.com", Email: "someone@example.com", Issuer: h.url}}, read.Spec.Subjects)

	// The same subject again is the same user, state kept, groups rewritten.
	write.Spec.State, write.Spec.GroupIDs = userActive, []string{}

	var again userRead

	h.callAs(AdminToken, http.MethodPost, organizationPath("/users"), write).expect(http.StatusCreated, &again)
	assert.Equal(t, created.Metadata.ID, again.Metadata.ID)
	assert.Equal(t, userSuspended, again.Spec.State)
	assert.Empty(t, again.Spec.GroupIDs)

	h.callAs(AdminToken, http.MethodPost, organizationPath("/users"), userWrite{Spec: userSpec{Subject: "not an address", State: userActive, GroupIDs: []string{}}}).
		expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// Deleting the fixture user takes it out of the organization: its token no
	// longer reaches anything there.
	h.callAs(DefaultToken, http.MethodGet, organizationPath(""), nil).expect(http.StatusOK, nil)
	h.callAs(AdminToken, http.MethodDelete, organizationPath("/users/"+UserID), nil).expect(http.StatusOK, nil)
	h.callAs(DefaultToken, http.MethodGet, organizationPath(""), nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(AdminToken, http.MethodDelete, organizationPath("/users/"+UserID), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Nil(t, findUserRead(h.users(AdminToken), UserID))

	// An update reads its body before it looks the user up.
	h.callAs(AdminToken, http.MethodPut, organizationPath("/users/"+UserID), `{"spec":{"subject":"x@example.com","state":"asleep","groupIDs":[]}}`).
		expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.callAs(AdminToken, http.MethodPut, organizationPath("/users/"+UserID), write).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestAGroupDerivesUserIDsFromTheSandboxsOwnSubjects(t *testing.T) {
	h := newHarness(t)

	spec := unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}, Subjects: []unikorn.Subject{
		{ID: UserSubject, Email: UserSubject, Issuer: h.url},
		{ID: "someone@elsewhere.example", Issuer: ""},
	}}
	group := h.createGroup(organizationPath, "mixed", spec)
	assert.Equal(t, []string{UserID}, group.Spec.UserIDs, "only subjects of the sandbox's own issuer are its users")
	assert.Equal(t, spec.Subjects, group.Spec.Subjects)

	// A subject of the sandbox's own issuer must be a user of the organization.
	spec.Subjects = []unikorn.Subject{{ID: ForeignSubject, Issuer: h.url}}
	h.callAs(AdminToken, http.MethodPost, organizationPath("/groups"), unikorn.GroupWrite{Metadata: unikorn.WriteMetadata{Name: "foreign"}, Spec: spec}).
		expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// A group with no members reads with empty lists.
	empty := h.createGroup(organizationPath, "empty", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})

	response := h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+empty.Metadata.ID), nil).expect(http.StatusOK, nil)
	assert.Contains(t, string(response.body), `"userIDs":[]`)
	assert.Contains(t, string(response.body), `"subjects":[]`)
}

// tokenWithRole is the token of a new service account of the fixture organization in
// a new group that holds role.
func (h *harness) tokenWithRole(roleID string) string {
	h.t.Helper()

	group := h.createGroup(organizationPath, "holders", unikorn.GroupSpec{RoleIDs: []string{roleID}, ServiceAccountIDs: []string{}})

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, organizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "holder"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).expect(http.StatusCreated, &account)

	return account.Status.AccessToken
}

func TestRolesListWhatTheCallerCouldGrant(t *testing.T) {
	h := newHarness(t)

	names := func(token string) []string {
		var roles []unikorn.Role

		h.callAs(token, http.MethodGet, organizationPath("/roles"), nil).expect(http.StatusOK, &roles)

		out := []string{}
		for _, role := range roles {
			out = append(out, role.Metadata.Name)
		}

		return out
	}

	assert.Equal(t, []string{"administrator", "auditor", "reader", "user"}, names(AdminToken))
	assert.Equal(t, []string{"auditor"}, names(h.tokenWithRole(AuditorRoleID)), "an auditor holds neither administrator's writes nor the reader's storage classes")
}
