package volumes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func ptr[T any](v T) *T { return &v }

var testClasses = []Class{
	{ID: "standard", Name: "standard", RegionID: "r-1", MinimumSizeGiB: ptr(int64(1)), MaximumSizeGiB: ptr(int64(100)), SupportedFlavorIDs: []string{"f-1"}},
	{ID: "fast", Name: "fast-nvme", RegionID: "r-1", MinimumSizeGiB: ptr(int64(10)), MaximumSizeGiB: ptr(int64(50))},
	{ID: "cold", Name: "cold", RegionID: "r-2"},
	{ID: "fast", Name: "fast-nvme", RegionID: "r-2", MinimumSizeGiB: ptr(int64(1))},
}

// Region's refusals of a class and a size come in its order, each on its attribute,
// and a size within the bounds passes.
func TestClassProblemFollowsRegionsOrder(t *testing.T) {
	t.Parallel()

	for name, tc := range map[string]struct {
		region, class string
		size          int64
		field         Field
		summary       string
	}{
		"fits":                     {region: "r-1", class: "fast", size: 10},
		"of another region":        {region: "r-1", class: "cold", size: 10, field: FieldClassID, summary: "Volume class of another region"},
		"unknown":                  {region: "r-1", class: "nope", size: 10, field: FieldClassID, summary: "Volume class not found"},
		"below the minimum":        {region: "r-1", class: "fast", size: 9, field: FieldSizeGiB, summary: "Volume too small for its class"},
		"above the maximum":        {region: "r-1", class: "fast", size: 51, field: FieldSizeGiB, summary: "Volume too large for its class"},
		"beyond what region holds": {region: "r-2", class: "cold", size: maxSizeGiB + 1, field: FieldSizeGiB, summary: "Volume too large"},
	} {
		problem := ClassProblem(testClasses, tc.region, tc.class, tc.size)

		if tc.summary == "" {
			assert.Nil(t, problem, name)

			continue
		}

		require.NotNil(t, problem, name)
		assert.Equal(t, tc.field, problem.Field, name)
		assert.Equal(t, tc.summary, problem.Summary, name)
		assert.NotEmpty(t, problem.Remedy, name)
	}
}

// Without the region, a size is refused only when every class of the ID would refuse it.
func TestSizeIsJudgedEverywhereWithoutTheRegion(t *testing.T) {
	t.Parallel()

	assert.Nil(t, sizeEverywhere(testClasses, "fast", 5), "r-2's fast takes 5 GiB")
	assert.NotNil(t, sizeEverywhere(testClasses, "standard", 101))
	assert.Nil(t, sizeEverywhere(testClasses, "nope", 1), "an unknown class is the region's to judge")
}

// A volume is attached only to an instance of its own project, region and network,
// and only when its class names the instance's flavor: compute reads a class that
// names none as supporting none.
func TestAttachmentProblems(t *testing.T) {
	t.Parallel()

	at := Attaching{InstanceID: "i-1", OrganizationID: "o-1", ProjectID: "p-1", RegionID: "r-1", NetworkID: "n-1", FlavorID: "f-1", FlavorName: "small"}
	volume := func(class, network string) *unikorn.Volume {
		v := &unikorn.Volume{Spec: unikorn.VolumeSpec{NetworkID: network, VolumeClassID: class, SizeGiB: 10}, Status: unikorn.VolumeStatus{RegionID: "r-1"}}
		v.Metadata.ID, v.Metadata.Name, v.Metadata.OrganizationID, v.Metadata.ProjectID = "v-1", "data", "o-1", "p-1"

		return v
	}

	assert.Nil(t, placementProblem(volume("standard", "n-1"), at))
	assert.Equal(t, "Volume on another network", placementProblem(volume("standard", "n-2"), at).Summary)

	other := volume("standard", "n-1")
	other.Metadata.ProjectID = "p-2"
	assert.Equal(t, "Volume of another project or region", placementProblem(other, at).Summary)

	deleting := volume("standard", "n-1")
	deleting.Metadata.ProvisioningStatus = unikorn.ProvisioningDeprovisioning
	assert.Equal(t, "Volume being deleted", placementProblem(deleting, at).Summary)

	assert.Nil(t, flavorProblem(volume("standard", "n-1"), testClasses, at))

	problem := flavorProblem(volume("fast", "n-1"), testClasses, at)
	require.NotNil(t, problem)
	assert.Equal(t, "Volume class does not support the flavor", problem.Summary)
	assert.Contains(t, problem.Detail, "small (f-1)", "the flavor is named")
	assert.Contains(t, problem.Detail, "fast-nvme (fast)", "the class is named")

	assert.Equal(t, "Volume class not in the instance's region", flavorProblem(volume("cold", "n-1"), testClasses, at).Summary)
}
