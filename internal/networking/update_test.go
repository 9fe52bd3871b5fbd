package networking_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Region answers an update that lost its optimistic lock to the object's controller
// with a 500, having written nothing (the sandbox does so while its cache trails the
// controller's write; the fault gives that answer on cue): the update, a PUT of the
// whole object, is sent again until region takes it.
func TestUpdatesThatLoseTheLockAreSentAgain(t *testing.T) {
	t.Parallel()

	world := cloudtest.Start(t, cloudtest.Config{})
	service := networking.NewService(world.Session)
	ctx := t.Context()

	lostLock := func(route string) {
		t.Helper()

		_, err := world.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPut, Route: route, Status: http.StatusInternalServerError, Count: 2})
		require.NoError(t, err)
	}
	puts := func(route string) int { return world.Sandbox.Stats().Routes[http.MethodPut+" "+route] }

	network, err := service.CreateNetwork(ctx, networking.NetworkCreate{
		Metadata:       cloud.WriteMetadata{Name: "raced"},
		NetworkSpec:    networking.NetworkSpec{DNSNameservers: []string{"8.8.8.8"}},
		OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID, Prefix: "10.40.0.0/24",
	})
	require.NoError(t, err)

	const networkRoute = "/api/v2/networks/{networkID}"

	lostLock(networkRoute)

	updated, err := service.UpdateNetwork(ctx, network.Metadata.ID, networking.NetworkUpdate{
		Metadata: cloud.WriteMetadata{Name: "renamed"}, NetworkSpec: networking.NetworkSpec{DNSNameservers: []string{"1.1.1.1"}},
	})
	require.NoError(t, err)
	assert.Equal(t, 3, puts(networkRoute), "two lost the lock, the third was taken")
	assert.Equal(t, "renamed", updated.Metadata.Name)
	assert.Equal(t, []string{"1.1.1.1"}, updated.DNSNameservers)

	group, err := service.CreateSecurityGroup(ctx, networking.SecurityGroupCreate{
		SecurityGroupUpdate: networking.SecurityGroupUpdate{Metadata: cloud.WriteMetadata{Name: "raced"}, Rules: []networking.Rule{}},
		NetworkID:           network.Metadata.ID,
	})
	require.NoError(t, err)

	const groupRoute = "/api/v2/securitygroups/{securityGroupID}"

	lostLock(groupRoute)

	renamed, err := service.UpdateSecurityGroup(ctx, group.Metadata.ID, networking.SecurityGroupUpdate{
		Metadata: cloud.WriteMetadata{Name: "renamed"}, Rules: []networking.Rule{},
	})
	require.NoError(t, err)
	assert.Equal(t, 3, puts(groupRoute), "two lost the lock, the third was taken")
	assert.Equal(t, "renamed", renamed.Metadata.Name)
}
