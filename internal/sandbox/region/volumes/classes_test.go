package volumes_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const classesPath = "/api/v2/volumeclasses"

func classIDs(c unikorn.VolumeClass) string { return c.Metadata.ID }

func TestVolumeClassesOfTheRegionsACallerSees(t *testing.T) {
	h := sandboxtest.New(t)

	// Every region's, by region, then name; a region named twice is listed once.
	assert.Equal(t, []string{sandbox.VolumeClassFastID, sandbox.VolumeClassStandardID, sandbox.VolumeClassPrivateID},
		sandboxtest.Listed[unikorn.VolumeClass](h, sandbox.DefaultToken, classesPath, classIDs))
	assert.Equal(t, []string{sandbox.VolumeClassFastID, sandbox.VolumeClassStandardID},
		sandboxtest.Listed[unikorn.VolumeClass](h, sandbox.DefaultToken, classesPath+"?regionID="+sandbox.RegionID+"&regionID="+sandbox.RegionID, classIDs))

	// A private region is left out for another organization, never refused; a region
	// that does not exist lists nothing, as an empty list.
	assert.NotContains(t, sandboxtest.Listed[unikorn.VolumeClass](h, sandbox.ForeignToken, classesPath, classIDs), sandbox.VolumeClassPrivateID)
	assert.Empty(t, sandboxtest.Listed[unikorn.VolumeClass](h, sandbox.ForeignToken, classesPath+"?regionID="+sandbox.PrivateRegionID, classIDs))

	empty := h.CallAs(sandbox.DefaultToken, http.MethodGet, classesPath+"?regionID=b0000000-0000-4000-8000-0000000000ff", nil)
	empty.Expect(http.StatusOK, nil)
	assert.JSONEq(t, "[]", string(empty.Body))

	// Region's own base URL serves them too.
	var classes []unikorn.VolumeClass

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.RegionPrefix+classesPath+"?regionID="+sandbox.RegionID, nil).Expect(http.StatusOK, &classes)
	require.Len(t, classes, 2)

	// Each names the flavors that may attach its volumes: compute reads none as no flavor.
	fast := classes[0]
	assert.Equal(t, "sim-fast-volume", fast.Metadata.Name)
	assert.True(t, fast.Spec.Encrypted)
	assert.Equal(t, unikorn.VolumeMediaNVMe, fast.Spec.Media)
	assert.Equal(t, int64(10), *fast.Spec.MinimumSizeGiB)
	assert.Equal(t, 25000, *fast.Spec.Performance.MaxIOPS)
	assert.Equal(t, []string{sandbox.FlavorStandardID, sandbox.FlavorGPUID}, fast.Spec.SupportedFlavorIDs)
	assert.True(t, fast.Metadata.CreationTime.IsZero(), "a class is static: its creation time is zero")
}
