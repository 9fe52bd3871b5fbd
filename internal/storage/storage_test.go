package storage_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// testReadLag is the sandbox's read lag and the façade's belief of it.
const testReadLag = 150 * time.Millisecond

// env is a file storage façade over a fresh sandbox that serves reads from a cache
// that trails writes, as the fixture project's user.
type env struct {
	world   *cloudtest.World
	url     string
	sandbox *sandbox.Sandbox
	service *storage.Service
	// loser loses the answers the test says to lose, as a gateway does.
	loser *cloudtest.Loser
}

func newEnv(t *testing.T) *env {
	t.Helper()

	l := &cloudtest.Loser{Gateway: true}
	world := cloudtest.Start(t, cloudtest.Config{ReadLag: testReadLag, Seed: 3, Transport: l})

	return &env{world: world, url: world.URL, sandbox: world.Sandbox, service: storage.NewService(world.Session), loser: l}
}

var placement = storage.Placement{
	OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID,
	RegionID: sandbox.RegionID, ClassID: sandbox.StorageClassStandardID,
}

func desired(name string, sizeGiB int64, networkIDs ...string) storage.Desired {
	return storage.Desired{
		Metadata: cloud.WriteMetadata{Name: name}, SizeGiB: sizeGiB, RootSquash: true, NetworkIDs: networkIDs,
	}
}

// mountOf is the mount source of the storage on a network, "" when it has none.
func mountOf(fs *storage.FileStorage, networkID string) string {
	for _, attachment := range fs.Attachments {
		if attachment.NetworkID == networkID {
			return attachment.MountSource
		}
	}

	return ""
}

func (e *env) allocation(t *testing.T, storageID string) *unikorn.Allocation {
	t.Helper()

	for _, allocation := range e.sandbox.Allocations() {
		if allocation.Spec.ID == storageID {
			return &allocation
		}
	}

	return nil
}

func TestLifeWaitsForEveryMountAndEveryDetach(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	fs, err := e.service.Create(ctx, placement, desired("shared", 2, sandbox.NetworkDefaultID))
	require.NoError(t, err)

	id := fs.Metadata.ID
	assert.Equal(t, unikorn.ProvisioningProvisioned, fs.Metadata.ProvisioningStatus)
	assert.Equal(t, "10.0.0.16:/volumes/_nogroup/"+id, mountOf(fs, sandbox.NetworkDefaultID), "waited for the mount, not just provisioned")
	assert.Equal(t, 2<<30, e.allocation(t, id).Spec.Allocations[0].Committed)

	// Grown and attached to another network: both wait.
	grown := desired("shared", 3, sandbox.NetworkDefaultID, sandbox.NetworkSecondaryID)
	fs, err = e.service.Update(ctx, id, grown)
	require.NoError(t, err)
	assert.Equal(t, int64(3<<30), fs.Usage.CapacityBytes, "the back end reports the new size")
	assert.NotEmpty(t, mountOf(fs, sandbox.NetworkSecondaryID))

	// Detached: the wait lasts until the network has left the status.
	fs, err = e.service.Update(ctx, id, desired("shared", 3, sandbox.NetworkSecondaryID))
	require.NoError(t, err)
	require.Len(t, fs.Attachments, 1)
	assert.Equal(t, sandbox.NetworkSecondaryID, fs.Attachments[0].NetworkID)

	require.NoError(t, e.service.Delete(ctx, id, time.Time{}))
	assert.Empty(t, e.sandbox.FileStorage(), "gone for real, not only from a lagging read")
	assert.Nil(t, e.allocation(t, id), "the quota is released")

	read, err := e.service.Read(ctx, id)
	require.NoError(t, err)
	assert.Nil(t, read, "a 404 that outlasts the read lag is definite")
}

func TestSnapshotSettingsLeftOutAreKept(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	off := false
	want := desired("policies", 1)
	want.DefaultProtection = &off
	want.SnapshotPolicies = &[]storage.SnapshotPolicy{{
		Name: "nightly", Schedule: storage.SnapshotSchedule{Interval: storage.Daily, TimeOfDay: "01:00Z"},
		Keep: 5,
	}}

	fs, err := e.service.Create(ctx, placement, want)
	require.NoError(t, err)

	// An update that says nothing of them keeps them.
	fs, err = e.service.Update(ctx, fs.Metadata.ID, desired("policies", 1))
	require.NoError(t, err)
	assert.Len(t, fs.SnapshotPolicies, 1)
	assert.False(t, *fs.DefaultProtection)

	// An empty list clears them.
	cleared := desired("policies", 1)
	cleared.SnapshotPolicies = &[]storage.SnapshotPolicy{}
	fs, err = e.service.Update(ctx, fs.Metadata.ID, cleared)
	require.NoError(t, err)
	assert.Empty(t, fs.SnapshotPolicies)
}

func TestALostCreateIsAdoptedNotSentAgain(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	e.loser.Lose(http.MethodPost, "/api/v2/filestorage", 1)

	fs, err := e.service.Create(t.Context(), placement, desired("adopted", 1, sandbox.NetworkDefaultID))
	require.NoError(t, err)
	assert.NotEmpty(t, mountOf(fs, sandbox.NetworkDefaultID))

	all := e.sandbox.FileStorage()
	require.Len(t, all, 1, "exactly one storage")
	assert.Equal(t, all[0].Metadata.ID, fs.Metadata.ID)
	assert.Equal(t, 1, e.sandbox.Stats().Routes["POST /api/v2/filestorage"], "the create was sent once")
}

func TestALostUpdateIsReadBack(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	fs, err := e.service.Create(ctx, placement, desired("lost-update", 1))
	require.NoError(t, err)

	// Every attempt's answer is lost, though each took effect.
	e.loser.Lose(http.MethodPut, "/api/v2/filestorage/", 3)

	fs, err = e.service.Update(ctx, fs.Metadata.ID, desired("lost-update", 2, sandbox.NetworkDefaultID))
	require.NoError(t, err)
	assert.Equal(t, int64(2), fs.SizeGiB)
	assert.NotEmpty(t, mountOf(fs, sandbox.NetworkDefaultID))
}

func TestQuotaRefusalsNameTheFilestorageQuota(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	_, err := e.service.Create(ctx, placement, desired("huge", 2048))

	var quota *storage.QuotaError
	require.ErrorAs(t, err, &quota)
	assert.Empty(t, quota.ID)
	assert.Contains(t, err.Error(), "`filestorage` quota does not hold 2048 GiB")
	assert.Empty(t, e.sandbox.FileStorage(), "nothing was created")

	fs, err := e.service.Create(ctx, placement, desired("small", 1))
	require.NoError(t, err)

	_, err = e.service.Update(ctx, fs.Metadata.ID, desired("small", 2048))
	require.ErrorAs(t, err, &quota)
	assert.Equal(t, fs.Metadata.ID, quota.ID)
	assert.Equal(t, 1<<30, e.allocation(t, fs.Metadata.ID).Spec.Allocations[0].Committed, "the charge is unchanged")
}

func TestChecksFindWhatRegionWouldRefuse(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	problems, err := e.service.CheckAttachments(ctx, sandbox.ProjectID, []string{
		sandbox.NetworkDefaultID, sandbox.NetworkOtherID, "c0000000-0000-4000-8000-0000000000ff",
	})
	require.NoError(t, err)
	require.Len(t, problems, 2)
	assert.Equal(t, sandbox.NetworkOtherID, problems[0].NetworkID)
	assert.Equal(t, "Network of another project", problems[0].Summary)
	assert.Equal(t, "Network not found", problems[1].Summary)

	problem, err := e.service.CheckClass(ctx, sandbox.RegionID, sandbox.StorageClassStandardID)
	require.NoError(t, err)
	assert.Nil(t, problem)

	problem, err = e.service.CheckClass(ctx, sandbox.RegionID, sandbox.StorageClassRemoteID)
	require.NoError(t, err)
	require.NotNil(t, problem)
	assert.Equal(t, "Storage class of another region", problem.Summary)
	assert.Contains(t, problem.Remedy, "sim-nfs-standard ("+sandbox.StorageClassStandardID+")")

	problem, err = e.service.CheckClass(ctx, sandbox.RegionID, sandbox.StorageClassForeignID)
	require.NoError(t, err)
	require.NotNil(t, problem, "another organization's class is not visible")
	assert.Equal(t, "Storage class not found", problem.Summary)
}

func TestFindByIDAndByName(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	fs, err := e.service.Create(ctx, placement, desired("findable", 1))
	require.NoError(t, err)

	byName, err := e.service.Find(ctx, storage.Selector{Name: "findable", OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID})
	require.NoError(t, err)
	assert.Equal(t, fs.Metadata.ID, byName.Metadata.ID)

	_, err = e.service.Create(ctx, placement, desired("findable", 1))
	require.NoError(t, err)

	_, err = e.service.Find(ctx, storage.Selector{Name: "findable", OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID})

	var lookup *cloud.LookupError
	require.ErrorAs(t, err, &lookup)
	assert.Len(t, lookup.Matches, 2, "a name two carry says nothing")

	_, err = e.service.Find(ctx, storage.Selector{ID: "fd000000-0000-4000-8000-000000000000"})
	require.ErrorAs(t, err, &lookup)
}

func TestAReadRightAfterCreateIsNotTakenForGone(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	// Made behind the façade's back, then read at once, within the lag.
	client := e.world.NewClient(t, sandbox.DefaultToken, nil)

	made, err := client.CreateFileStorage(context.Background(), unikorn.FileStorageCreate{
		Metadata: unikorn.WriteMetadata{Name: "fresh"},
		Spec: unikorn.FileStorageCreateSpec{
			FileStorageSpec: unikorn.FileStorageSpec{SizeGiB: 1},
			OrganizationID:  sandbox.OrganizationID, ProjectID: sandbox.ProjectID,
			RegionID: sandbox.RegionID, StorageClassID: sandbox.StorageClassStandardID,
		},
	})
	require.NoError(t, err)

	read, err := e.service.Read(t.Context(), made.Metadata.ID)
	require.NoError(t, err)
	require.NotNil(t, read, "a 404 within the read lag is the cache, not a deletion")
}

// Region patches the version its cache holds: right after the back end reported a
// change, the cache trails it and the patch conflicts (a 500). The update is sent
// again until it lands.
func TestAnUpdateRidesOutACacheThatTrails(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	fs, err := e.service.Create(ctx, placement, desired("conflicted", 1))
	require.NoError(t, err)

	e.sandbox.ResetStats()

	// The back end reports use: the storage changes, and the cache trails it.
	require.NoError(t, e.sandbox.SetFileStorageUsage(fs.Metadata.ID, sandbox.FileStorageUsage{UsedBytes: 1}))

	// The cache may have caught up already (its lag is random, and a busy machine
	// may take longer than it drew to send the patch): the next patch gets the 500
	// that region answers a conflicting patch with, so that the test always sees one.
	_, err = e.sandbox.AddFault(sandbox.FaultRule{
		Method: http.MethodPut, Route: "/api/v2/filestorage/{filestorageID}", Status: http.StatusInternalServerError, Count: 1,
	})
	require.NoError(t, err)

	fs, err = e.service.Update(ctx, fs.Metadata.ID, desired("conflicted", 2))
	require.NoError(t, err)
	assert.Equal(t, int64(2), fs.SizeGiB)
	assert.Greater(t, e.sandbox.Stats().Routes["PUT /api/v2/filestorage/{filestorageID}"], 1, "the first patch conflicted and was sent again")
}
