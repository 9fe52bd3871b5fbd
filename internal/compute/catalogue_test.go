package compute_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Validation reuses what it looked up, so a network deleted since can slip through
// once; region's refusal then makes the next check ask again and name the problem.
func TestARefusedCreateRefreshesTheCatalogue(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	network, err := e.Client.CreateNetwork(t.Context(), unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: "short-lived"},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{"8.8.8.8"}},
			OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID,
			Prefix: "10.9.0.0/24",
		},
	})
	require.NoError(t, err)

	spec := standardSpec("web")
	spec.NetworkID = network.Metadata.ID

	_, err = e.service.Validate(t.Context(), spec)
	require.NoError(t, err, "the network is looked up, and kept")

	require.NoError(t, e.Client.DeleteNetwork(t.Context(), network.Metadata.ID))
	require.Eventually(t, func() bool {
		_, err := e.Client.GetNetwork(t.Context(), network.Metadata.ID)

		return unikorn.IsNotFound(err)
	}, 5*time.Second, 5*time.Millisecond)

	_, err = e.service.Create(t.Context(), spec)
	require.ErrorContains(t, err, "creating the server", "the kept network let the create through to region")
	assert.Zero(t, e.instanceAllocations(), "and its charge was released")

	e.Sandbox.ResetStats()

	_, err = e.service.Create(t.Context(), spec)

	var problems *compute.ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, compute.FieldNetworkID, problems.Problems[0].Field)
	assert.Zero(t, e.Sandbox.Stats().Routes["POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations"],
		"the second attempt is refused before it charges anything")
}
