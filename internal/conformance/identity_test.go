package conformance

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// identityObjects drives identity's projects, groups, service accounts and roles as an
// organization administrator, in the organization that starts empty.
func (r *run) identityObjects(t *testing.T) {
	ctx := t.Context()
	organizationID := sandbox.EmptyOrganizationID

	roles, err := call(r.coverage, r.admin.ListRoles)(ctx, organizationID)
	require.NoError(t, err)
	require.NotEmpty(t, roles)

	group, err := call(r.coverage, r.admin.CreateGroup)(ctx, organizationID, unikorn.GroupWrite{
		Metadata: unikorn.WriteMetadata{Name: "team", Description: "the team"},
		Spec:     unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{}, UserIDs: []string{sandbox.EmptyAdminUserID}},
	})
	require.NoError(t, err)

	groupWrite := unikorn.GroupWrite{
		Metadata: unikorn.WriteMetadata{Name: "team", Tags: unikorn.Tags{{Name: "owner", Value: "platform"}}},
		Spec:     unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID, sandbox.ReaderRoleID}, ServiceAccountIDs: []string{}},
	}
	require.NoError(t, call(r.coverage, r.admin.UpdateGroup)(ctx, organizationID, group.Metadata.ID, groupWrite))

	got, err := call(r.coverage, r.admin.GetGroup)(ctx, organizationID, group.Metadata.ID)
	require.NoError(t, err)
	require.Len(t, got.Spec.RoleIDs, 2)

	groups, err := call(r.coverage, r.admin.ListGroups)(ctx, organizationID)
	require.NoError(t, err)
	require.Len(t, groups, 2, "the administrators' group and the new one")

	project, err := call(r.coverage, r.admin.CreateProject)(ctx, organizationID, unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "team"},
		Spec:     unikorn.ProjectSpec{GroupIDs: []string{group.Metadata.ID}},
	})
	require.NoError(t, err)

	projectID := project.Metadata.ID
	r.waitForProject(t, organizationID, projectID, unikorn.ProvisioningProvisioned)

	require.NoError(t, call(r.coverage, r.admin.UpdateProject)(ctx, organizationID, projectID, unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "team", Description: "renamed"},
		Spec:     unikorn.ProjectSpec{GroupIDs: []string{group.Metadata.ID}},
	}))
	r.waitForProject(t, organizationID, projectID, unikorn.ProvisioningProvisioned)

	account, err := call(r.coverage, r.admin.CreateServiceAccount)(ctx, organizationID, unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	})
	require.NoError(t, err)
	require.NotEmpty(t, account.Status.AccessToken)

	accounts, err := call(r.coverage, r.admin.ListServiceAccounts)(ctx, organizationID)
	require.NoError(t, err)
	require.Len(t, accounts, 1)

	updated, err := call(r.coverage, r.admin.UpdateServiceAccount)(ctx, organizationID, account.Metadata.ID, unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci", Description: "the pipeline"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	})
	require.NoError(t, err)
	require.Equal(t, []string{group.Metadata.ID}, updated.Spec.GroupIDs)

	rotated, err := call(r.coverage, r.admin.RotateServiceAccount)(ctx, organizationID, account.Metadata.ID)
	require.NoError(t, err)
	require.NotEqual(t, account.Status.AccessToken, rotated.Status.AccessToken)

	// A person made a user of the organization, in the group, then suspended, then
	// taken out of it.
	user, err := call(r.coverage, r.admin.CreateUser)(ctx, organizationID, unikorn.UserWrite{
		Spec: unikorn.UserSpec{Subject: "new@example.com", State: unikorn.UserActive, GroupIDs: []string{group.Metadata.ID}},
	})
	require.NoError(t, err)
	require.Equal(t, []string{group.Metadata.ID}, user.Spec.GroupIDs)

	suspended, err := call(r.coverage, r.admin.UpdateUser)(ctx, organizationID, user.Metadata.ID, unikorn.UserWrite{
		Spec: unikorn.UserSpec{Subject: "new@example.com", State: unikorn.UserSuspended, GroupIDs: []string{}},
	})
	require.NoError(t, err)
	require.Equal(t, unikorn.UserSuspended, suspended.Spec.State)

	users, err := call(r.coverage, r.admin.ListUsers)(ctx, organizationID)
	require.NoError(t, err)
	require.Len(t, users, 2, "the administrator and the new user")

	require.NoError(t, call(r.coverage, r.admin.DeleteUser)(ctx, organizationID, user.Metadata.ID))

	// The project user may not make projects: identity names the permission.
	_, err = call(r.coverage, r.user.CreateProject)(ctx, sandbox.OrganizationID, unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "refused"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	})
	require.True(t, unikorn.IsForbidden(err), "a project user's project create is a 403, got %v", err)

	require.NoError(t, call(r.coverage, r.admin.DeleteServiceAccount)(ctx, organizationID, account.Metadata.ID))
	require.NoError(t, call(r.coverage, r.admin.DeleteProject)(ctx, organizationID, projectID))
	r.poll(t, "the project to be gone", func() bool {
		_, err := call(r.coverage, r.admin.GetProject)(ctx, organizationID, projectID)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})

	require.NoError(t, call(r.coverage, r.admin.DeleteGroup)(ctx, organizationID, group.Metadata.ID))

	_, err = call(r.coverage, r.admin.GetGroup)(ctx, organizationID, group.Metadata.ID)
	require.True(t, unikorn.IsNotFound(err), "a deleted group is gone at once, got %v", err)
}

func (r *run) waitForProject(t *testing.T, organizationID, projectID, status string) {
	t.Helper()

	r.poll(t, "the project to be "+status, func() bool {
		project, err := call(r.coverage, r.admin.GetProject)(t.Context(), organizationID, projectID)
		require.NoError(t, err)

		return project.Metadata.ProvisioningStatus == status
	})
}
