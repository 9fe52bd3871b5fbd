package identity_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// env is an identity façade over a fresh sandbox, as token.
type env struct {
	world   *cloudtest.World
	service *identity.Service
}

func newEnv(t *testing.T, token string, readLag time.Duration) *env {
	t.Helper()

	return startEnv(t, cloudtest.Config{Token: token, ReadLag: readLag})
}

func startEnv(t *testing.T, config cloudtest.Config) *env {
	t.Helper()

	world := cloudtest.Start(t, config)

	return &env{world: world, service: identity.NewService(world.Session)}
}

func projectWrite(groupIDs ...string) identity.ProjectWrite {
	return identity.ProjectWrite{WriteMetadata: cloud.WriteMetadata{Name: "team"}, GroupIDs: append([]string{}, groupIDs...)}
}

func TestAProjectUserIsToldWhichRoleCreatingAProjectNeeds(t *testing.T) {
	e := newEnv(t, sandbox.DefaultToken, 0)

	_, err := e.service.CreateProject(t.Context(), sandbox.OrganizationID, projectWrite())

	var refused *identity.ProjectCreationError
	require.ErrorAs(t, err, &refused)
	assert.Contains(t, err.Error(), "`identity:projects` `create`")
	assert.Contains(t, err.Error(), "`administrator`")
}

func TestAProjectIsCreatedUpdatedAndDeletedUntilGone(t *testing.T) {
	e := newEnv(t, sandbox.AdminToken, 40*time.Millisecond)
	ctx := t.Context()

	project, err := e.service.CreateProject(ctx, sandbox.EmptyOrganizationID, projectWrite())
	require.NoError(t, err)
	assert.Equal(t, unikorn.ProvisioningProvisioned, project.ProvisioningStatus)

	group, err := e.service.CreateGroup(ctx, sandbox.EmptyOrganizationID, identity.GroupWrite{
		WriteMetadata: cloud.WriteMetadata{Name: "team"}, RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{},
	})
	require.NoError(t, err)

	write := projectWrite(group.ID)
	write.Description = "renamed"
	updated, err := e.service.UpdateProject(ctx, sandbox.EmptyOrganizationID, project.ID, write)
	require.NoError(t, err)
	assert.Equal(t, []string{group.ID}, updated.GroupIDs)

	require.NoError(t, e.service.DeleteProject(ctx, sandbox.EmptyOrganizationID, project.ID, time.Time{}))

	gone, err := e.service.ReadProject(ctx, sandbox.EmptyOrganizationID, project.ID)
	require.NoError(t, err)
	assert.Nil(t, gone)
}

// A project held by what other services keep in it is explained by what the token
// can see there, looked for in every list it may read: a list it may not read, or
// one that fails, is named, and the others are still searched. Once the holder is
// gone, the delete finishes.
func TestAHeldProjectDeleteSaysWhatHoldsItAndFinishesOnceReleased(t *testing.T) {
	t.Parallel()

	tests := map[string]struct {
		faults []sandbox.FaultRule
		found  []string
		unread []string
	}{
		"every list read": {found: []string{`network "holder"`}},
		"networks forbidden": {
			faults: []sandbox.FaultRule{{Method: http.MethodGet, Route: "/api/v2/networks", Status: http.StatusForbidden}},
			unread: []string{"the token may not list networks"},
		},
		"the list of file storage fails": {
			faults: []sandbox.FaultRule{{Method: http.MethodGet, Route: "/api/v2/filestorage", Status: http.StatusServiceUnavailable}},
			found:  []string{`network "holder"`},
			unread: []string{"the list of file storage failed"},
		},
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			e := newEnv(t, sandbox.AdminToken, 0)
			ctx := t.Context()

			project, err := e.service.CreateProject(ctx, sandbox.EmptyOrganizationID, projectWrite())
			require.NoError(t, err)

			admin := e.world.NewClient(t, sandbox.AdminToken, nil)

			network, err := admin.CreateNetwork(ctx, unikorn.NetworkCreate{
				Metadata: unikorn.WriteMetadata{Name: "holder"},
				Spec: unikorn.NetworkCreateSpec{
					NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{}},
					OrganizationID: sandbox.EmptyOrganizationID, ProjectID: project.ID, RegionID: sandbox.RegionID, Prefix: "10.9.0.0/24",
				},
			})
			require.NoError(t, err)

			for _, rule := range tt.faults {
				_, err := e.world.Sandbox.AddFault(rule)
				require.NoError(t, err)
			}

			short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			defer cancel()

			err = e.service.DeleteProject(short, sandbox.EmptyOrganizationID, project.ID, time.Time{})

			var held *identity.ProjectHeldError
			require.ErrorAs(t, err, &held)
			assert.Contains(t, err.Error(), "projectID="+project.ID, "says how to find the rest")

			found, unread := cloudtest.Held(held.Holders)

			assert.Equal(t, tt.found, found, err.Error())
			assert.Equal(t, tt.unread, unread, err.Error())

			if len(tt.found) > 0 {
				assert.Contains(t, err.Error(), network.Metadata.ID, "names the network that holds it")
			}

			e.world.Sandbox.ClearFaults()
			require.NoError(t, admin.DeleteNetwork(ctx, network.Metadata.ID))
			require.NoError(t, e.service.DeleteProject(ctx, sandbox.EmptyOrganizationID, project.ID, time.Time{}))
		})
	}
}

func TestALostServiceAccountCreateIsAdoptedWithoutItsToken(t *testing.T) {
	e := newEnv(t, sandbox.AdminToken, 0)
	ctx := t.Context()

	_, err := e.world.Sandbox.AddFault(sandbox.FaultRule{
		Method: "POST", Route: "/api/v1/organizations/{organizationID}/serviceaccounts", Status: 502, Count: 1, Phase: sandbox.FaultPhaseAfter,
	})
	require.NoError(t, err)

	account, err := e.service.CreateServiceAccount(ctx, sandbox.EmptyOrganizationID, identity.ServiceAccountWrite{
		WriteMetadata: cloud.WriteMetadata{Name: "ci"}, GroupIDs: []string{},
	})

	var adopted *identity.AdoptedError
	require.ErrorAs(t, err, &adopted)
	require.NotNil(t, account)
	assert.Empty(t, account.AccessToken)
	assert.Contains(t, err.Error(), "rotate it")

	accounts, err := e.service.ListServiceAccounts(ctx, sandbox.EmptyOrganizationID)
	require.NoError(t, err)
	assert.Len(t, accounts, 1, "sent once, never again")

	rotated, err := e.service.RotateServiceAccount(ctx, sandbox.EmptyOrganizationID, account.ID)
	require.NoError(t, err)
	assert.NotEmpty(t, rotated.AccessToken)
}

func TestAServiceAccountIsReadFromTheList(t *testing.T) {
	e := newEnv(t, sandbox.AdminToken, 0)
	ctx := t.Context()

	account, err := e.service.CreateServiceAccount(ctx, sandbox.EmptyOrganizationID, identity.ServiceAccountWrite{
		WriteMetadata: cloud.WriteMetadata{Name: "ci"}, GroupIDs: []string{"f0000000-0000-4000-8000-0000000000aa"},
	})

	var notJoined *identity.GroupsNotJoinedError
	require.ErrorAs(t, err, &notJoined)

	read, err := e.service.ReadServiceAccount(ctx, sandbox.EmptyOrganizationID, account.ID)
	require.NoError(t, err)
	require.NotNil(t, read)
	assert.Empty(t, read.AccessToken)

	require.NoError(t, e.service.DeleteServiceAccount(ctx, sandbox.EmptyOrganizationID, account.ID, time.Time{}))

	gone, err := e.service.ReadServiceAccount(ctx, sandbox.EmptyOrganizationID, account.ID)
	require.NoError(t, err)
	assert.Nil(t, gone)
}

// An update is sent when it is asked for, not on the first tick of the wait that
// sends it again after a conflict, a whole poll interval later.
func TestAProjectUpdateIsSentAtOnce(t *testing.T) {
	// In a bubble, half the poll interval is half a second of the bubble's clock,
	// however slowly the machine runs the test.
	synctest.Test(t, func(t *testing.T) {
		e := startEnv(t, cloudtest.Config{Token: sandbox.AdminToken, InProcess: true})
		ctx := t.Context()

		project, err := e.service.CreateProject(ctx, sandbox.EmptyOrganizationID, projectWrite())
		require.NoError(t, err)

		slow := identity.NewService(cloud.NewSession(e.world.Client, cloud.WithPollPolicy(cloud.PollPolicy{
			Min: time.Second, Max: time.Second, Factor: 2,
		})))
		puts := func() int {
			return e.world.Sandbox.Stats().Routes["PUT /api/v1/organizations/{organizationID}/projects/{projectID}"]
		}

		e.world.Sandbox.ResetStats()

		write := projectWrite()
		write.Description = "renamed"

		var updates sync.WaitGroup
		updates.Go(func() {
			_, err := slow.UpdateProject(ctx, sandbox.EmptyOrganizationID, project.ID, write)
			assert.NoError(t, err)
		})

		assert.Eventually(t, func() bool { return puts() == 1 }, 500*time.Millisecond, 5*time.Millisecond,
			"the update went out within half the poll interval")
		updates.Wait()
		assert.Equal(t, 1, puts(), "and once")
	})
}

// A failure that is no answer (a 500 the client does not retry) is sent again on the
// wait's ticks, not reported: replacing a project's metadata twice is safe, whether
// identity refused the first or took it and lost the answer (then the second meets
// its controller reprovisioning the first, a conflict, until that is done).
func TestAProjectUpdateRidesOutAFailureThatIsNoAnswer(t *testing.T) {
	const route = "/api/v1/organizations/{organizationID}/projects/{projectID}"

	for _, phase := range []string{sandbox.FaultPhaseBefore, sandbox.FaultPhaseAfter} {
		t.Run(phase, func(t *testing.T) {
			e := newEnv(t, sandbox.AdminToken, 0)
			ctx := t.Context()

			project, err := e.service.CreateProject(ctx, sandbox.EmptyOrganizationID, projectWrite())
			require.NoError(t, err)

			_, err = e.world.Sandbox.AddFault(sandbox.FaultRule{
				Method: http.MethodPut, Route: route, Status: http.StatusInternalServerError, Count: 1, Phase: phase,
			})
			require.NoError(t, err)
			e.world.Sandbox.ResetStats()

			write := projectWrite()
			write.Description = "after a failure"

			updated, err := e.service.UpdateProject(ctx, sandbox.EmptyOrganizationID, project.ID, write)
			require.NoError(t, err)
			assert.Equal(t, "after a failure", updated.Description)
			assert.GreaterOrEqual(t, e.world.Sandbox.Stats().Routes["PUT "+route], 2, "sent again")
		})
	}
}

// Identity ignores a group ID that names no group when it makes a user: the create
// says so, and the user it made is kept.
func TestAUserIsNotPutInAGroupThatDoesNotExist(t *testing.T) {
	e := newEnv(t, sandbox.AdminToken, 0)
	ctx := t.Context()
	missing := "f0000000-0000-4000-8000-0000000000aa"

	user, err := e.service.CreateUser(ctx, sandbox.EmptyOrganizationID, identity.UserWrite{
		Subject: "nogroup@example.com", State: identity.UserActive, GroupIDs: []string{missing},
	})

	var notJoined *identity.GroupsNotJoinedError
	require.ErrorAs(t, err, &notJoined)
	assert.Equal(t, []string{missing}, notJoined.Missing)
	require.NotNil(t, user)

	found, err := e.service.User(ctx, identity.Selector{OrganizationID: sandbox.EmptyOrganizationID, Name: "nogroup@example.com"})
	require.NoError(t, err)
	assert.Equal(t, user.ID, found.ID)

	_, err = e.service.UpdateUser(ctx, sandbox.EmptyOrganizationID, user.ID, identity.UserWrite{
		Subject: "nogroup@example.com", State: identity.UserSuspended, GroupIDs: []string{missing},
	})
	require.ErrorAs(t, err, &notJoined)

	require.NoError(t, e.service.DeleteUser(ctx, sandbox.EmptyOrganizationID, user.ID, time.Time{}))
}

// The organization's settings are read through the façade.
func TestTheOrganizationIsRead(t *testing.T) {
	e := newEnv(t, sandbox.AdminToken, 0)

	organization, err := e.service.Organization(t.Context(), sandbox.EmptyOrganizationID)
	require.NoError(t, err)
	assert.Equal(t, sandbox.EmptyOrganizationID, organization.ID)
	assert.NotEmpty(t, organization.Type)
}
