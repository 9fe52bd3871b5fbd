package sandbox

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func regionPath(suffix string) string {
	return organizationPath("/regions/" + RegionID + suffix)
}

func imageNames(images []unikorn.Image) []string {
	names := []string{}
	for _, image := range images {
		names = append(names, image.Metadata.Name)
	}

	return names
}

func (h *harness) listImagesV1() []unikorn.Image {
	h.t.Helper()

	var images []unikorn.Image

	resp := h.call(http.MethodGet, regionPath("/images"), nil).expect(http.StatusOK, &images)
	assert.Equal(h.t, "max-age=86400, private", resp.header.Get("Cache-Control"))

	return images
}

func (h *harness) listImagesV2(query url.Values) []unikorn.Image {
	h.t.Helper()

	var images []unikorn.Image

	resp := h.call(http.MethodGet, "/api/v2/regions/"+RegionID+"/images?"+query.Encode(), nil).expect(http.StatusOK, &images)
	assert.Equal(h.t, "no-cache", resp.header.Get("Cache-Control"))

	return images
}

func regionIDs(regions []unikorn.Region) []string {
	ids := []string{}
	for _, region := range regions {
		ids = append(ids, region.Metadata.ID)
	}

	return ids
}

func TestRegions(t *testing.T) {
	h := newHarness(t)

	var regions []unikorn.Region

	h.call(http.MethodGet, organizationPath("/regions"), nil).expect(http.StatusOK, &regions)
	require.Len(t, regions, 2)
	assert.Equal(t, RegionID, regions[0].Metadata.ID)
	assert.Equal(t, "sandbox-1", regions[0].Metadata.Name)
	assert.Equal(t, "simulated", regions[0].Spec.Type)
	assert.Equal(t, PrivateRegionID, regions[1].Metadata.ID)
}

// A private region is its organization's: anyone else is told it does not exist,
// whatever they ask of it, as region's checkAccess answers.
func TestPrivateRegionIsItsOrganizationsAlone(t *testing.T) {
	h := newHarness(t)

	var regions []unikorn.Region

	h.callAs(DefaultToken, http.MethodGet, organizationPath("/regions"), nil).expect(http.StatusOK, &regions)
	assert.Equal(t, []string{RegionID, PrivateRegionID}, regionIDs(regions))

	h.callAs(DefaultToken, http.MethodGet, organizationPath("/regions/"+PrivateRegionID+"/flavors"), nil).expect(http.StatusOK, nil)
	h.callAs(DefaultToken, http.MethodGet, organizationPath("/regions/"+PrivateRegionID+"/images"), nil).expect(http.StatusOK, nil)

	foreign := "/api/v1/organizations/" + ForeignOrganizationID + "/regions"

	h.callAs(ForeignToken, http.MethodGet, foreign, nil).expect(http.StatusOK, &regions)
	assert.Equal(t, []string{RegionID}, regionIDs(regions))

	h.callAs(ForeignToken, http.MethodGet, foreign+"/"+PrivateRegionID+"/flavors", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(ForeignToken, http.MethodGet, foreign+"/"+PrivateRegionID+"/images", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(ForeignToken, http.MethodGet, "/api/v2/regions/"+PrivateRegionID+"/images", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	create := networkCreate("private", "10.9.0.0/24")
	create.Spec.OrganizationID, create.Spec.ProjectID, create.Spec.RegionID = ForeignOrganizationID, ForeignProjectID, PrivateRegionID
	h.callAs(ForeignToken, http.MethodPost, "/api/v2/networks", create).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestFlavorsAreOrderedByGPUsCPUsAndMemory(t *testing.T) {
	h := newHarness(t)

	var flavors []unikorn.Flavor

	resp := h.call(http.MethodGet, regionPath("/flavors"), nil).expect(http.StatusOK, &flavors)
	assert.Equal(t, "max-age=86400, private", resp.header.Get("Cache-Control"))

	names := []string{}
	for _, flavor := range flavors {
		names = append(names, flavor.Metadata.Name)
	}

	assert.Equal(t, []string{"sim-tiny-1", "sim-arm-2", "sim-standard-4", "sim-metal-32", "sim-gpu-8"}, names)
	assert.Equal(t, 1, flavors[4].GPUCount())
	assert.True(t, flavors[3].Spec.Baremetal)
	assert.NotContains(t, string(resp.body), "provisioningStatus", "flavors carry no status")

	h.call(http.MethodGet, organizationPath("/regions/b0000000-0000-4000-8000-0000000000ff/flavors"), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestImageCatalogue(t *testing.T) {
	h := newHarness(t)

	images := h.listImagesV1()
	assert.Equal(t, []string{"debian-12-amd64", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64", "ubuntu-24.04-metal"}, imageNames(images))

	byName := map[string]unikorn.Image{}
	for _, image := range images {
		byName[image.Metadata.Name] = image
	}

	assert.Equal(t, unikorn.VirtualizationAny, byName["debian-12-amd64"].Spec.Virtualization)
	assert.Equal(t, "12", byName["debian-12-amd64"].Spec.OS.Version)
	assert.Equal(t, "24.04", byName["ubuntu-24.04-amd64"].Spec.OS.Version)
	assert.Equal(t, unikorn.VirtualizationBaremetal, byName["ubuntu-24.04-metal"].Spec.Virtualization)
	assert.Equal(t, unikorn.ArchitectureAarch64, byName["ubuntu-24.04-arm64"].Spec.Architecture)
	require.NotNil(t, byName["ubuntu-24.04-gpu-amd64"].Spec.GPU)
	assert.Equal(t, "NVIDIA", byName["ubuntu-24.04-gpu-amd64"].Spec.GPU.Vendor)

	h.call(http.MethodGet, "/api/v2/regions/"+RegionID+"/images?scope=everything", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.call(http.MethodGet, "/api/v2/regions/"+RegionID+"/images?status=broken", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.call(http.MethodGet, "/api/v2/regions/b0000000-0000-4000-8000-0000000000ff/images", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestSnapshotBecomesReadyAndListed(t *testing.T) {
	h := newHarness(t)

	gpuServer := serverCreate("trainer")
	gpuServer.Spec.FlavorID = FlavorGPUID
	gpuServer.Spec.ImageID = ImageUbuntuGPUID
	server := h.createServer(gpuServer)

	snapshotPath := "/api/v2/servers/" + server.Metadata.ID + "/snapshot"
	snapshot := unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{
		Name: "trainer-golden", Description: "trained",
		Tags: unikorn.Tags{
			{Name: "compute.unikorn-cloud.org:instance-id", Value: "i-1"},
			{Name: "images.unikorn-cloud.org:source", Value: "forged"},
			{Name: "team", Value: "ml"},
		},
	}}

	h.call(http.MethodPost, snapshotPath, snapshot).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.clock.Advance(settle)

	var image unikorn.Image

	h.call(http.MethodPost, snapshotPath, snapshot).expect(http.StatusCreated, &image)
	assert.Equal(t, unikorn.ImagePending, image.Status.State)
	assert.Equal(t, "trainer-golden", image.Metadata.Name)
	assert.Empty(t, image.Metadata.Description, "region keeps no description of an image")
	assert.Equal(t, unikorn.Tags{
		{Name: "compute.unikorn-cloud.org:instance-id", Value: "i-1"},
		{Name: "images.unikorn-cloud.org:organization-id", Value: OrganizationID},
		{Name: "images.unikorn-cloud.org:source", Value: "snapshot"},
		{Name: "team", Value: "ml"},
	}, image.Metadata.Tags)
	assert.Equal(t, 30, image.Spec.SizeGiB)
	assert.Equal(t, "ubuntu", image.Spec.OS.Distro)
	require.NotNil(t, image.Spec.GPU)

	assert.NotContains(t, imageNames(h.listImagesV1()), "trainer-golden", "not ready yet")

	owned := url.Values{"organizationID": {OrganizationID}, "scope": {"owned"}}
	pending := h.listImagesV2(owned)
	require.Len(t, pending, 1)
	assert.Equal(t, unikorn.ImagePending, pending[0].Status.State)

	h.clock.Advance(settle / 4)
	assert.Equal(t, unikorn.ImageCreating, h.listImagesV2(owned)[0].Status.State)

	h.clock.Advance(settle)
	assert.Contains(t, imageNames(h.listImagesV1()), "trainer-golden")
	assert.Equal(t, unikorn.ImageReady, h.listImagesV2(owned)[0].Status.State)

	// Without an organization only global images are listed.
	assert.NotContains(t, imageNames(h.listImagesV2(nil)), "trainer-golden")
	assert.Len(t, h.listImagesV2(nil), 5)
	assert.Len(t, h.listImagesV2(url.Values{"organizationID": {OrganizationID}}), 6)
	assert.Len(t, h.listImagesV2(url.Values{"organizationID": {OrganizationID}, "status": {"pending", "creating"}}), 0)
	assert.Empty(t, h.listImagesV2(url.Values{"organizationID": {"a0000000-0000-4000-8000-0000000000ff"}, "scope": {"owned"}}))
}

func TestImageDelete(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("source")

	var image unikorn.Image

	h.call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/snapshot", unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{Name: "copy"}}).
		expect(http.StatusCreated, &image)
	h.clock.Advance(settle)

	user := serverCreate("user")
	user.Spec.ImageID = image.Metadata.ID
	used := h.createServer(user)

	path := regionPath("/images/" + image.Metadata.ID)
	h.call(http.MethodDelete, path, nil).expectError(http.StatusConflict, unikorn.ErrorConflict)
	h.call(http.MethodDelete, regionPath("/images/"+ImageUbuntuID), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	// Through an organization the caller is not in, the image is out of reach.
	h.call(http.MethodDelete, "/api/v1/organizations/"+ForeignOrganizationID+"/regions/"+RegionID+"/images/"+image.Metadata.ID, nil).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.call(http.MethodDelete, "/api/v2/servers/"+used.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)

	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.NotContains(t, imageNames(h.listImagesV1()), "copy")
}

// Images lag as every other object: a snapshot is missing from the lists until the
// cache sees it, and a deleted image is still listed as it was, while a second delete,
// which reads the latest version, already answers 404.
func TestImagesLag(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("source")
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))

	owned := url.Values{"organizationID": {OrganizationID}, "scope": {"owned"}, "status": {"pending", "creating", "ready", "failed"}}

	var image unikorn.Image

	h.call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/snapshot", unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{Name: "copy"}}).
		expect(http.StatusCreated, &image)
	assert.NotContains(t, imageNames(h.listImagesV2(owned)), "copy", "a new image is not listed at once")

	h.clock.Advance(settle + testReadLag)
	assert.Contains(t, imageNames(h.listImagesV2(owned)), "copy")

	path := regionPath("/images/" + image.Metadata.ID)
	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	assert.Contains(t, imageNames(h.listImagesV2(owned)), "copy", "a deleted image is listed for a while")
	h.call(http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.clock.Advance(testReadLag)
	assert.NotContains(t, imageNames(h.listImagesV2(owned)), "copy")
}
