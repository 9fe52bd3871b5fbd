package region_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A flavor pinned to hosts may only be used with an infrastructureRef.
func TestPinnedFlavorNeedsInfrastructureRef(t *testing.T) {
	h := sandboxtest.New(t)

	pinned := region.FixtureFlavor("f1000000-0000-4000-8000-000000000000", "sim-pinned", unikorn.FlavorSpec{CPUs: 64, Memory: 256, Disk: 2000, Architecture: unikorn.ArchitectureX86_64, PinnedOnly: true})
	region.AddFlavor(t, pinned)

	body := sandboxtest.ServerCreate("pinned")
	body.Spec.FlavorID = pinned.Metadata.ID
	h.Call(http.MethodPost, "/api/v2/servers", body).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)

	body.Spec.InfrastructureRef = "rack-1/host-7"
	server := h.CreateServer(body)
	assert.Equal(t, "rack-1/host-7", server.Status.InfrastructureRef)
}

func regionIDs(regions []unikorn.Region) []string {
	ids := []string{}
	for _, region := range regions {
		ids = append(ids, region.Metadata.ID)
	}

	return ids
}

func TestRegions(t *testing.T) {
	h := sandboxtest.New(t)

	var regions []unikorn.Region

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).Expect(http.StatusOK, &regions)
	require.Len(t, regions, 2)
	assert.Equal(t, sandbox.RegionID, regions[0].Metadata.ID)
	assert.Equal(t, "sandbox-1", regions[0].Metadata.Name)
	assert.Equal(t, "simulated", regions[0].Spec.Type)
	assert.Equal(t, sandbox.PrivateRegionID, regions[1].Metadata.ID)
}

// A private region is its organization's: anyone else is told it does not exist,
// whatever they ask of it, as region's checkAccess answers.
func TestPrivateRegionIsItsOrganizationsAlone(t *testing.T) {
	h := sandboxtest.New(t)

	var regions []unikorn.Region

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).Expect(http.StatusOK, &regions)
	assert.Equal(t, []string{sandbox.RegionID, sandbox.PrivateRegionID}, regionIDs(regions))

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/regions/"+sandbox.PrivateRegionID+"/flavors"), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/regions/"+sandbox.PrivateRegionID+"/images"), nil).Expect(http.StatusOK, nil)

	foreign := "/api/v1/organizations/" + sandbox.ForeignOrganizationID + "/regions"

	h.CallAs(sandbox.ForeignToken, http.MethodGet, foreign, nil).Expect(http.StatusOK, &regions)
	assert.Equal(t, []string{sandbox.RegionID}, regionIDs(regions))

	h.CallAs(sandbox.ForeignToken, http.MethodGet, foreign+"/"+sandbox.PrivateRegionID+"/flavors", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.ForeignToken, http.MethodGet, foreign+"/"+sandbox.PrivateRegionID+"/images", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v2/regions/"+sandbox.PrivateRegionID+"/images", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	create := sandboxtest.NetworkCreate("private", "10.9.0.0/24")
	create.Spec.OrganizationID, create.Spec.ProjectID, create.Spec.RegionID = sandbox.ForeignOrganizationID, sandbox.ForeignProjectID, sandbox.PrivateRegionID
	h.CallAs(sandbox.ForeignToken, http.MethodPost, "/api/v2/networks", create).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestFlavorsAreOrderedByGPUsCPUsAndMemory(t *testing.T) {
	h := sandboxtest.New(t)

	var flavors []unikorn.Flavor

	resp := h.Call(http.MethodGet, sandboxtest.RegionPath("/flavors"), nil).Expect(http.StatusOK, &flavors)
	assert.Equal(t, "max-age=86400, private", resp.Header.Get("Cache-Control"))

	names := []string{}
	for _, flavor := range flavors {
		names = append(names, flavor.Metadata.Name)
	}

	assert.Equal(t, []string{"sim-tiny-1", "sim-arm-2", "sim-standard-4", "sim-metal-32", "sim-gpu-8"}, names)
	assert.Equal(t, 1, flavors[4].GPUCount())
	assert.True(t, flavors[3].Spec.Baremetal)
	assert.NotContains(t, string(resp.Body), "provisioningStatus", "flavors carry no status")

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/regions/b0000000-0000-4000-8000-0000000000ff/flavors"), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}
