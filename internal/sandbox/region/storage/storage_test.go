package storage_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	regionstorage "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const fileStoragePath = "/api/v2/filestorage"

func getFileStorage(h *sandboxtest.Harness, id string) unikorn.FileStorage {
	h.T.Helper()

	var got unikorn.FileStorage

	h.Call(http.MethodGet, fileStoragePath+"/"+id, nil).Expect(http.StatusOK, &got)

	return got
}

// updateFileStorage sends an update and returns its answer, decoded afresh.
func updateFileStorage(h *sandboxtest.Harness, path string, update any) unikorn.FileStorage {
	h.T.Helper()

	var updated unikorn.FileStorage

	h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, &updated)

	return updated
}

// updateOf is the update that keeps everything of fs as a read shows it.
func updateOf(fs unikorn.FileStorage) unikorn.FileStorageUpdate {
	return unikorn.FileStorageUpdate{
		Metadata: fs.Metadata.WriteMetadata,
		Spec:     fs.Spec,
	}
}

// allocationOf finds the quota charge of an object.
func allocationOf(h *sandboxtest.Harness, id string) *unikorn.Allocation {
	h.T.Helper()

	for _, allocation := range h.Sandbox.Allocations() {
		if allocation.Spec.ID == id {
			return &allocation
		}
	}

	return nil
}

func TestFileStorageLifecycle(t *testing.T) {
	h := sandboxtest.New(t)

	created := h.CreateFileStorage(sandboxtest.FileStorageCreate("shared", 10, sandbox.NetworkDefaultID))
	id := created.Metadata.ID
	path := fileStoragePath + "/" + id

	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.Equal(t, &unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: true}}, &created.Spec.StorageType, "root squash is the default")
	assert.True(t, *created.Spec.DefaultSnapshotProtectionEnabled, "default protection is on unless asked off")
	assert.Equal(t, []unikorn.StorageSnapshotPolicy{}, *created.Spec.SnapshotPolicies)
	assert.Equal(t, []unikorn.StorageAttachmentStatus{{NetworkID: sandbox.NetworkDefaultID, ProvisioningStatus: unikorn.ProvisioningPending}}, created.Status.Attachments)
	assert.Nil(t, created.Status.Usage, "nothing is reported before the share is made")
	assert.Equal(t, sandbox.StorageClassStandardID, created.Status.StorageClassID)

	// The size is charged in bytes.
	allocation := allocationOf(h, id)
	require.NotNil(t, allocation)
	assert.Equal(t, regionstorage.AllocationKind, allocation.Spec.Kind)
	assert.Equal(t, []unikorn.ResourceAllocation{{Kind: "filestorage", Committed: 10 << 30}}, allocation.Spec.Allocations)

	// Provisioned before the attachment is observed: no mount source yet.
	h.Clock.Advance(time.Second)

	fs := getFileStorage(h, id)
	assert.Equal(t, unikorn.ProvisioningProvisioned, fs.Metadata.ProvisioningStatus)
	require.NotNil(t, fs.Status.Usage)
	assert.Equal(t, int64(10<<30), fs.Status.Usage.CapacityBytes)
	assert.Equal(t, int64(0), *fs.Status.Usage.UsedBytes)
	assert.Equal(t, unikorn.ProvisioningPending, fs.Status.Attachments[0].ProvisioningStatus)
	assert.Empty(t, fs.Status.Attachments[0].MountSource)

	h.Clock.Advance(time.Second)

	fs = getFileStorage(h, id)
	attachment := fs.Status.Attachments[0]
	assert.Equal(t, unikorn.ProvisioningProvisioned, attachment.ProvisioningStatus)
	assert.Equal(t, "10.0.0.16:/volumes/_nogroup/"+id, attachment.MountSource, "the start of the storage range of a /25 less a /28")
	assert.Equal(t, map[string]string{"remoteports": "10.0.0.16-10.0.0.19"}, attachment.MountOptions, "four addresses, the class's parallelism")

	// Grow it and attach another network: the allocation follows, the new attachment
	// waits to be observed while the old keeps its mount.
	update := updateOf(fs)
	update.Spec.SizeGiB = 20
	update.Spec.Attachments = &unikorn.StorageAttachments{NetworkIDs: []string{sandbox.NetworkDefaultID, sandbox.NetworkSecondaryID}}
	fs = updateFileStorage(h, path, update)

	assert.Equal(t, int64(20), fs.Spec.SizeGiB)
	assert.Equal(t, int64(10<<30), fs.Status.Usage.CapacityBytes, "the back end has not grown the share yet")
	assert.Equal(t, 20<<30, allocationOf(h, id).Spec.Allocations[0].Committed)
	require.Len(t, fs.Status.Attachments, 2)
	assert.Equal(t, attachment, fs.Status.Attachments[0])
	assert.Equal(t, unikorn.ProvisioningPending, fs.Status.Attachments[1].ProvisioningStatus)

	h.Clock.Advance(sandboxtest.Settle)

	fs = getFileStorage(h, id)
	assert.Equal(t, int64(20<<30), fs.Status.Usage.CapacityBytes)
	assert.Equal(t, "10.1.0.16:/volumes/_nogroup/"+id, fs.Status.Attachments[1].MountSource)

	// Omitted attachments detach everything; the network is in use until the back end
	// has removed the export.
	update = updateOf(fs)
	update.Spec.Attachments = nil
	fs = updateFileStorage(h, path, update)
	assert.Empty(t, fs.Spec.Attachments.NetworkIDs)
	assert.Equal(t, []unikorn.StorageAttachmentStatus{
		{NetworkID: sandbox.NetworkDefaultID, ProvisioningStatus: unikorn.ProvisioningDeprovisioning},
		{NetworkID: sandbox.NetworkSecondaryID, ProvisioningStatus: unikorn.ProvisioningDeprovisioning},
	}, fs.Status.Attachments)

	h.Call(http.MethodDelete, "/api/v2/networks/"+sandbox.NetworkSecondaryID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.Clock.Advance(sandboxtest.Settle)
	assert.Empty(t, getFileStorage(h, id).Status.Attachments)

	// Delete: deprovisioning, then gone with its allocation.
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, getFileStorage(h, id).Metadata.ProvisioningStatus)
	h.Call(http.MethodPut, path, update).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Nil(t, allocationOf(h, id), "the finalizer releases the quota")
	assert.Empty(t, h.Sandbox.FileStorage())
}

func TestFileStorageCreateIsRefusedAsRegionRefusesIt(t *testing.T) {
	h := sandboxtest.New(t)

	// A network without a storage range: the provider's carve-out takes it all.
	noRange := sandboxtest.NetworkCreate("no-storage", "10.30.0.0/24")
	whole := 25
	noRange.Spec.Reservations = &unikorn.NetworkReservations{PrefixLength: 25, ProviderReservedPrefixLength: &whole}

	var bare unikorn.Network

	h.Call(http.MethodPost, "/api/v2/networks", noRange).Expect(http.StatusCreated, &bare)

	h.Clock.Advance(sandboxtest.Settle)

	pending := h.CreateNetwork("pending", "10.31.0.0/24")

	policy := func(name string) unikorn.StorageSnapshotPolicy {
		return unikorn.StorageSnapshotPolicy{
			Name:      name,
			Schedule:  unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotDaily, TimeOfDay: "01:00Z"},
			Retention: unikorn.StorageRetention{Keep: 3},
		}
	}

	for name, tc := range map[string]struct {
		mutate func(*unikorn.FileStorageCreate)
		status int
		says   string
	}{
		"no size":                       {func(c *unikorn.FileStorageCreate) { c.Spec.SizeGiB = 0 }, http.StatusUnprocessableEntity, "size must be greater"},
		"unknown region":                {func(c *unikorn.FileStorageCreate) { c.Spec.RegionID = "b0000000-0000-4000-8000-0000000000ff" }, http.StatusUnprocessableEntity, "region does not exist"},
		"region not a UUID":             {func(c *unikorn.FileStorageCreate) { c.Spec.RegionID = "sandbox-1" }, http.StatusBadRequest, "uuid"},
		"unknown class":                 {func(c *unikorn.FileStorageCreate) { c.Spec.StorageClassID = "fc000000-0000-4000-8000-0000000000ff" }, http.StatusUnprocessableEntity, "storage class not found"},
		"another region's class":        {func(c *unikorn.FileStorageCreate) { c.Spec.StorageClassID = sandbox.StorageClassRemoteID }, http.StatusUnprocessableEntity, "not available in region"},
		"another organization's class":  {func(c *unikorn.FileStorageCreate) { c.Spec.StorageClassID = sandbox.StorageClassForeignID }, http.StatusForbidden, regionstorage.RBACStorageClasses},
		"unknown network":               {func(c *unikorn.FileStorageCreate) { c.Spec.Attachments.NetworkIDs = []string{missingNetworkID} }, http.StatusUnprocessableEntity, "network not found"},
		"network ID not a UUID":         {func(c *unikorn.FileStorageCreate) { c.Spec.Attachments.NetworkIDs = []string{"default"} }, http.StatusUnprocessableEntity, "invalid network ID"},
		"network of another project":    {func(c *unikorn.FileStorageCreate) { c.Spec.Attachments.NetworkIDs = []string{sandbox.NetworkOtherID} }, http.StatusUnprocessableEntity, "not available in project"},
		"network not provisioned":       {func(c *unikorn.FileStorageCreate) { c.Spec.Attachments.NetworkIDs = []string{pending.Metadata.ID} }, http.StatusUnprocessableEntity, "not provisioned"},
		"network without storage range": {func(c *unikorn.FileStorageCreate) { c.Spec.Attachments.NetworkIDs = []string{bare.Metadata.ID} }, http.StatusUnprocessableEntity, "storage range"},
		"reserved policy name": {func(c *unikorn.FileStorageCreate) {
			c.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{policy(regionstorage.SystemDefaultPolicy)}
		}, http.StatusUnprocessableEntity, "reserved"},
		"duplicate policy names": {func(c *unikorn.FileStorageCreate) {
			c.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{policy("daily"), policy("daily")}
		}, http.StatusUnprocessableEntity, "unique"},
		"policy name too long": {func(c *unikorn.FileStorageCreate) {
			c.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{policy("a-very-long-policy-name")}
		}, http.StatusBadRequest, "maximum string length"},
		"five policies": {func(c *unikorn.FileStorageCreate) {
			c.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{policy("a"), policy("b"), policy("c"), policy("d"), policy("e")}
		}, http.StatusBadRequest, "maximum number of items"},
		"unknown project":      {func(c *unikorn.FileStorageCreate) { c.Spec.ProjectID = "a0000000-0000-4000-8000-0000000000ff" }, http.StatusNotFound, ""},
		"foreign organization": {func(c *unikorn.FileStorageCreate) { c.Spec.OrganizationID = sandbox.ForeignOrganizationID }, http.StatusForbidden, ""},
		"over quota": {func(c *unikorn.FileStorageCreate) { c.Spec.SizeGiB = 1025 }, http.StatusForbidden,
			"total filestorage allocation of 1100585369600 would exceed quota limit of 1099511627776"},
	} {
		t.Run(name, func(t *testing.T) {
			create := sandboxtest.FileStorageCreate("refused", 1, sandbox.NetworkDefaultID)
			tc.mutate(&create)

			// As the project user: another organization and its classes are refused.
			r := h.CallAs(sandbox.DefaultToken, http.MethodPost, fileStoragePath, create)
			require.Equal(t, tc.status, r.Status, "body: %s", r.Body)
			assert.Contains(t, string(r.Body), tc.says)
		})
	}

	for name, body := range map[string]string{
		"null default protection": `"storageType": {}, "defaultSnapshotProtectionEnabled": null`,
		"null policies":           `"storageType": {}, "snapshotPolicies": null`,
		"no storage type":         `"attachments": {"networkIds": []}`,
		"NFS without root squash": `"storageType": {"NFS": {}}`,
	} {
		t.Run(name, func(t *testing.T) {
			raw := `{"metadata": {"name": "refused"}, "spec": {"organizationId": "` + sandbox.OrganizationID + `", "projectId": "` + sandbox.ProjectID +
				`", "regionId": "` + sandbox.RegionID + `", "storageClassId": "` + sandbox.StorageClassStandardID + `", "sizeGiB": 1, ` + body + `}}`
			h.Call(http.MethodPost, fileStoragePath, raw).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}

	assert.Empty(t, h.Sandbox.FileStorage(), "nothing refused was stored")

	for _, allocation := range h.Sandbox.Allocations() {
		assert.NotEqual(t, regionstorage.AllocationKind, allocation.Spec.Kind, "nothing refused was charged")
	}
}

// missingNetworkID is a well-formed network ID that names nothing.
const missingNetworkID = "c0000000-0000-4000-8000-0000000000ff"

func TestFileStorageUpdateRegeneratesTheSpec(t *testing.T) {
	h := sandboxtest.New(t)

	off := false
	create := sandboxtest.FileStorageCreate("traps", 5)
	create.Spec.StorageType = unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: false}}
	create.Spec.DefaultSnapshotProtectionEnabled = &off
	create.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{{
		Name: "nightly", Schedule: unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotDaily, TimeOfDay: "02:00Z"},
		Retention: unikorn.StorageRetention{Keep: 7},
	}}

	fs := h.CreateFileStorage(create)
	path := fileStoragePath + "/" + fs.Metadata.ID

	assert.False(t, fs.Spec.StorageType.NFS.RootSquash)
	assert.False(t, *fs.Spec.DefaultSnapshotProtectionEnabled)
	assert.Equal(t, []unikorn.StorageSnapshotPolicyStatus{{Name: "nightly", ProvisioningStatus: unikorn.ProvisioningPending}}, fs.Status.SnapshotPolicies)

	h.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, unikorn.ProvisioningProvisioned, getFileStorage(h, fs.Metadata.ID).Status.SnapshotPolicies[0].ProvisioningStatus)

	// A spec with only what is required: no NFS turns root squash back on, while the
	// omitted policies and protection are kept.
	bare := unikorn.FileStorageUpdate{Metadata: unikorn.WriteMetadata{Name: "traps"}, Spec: unikorn.FileStorageSpec{SizeGiB: 5}}
	fs = updateFileStorage(h, path, bare)
	assert.True(t, fs.Spec.StorageType.NFS.RootSquash)
	assert.False(t, *fs.Spec.DefaultSnapshotProtectionEnabled)
	require.Len(t, *fs.Spec.SnapshotPolicies, 1)
	assert.Equal(t, unikorn.ProvisioningProvisioned, fs.Status.SnapshotPolicies[0].ProvisioningStatus, "an unchanged policy keeps its status")
	assert.Empty(t, fs.Metadata.Tags, "metadata is replaced")

	// A changed policy is observed anew; an empty list clears them.
	changed := (*fs.Spec.SnapshotPolicies)[0]
	changed.Retention.Keep = 14
	bare.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{changed}
	fs = updateFileStorage(h, path, bare)
	assert.Equal(t, unikorn.ProvisioningPending, fs.Status.SnapshotPolicies[0].ProvisioningStatus)

	bare.Spec.SnapshotPolicies = &[]unikorn.StorageSnapshotPolicy{}
	fs = updateFileStorage(h, path, bare)
	assert.Empty(t, *fs.Spec.SnapshotPolicies)
	assert.Empty(t, fs.Status.SnapshotPolicies)

	// Shrinking is not refused, and the charge follows; region has no guard.
	bare.Spec.SizeGiB = 1
	fs = updateFileStorage(h, path, bare)
	assert.Equal(t, 1<<30, allocationOf(h, fs.Metadata.ID).Spec.Allocations[0].Committed)

	// Growing past the quota is refused and changes nothing.
	bare.Spec.SizeGiB = 2048
	h.Call(http.MethodPut, path, bare).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, int64(1), getFileStorage(h, fs.Metadata.ID).Spec.SizeGiB)
	assert.Equal(t, 1<<30, allocationOf(h, fs.Metadata.ID).Spec.Allocations[0].Committed)

	h.Call(http.MethodPut, path, `{"metadata": {"name": "traps"}, "spec": {"sizeGiB": 1, "storageType": {}, "defaultSnapshotProtectionEnabled": null}}`).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// Attachments are checked against the storage's project.
	bare.Spec.SizeGiB = 1
	bare.Spec.Attachments = &unikorn.StorageAttachments{NetworkIDs: []string{sandbox.NetworkOtherID}}
	h.Call(http.MethodPut, path, bare).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
}

func TestFileStorageVisibility(t *testing.T) {
	h := sandboxtest.New(t)

	fs := h.CreateFileStorage(sandboxtest.FileStorageCreate("mine", 1))
	other := sandboxtest.FileStorageCreate("other", 1)
	other.Spec.ProjectID = sandbox.OtherProjectID
	h.CreateFileStorage(other)

	ids := func(token string, query url.Values) []string {
		return sandboxtest.Listed(h, token, fileStoragePath+"?"+query.Encode(), func(fs unikorn.FileStorage) string { return fs.Metadata.Name })
	}

	assert.ElementsMatch(t, []string{"mine", "other"}, ids(sandbox.DefaultToken, nil))
	assert.Equal(t, []string{"mine"}, ids(sandbox.DefaultToken, url.Values{"projectID": {sandbox.ProjectID}}))
	assert.Equal(t, []string{"mine"}, ids(sandbox.DefaultToken, url.Values{"projectID": {sandbox.ProjectID}, "tag": {"tier=web"}, "regionID": {sandbox.RegionID}}))
	assert.Empty(t, ids(sandbox.DefaultToken, url.Values{"tag": {"tier=db"}}))
	assert.Empty(t, ids(sandbox.ForeignToken, nil), "another organization's storage is not listed")

	h.CallAs(sandbox.ForeignToken, http.MethodGet, fileStoragePath+"/"+fs.Metadata.ID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	classes := func(token string, query url.Values) []string {
		return sandboxtest.Listed(h, token, "/api/v2/filestorageclasses?"+query.Encode(), func(c unikorn.StorageClass) string { return c.Metadata.Name })
	}

	assert.Equal(t, []string{"sim-nfs-standard", "sim-nfs-legacy", "sandbox-dedicated", "remote-nfs"}, classes(sandbox.DefaultToken, nil))
	assert.Equal(t, []string{"sim-nfs-standard", "sim-nfs-legacy", "foreign-dedicated", "remote-nfs"}, classes(sandbox.ForeignToken, nil))
	assert.Equal(t, []string{"remote-nfs"}, classes(sandbox.DefaultToken, url.Values{"regionID": {sandbox.RemoteRegionID}}))

	show := true
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ShowInvisible: &show}))
	assert.Len(t, classes(sandbox.DefaultToken, nil), regionstorage.Classes, "without visibility every class is listed")
}

func TestFileStorageUsageAndState(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	withState := func(o *sandbox.Options) { o.StatePath = statePath }

	first := sandboxtest.New(t, withState)
	fs := first.CreateFileStorage(sandboxtest.FileStorageCreate("kept", 3, sandbox.NetworkDefaultID))

	require.Error(t, first.Sandbox.SetFileStorageUsage(fs.Metadata.ID, sandbox.FileStorageUsage{UsedBytes: 1}), "nothing is reported before the share is made")

	first.Clock.Advance(time.Second)
	require.NoError(t, first.Sandbox.SetFileStorageUsage(fs.Metadata.ID, sandbox.FileStorageUsage{UsedBytes: 1 << 20}))

	before := getFileStorage(first, fs.Metadata.ID)
	assert.Equal(t, int64(1<<20), *before.Status.Usage.UsedBytes)
	require.NoError(t, first.Sandbox.Close())

	second := sandboxtest.New(t, withState)
	second.Clock.Set(first.Clock.Now())

	assert.Equal(t, before, getFileStorage(second, fs.Metadata.ID))

	// The attachment still in flight carries on where it was.
	second.Clock.Advance(time.Second)
	assert.True(t, strings.HasPrefix(getFileStorage(second, fs.Metadata.ID).Status.Attachments[0].MountSource, "10.0.0.16:"))
}

func TestFileStorageReadsLag(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(1))

	created := h.CreateFileStorage(sandboxtest.FileStorageCreate("lagging", 1))
	id := created.Metadata.ID
	path := fileStoragePath + "/" + id

	// On this seed the cache has not seen the new storage: a GET misses it, and so
	// does a list, and so do an update and a delete, which read through the cache.
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Empty(t, sandboxtest.Listed(h, sandbox.DefaultToken, fileStoragePath, func(fs unikorn.FileStorage) string { return fs.Metadata.ID }))
	h.Call(http.MethodPut, path, updateOf(created)).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// A network the cache has not seen cannot be attached.
	network := h.CreateNetwork("fresh", "10.40.0.0/24")
	h.Call(http.MethodPost, fileStoragePath, sandboxtest.FileStorageCreate("attached", 1, network.Metadata.ID)).
		ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)

	// Past the lag the storage is seen, and its status changes as the back end reports:
	// while the cache trails that, an update's patch conflicts, and nothing changes. (On
	// this seed the cache still trails the provisioning, which fell due a second
	// before, when the storage is read.)
	h.Clock.Advance(sandboxtest.Settle)

	fs := getFileStorage(h, id)
	update := updateOf(fs)
	update.Spec.SizeGiB = 2
	h.Call(http.MethodPut, path, update).ExpectError(http.StatusInternalServerError, unikorn.ErrorServerError)
	assert.Equal(t, 1<<30, allocationOf(h, id).Spec.Allocations[0].Committed, "the charge was moved back")

	h.Clock.Advance(sandboxtest.ReadLag + time.Millisecond)
	h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, nil)
	assert.Equal(t, 2<<30, allocationOf(h, id).Spec.Allocations[0].Committed)

	// An update shows, for a while, the version before it.
	assert.Equal(t, int64(1), getFileStorage(h, id).Spec.SizeGiB)

	h.Clock.Advance(sandboxtest.ReadLag + time.Millisecond)
	assert.Equal(t, int64(2), getFileStorage(h, id).Spec.SizeGiB)
}
