package compute_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// names returns the names of the listed instances, in the order listed.
func names(listing *compute.Listing) []string {
	result := make([]string, len(listing.Instances))
	for i, instance := range listing.Instances {
		result[i] = instance.Spec.Name
	}

	return result
}

// createOnly creates an instance without waiting for it: listing does not care
// whether it is ready.
func (e *env) createOnly(t *testing.T, spec compute.Spec) *compute.Instance {
	t.Helper()

	instance, err := e.service.Create(t.Context(), spec)
	require.NoError(t, err)

	return instance
}

// createPlainServer creates a server that no instance owns: it lacks the instance tag.
func (e *env) createPlainServer(t *testing.T, name string, tags unikorn.Tags) *unikorn.Server {
	t.Helper()

	server, err := e.Client.CreateServer(t.Context(), unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Tags: tags},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			NetworkID:  sandbox.NetworkDefaultID,
		},
	})
	require.NoError(t, err)

	return server
}

func TestListSelectsInstancesByScopeAndTags(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	web1 := standardSpec("web-1")
	web1.Tags = map[string]string{"team": "web"}
	web2 := standardSpec("web-2")
	web2.Tags = map[string]string{"team": "web", "tier": "front"}
	db := standardSpec("db-1")
	db.NetworkID = sandbox.NetworkSecondaryID
	db.Tags = map[string]string{"team": "db"}
	elsewhere := standardSpec("batch-1")
	elsewhere.NetworkID = sandbox.NetworkOtherID

	for _, spec := range []compute.Spec{web2, db, web1, elsewhere} {
		e.createOnly(t, spec)
	}

	// A server of the same scope and tags that is not an instance is never listed.
	e.createPlainServer(t, "not-an-instance", unikorn.Tags{{Name: "team", Value: "web"}})

	for name, tc := range map[string]struct {
		query compute.ListQuery
		want  []string
	}{
		"the organization, every project": {
			query: compute.ListQuery{OrganizationID: sandbox.OrganizationID},
			want:  []string{"batch-1", "db-1", "web-1", "web-2"},
		},
		"one project": {
			query: compute.ListQuery{OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID},
			want:  []string{"db-1", "web-1", "web-2"},
		},
		"one network": {
			query: compute.ListQuery{NetworkID: sandbox.NetworkSecondaryID},
			want:  []string{"db-1"},
		},
		"the region": {
			query: compute.ListQuery{RegionID: sandbox.RegionID},
			want:  []string{"batch-1", "db-1", "web-1", "web-2"},
		},
		"a region without instances": {
			query: compute.ListQuery{RegionID: "b0000000-0000-4000-8000-0000000000ff"},
			want:  []string{},
		},
		"one tag": {
			query: compute.ListQuery{Tags: map[string]string{"team": "web"}},
			want:  []string{"web-1", "web-2"},
		},
		"every tag must match": {
			query: compute.ListQuery{Tags: map[string]string{"team": "web", "tier": "front"}},
			want:  []string{"web-2"},
		},
		"a tag's value must match exactly": {
			query: compute.ListQuery{Tags: map[string]string{"team": "we"}},
			want:  []string{},
		},
	} {
		t.Run(name, func(t *testing.T) {
			listing, err := e.service.List(t.Context(), tc.query)
			require.NoError(t, err)

			assert.Equal(t, tc.want, names(listing))
			assert.Empty(t, listing.Conflicts)
		})
	}
}

func TestListShowsInstancesAsGetDoes(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	spec := standardSpec("web-1")
	spec.Tags = map[string]string{"team": "web"}
	spec.PublicIP = true
	created := e.create(t, spec)

	listing, err := e.service.List(t.Context(), compute.ListQuery{ProjectID: sandbox.ProjectID})
	require.NoError(t, err)
	require.Len(t, listing.Instances, 1)

	got, err := e.service.Get(t.Context(), created.Ref())
	require.NoError(t, err)

	listed := listing.Instances[0]
	assert.Equal(t, got, listed)
	assert.Equal(t, created.ID, listed.ID)
	assert.Equal(t, sandbox.OrganizationID, listed.OrganizationID)
	assert.Equal(t, map[string]string{"team": "web"}, listed.Spec.Tags, "reserved tags are not the user's")
	assert.NotEmpty(t, listed.AllocationID)
}

func TestListLeavesOutInstancesBeingDeleted(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	require.NoError(t, e.Sandbox.UpdateSettings(sandbox.Settings{DeprovisionDelay: "1h"}))

	e.createOnly(t, standardSpec("staying"))
	leaving := e.createOnly(t, standardSpec("leaving"))
	require.NoError(t, e.Client.DeleteServer(t.Context(), leaving.ServerID))

	server, err := e.Client.GetServer(t.Context(), leaving.ServerID)
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningDeprovisioning, server.Metadata.ProvisioningStatus, "the server still exists")

	listing, err := e.service.List(t.Context(), compute.ListQuery{})
	require.NoError(t, err)
	assert.Equal(t, []string{"staying"}, names(listing))
}

func TestListReportsInstancesClaimedByMoreThanOneServer(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	twin := e.createOnly(t, standardSpec("twin"))
	e.createOnly(t, standardSpec("single"))
	impostor := e.createPlainServer(t, "impostor", unikorn.Tags{{Name: compute.InstanceIDTag, Value: twin.ID}})

	listing, err := e.service.List(t.Context(), compute.ListQuery{})
	require.NoError(t, err)

	assert.Equal(t, []string{"single"}, names(listing), "neither claimant is shown as the instance")
	require.Len(t, listing.Conflicts, 1)
	assert.Equal(t, twin.ID, listing.Conflicts[0].InstanceID)
	assert.ElementsMatch(t, []string{twin.ServerID, impostor.Metadata.ID}, listing.Conflicts[0].ServerIDs)
}
