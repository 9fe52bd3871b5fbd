package volumes_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/volumes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const volumesPath = "/api/v2/volumes"

func volumeCreate(name, networkID, classID string, sizeGiB int64) unikorn.VolumeCreate {
	return unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Tags: unikorn.Tags{{Name: "tier", Value: "data"}}},
		Spec:     unikorn.VolumeSpec{NetworkID: networkID, VolumeClassID: classID, SizeGiB: sizeGiB},
	}
}

// createVolume makes a volume as the fixture project user, who may.
func createVolume(h *sandboxtest.Harness, name string, sizeGiB int64) unikorn.Volume {
	h.T.Helper()

	var volume unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodPost, volumesPath, volumeCreate(name, sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID, sizeGiB)).
		Expect(http.StatusAccepted, &volume)

	return volume
}

func getVolume(h *sandboxtest.Harness, id string) unikorn.Volume {
	h.T.Helper()

	var volume unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodGet, volumesPath+"/"+id, nil).Expect(http.StatusOK, &volume)

	return volume
}

func allocationOf(h *sandboxtest.Harness, id string) *unikorn.Allocation {
	h.T.Helper()

	for _, allocation := range h.Sandbox.Allocations() {
		if allocation.Spec.ID == id {
			return &allocation
		}
	}

	return nil
}

func TestVolumeLifecycle(t *testing.T) {
	h := sandboxtest.New(t)

	created := createVolume(h, "data", 20)
	id := created.Metadata.ID
	path := volumesPath + "/" + id

	// Region answers the create before it has made anything: pending, and no size
	// observed; the scope is the network's.
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.Equal(t, sandbox.ProjectID, created.Metadata.ProjectID)
	assert.Equal(t, sandbox.OrganizationID, created.Metadata.OrganizationID)
	assert.Equal(t, sandbox.RegionID, created.Status.RegionID)
	assert.Nil(t, created.Status.SizeGiB)
	assert.Nil(t, created.Status.AttachedAt)

	// The size is charged in GiB to the volume quota.
	allocation := allocationOf(h, id)
	require.NotNil(t, allocation)
	assert.Equal(t, volumes.AllocationKind, allocation.Spec.Kind)
	assert.Equal(t, []unikorn.ResourceAllocation{{Kind: "volume", Committed: 20}}, allocation.Spec.Allocations)

	h.Clock.Advance(sandboxtest.Settle)

	volume := getVolume(h, id)
	assert.Equal(t, unikorn.ProvisioningProvisioned, volume.Metadata.ProvisioningStatus)
	require.NotNil(t, volume.Status.SizeGiB)
	assert.Equal(t, int64(20), *volume.Status.SizeGiB)

	// An update replaces the metadata alone and answers 200 with the volume.
	var updated unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodPut, path, unikorn.VolumeUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}}).
		Expect(http.StatusOK, &updated)
	assert.Equal(t, "renamed", updated.Metadata.Name)
	assert.Empty(t, updated.Metadata.Tags)
	assert.Equal(t, volume.Spec, updated.Spec)

	h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	assert.NotNil(t, allocationOf(h, id), "the allocation is released only once the volume is gone")

	var deleting unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodGet, path, nil).Expect(http.StatusOK, &deleting)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, deleting.Metadata.ProvisioningStatus)

	h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodPut, path, unikorn.VolumeUpdate{Metadata: unikorn.WriteMetadata{Name: "late"}}).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(sandboxtest.Settle)

	h.CallAs(sandbox.DefaultToken, http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Nil(t, allocationOf(h, id))
}

func TestVolumeCreateChecksClassAndSizeAgainstTheNetworksRegion(t *testing.T) {
	h := sandboxtest.New(t)

	for _, tc := range []struct {
		name, networkID, classID string
		sizeGiB                  int64
		status                   int
		code, description        string
	}{
		{"class of another region", sandbox.NetworkDefaultID, sandbox.VolumeClassPrivateID, 10, http.StatusUnprocessableEntity,
			unikorn.ErrorUnprocessableContent, "volumeClassId is not available in the Network's Region"},
		{"unknown class", sandbox.NetworkDefaultID, "nvme-ultra", 10, http.StatusUnprocessableEntity,
			unikorn.ErrorUnprocessableContent, "volumeClassId is not available in the Network's Region"},
		{"below the minimum", sandbox.NetworkDefaultID, sandbox.VolumeClassFastID, 9, http.StatusUnprocessableEntity,
			unikorn.ErrorUnprocessableContent, "sizeGiB is below the VolumeClass minimum"},
		{"above the maximum", sandbox.NetworkDefaultID, sandbox.VolumeClassFastID, 2049, http.StatusUnprocessableEntity,
			unikorn.ErrorUnprocessableContent, "sizeGiB exceeds the VolumeClass maximum"},
		{"no network", "c0000000-0000-4000-8000-0000000000ff", sandbox.VolumeClassStandardID, 10, http.StatusNotFound,
			unikorn.ErrorNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := h.CallAs(sandbox.DefaultToken, http.MethodPost, volumesPath, volumeCreate("v", tc.networkID, tc.classID, tc.sizeGiB)).
				ExpectError(tc.status, tc.code)
			if tc.description != "" {
				assert.Equal(t, tc.description, body.ErrorDescription)
			}
		})
	}

	// A size below 1 fails the schema before anything is read.
	h.CallAs(sandbox.DefaultToken, http.MethodPost, volumesPath, volumeCreate("v", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID, 0)).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// Nothing was made, nothing charged.
	assert.Empty(t, sandboxtest.Listed[unikorn.Volume](h, sandbox.DefaultToken, volumesPath, func(v unikorn.Volume) string { return v.Metadata.ID }))

	for _, allocation := range h.Sandbox.Allocations() {
		assert.NotEqual(t, volumes.AllocationKind, allocation.Spec.Kind)
	}
}

func TestVolumeQuotaIsOffUnlessAQuotaNamesIt(t *testing.T) {
	h := sandboxtest.New(t)

	createVolume(h, "big", 16384)

	limited := sandboxtest.New(t, func(o *sandbox.Options) { o.Quotas = map[string]int{"volume": 30} })

	createVolume(limited, "first", 20)

	body := limited.CallAs(sandbox.DefaultToken, http.MethodPost, volumesPath, volumeCreate("second", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID, 11)).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total volume allocation of 31 would exceed quota limit of 30", body.ErrorDescription)

	quota := limited.Quota("volume")
	assert.Equal(t, 30, quota.Quantity)
	assert.Equal(t, 20, quota.Used)
	assert.Len(t, sandboxtest.Listed[unikorn.Volume](limited, sandbox.DefaultToken, volumesPath, func(v unikorn.Volume) string { return v.Metadata.ID }), 1)
}

func TestVolumesByRoleAndProject(t *testing.T) {
	h := sandboxtest.New(t)

	volume := createVolume(h, "data", 10)
	path := volumesPath + "/" + volume.Metadata.ID

	// An auditor reads the organization's volumes; only the chart's writers make them.
	{
		token := h.TokenWithRole(sandbox.AuditorRoleID)

		h.CallAs(token, http.MethodGet, path, nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodPost, volumesPath, volumeCreate("v", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID, 1)).
			ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
		h.CallAs(token, http.MethodDelete, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	}

	// Another organization's user is refused, not told the volume is missing, and its
	// lists leave it out.
	h.CallAs(sandbox.ForeignToken, http.MethodGet, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Empty(t, sandboxtest.Listed[unikorn.Volume](h, sandbox.ForeignToken, volumesPath, func(v unikorn.Volume) string { return v.Metadata.ID }))
	assert.Equal(t, []string{volume.Metadata.ID},
		sandboxtest.Listed[unikorn.Volume](h, sandbox.DefaultToken, volumesPath+"?networkID="+sandbox.NetworkDefaultID, func(v unikorn.Volume) string { return v.Metadata.ID }))
	assert.Empty(t, sandboxtest.Listed[unikorn.Volume](h, sandbox.DefaultToken, volumesPath+"?networkID="+sandbox.NetworkSecondaryID, func(v unikorn.Volume) string { return v.Metadata.ID }))
}

func TestVolumesAreListedByNameThenID(t *testing.T) {
	h := sandboxtest.New(t)

	b := createVolume(h, "b", 1)
	a1 := createVolume(h, "a", 1)
	a2 := createVolume(h, "a", 1)

	first, second := a1.Metadata.ID, a2.Metadata.ID
	if second < first {
		first, second = second, first
	}

	assert.Equal(t, []string{first, second, b.Metadata.ID},
		sandboxtest.Listed[unikorn.Volume](h, sandbox.DefaultToken, volumesPath, func(v unikorn.Volume) string { return v.Metadata.ID }))
}

func TestVolumeUpdateConflictsWithAVersionTheCacheHasNotCaughtUpWith(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(7))

	volume := createVolume(h, "data", 1)
	path := volumesPath + "/" + volume.Metadata.ID

	// A volume the cache has not seen yet is not found, to a read or an update.
	h.CallAs(sandbox.DefaultToken, http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Clock.Advance(sandboxtest.ReadLag + sandboxtest.Settle)
	getVolume(h, volume.Metadata.ID)
	h.Clock.Advance(sandboxtest.ReadLag)

	rename := func(name string) *sandboxtest.Response {
		return h.CallAs(sandbox.DefaultToken, http.MethodPut, path, unikorn.VolumeUpdate{Metadata: unikorn.WriteMetadata{Name: name}})
	}

	rename("one").Expect(http.StatusOK, nil)

	// The optimistic lock holds the version the handler's cache read, which trails
	// the write: a second update at once conflicts, and goes through once it caught up.
	rename("two").ExpectError(http.StatusConflict, unikorn.ErrorConflict)

	h.Clock.Advance(sandboxtest.ReadLag)
	rename("two").Expect(http.StatusOK, nil)
}
