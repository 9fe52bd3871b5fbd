package conformance

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// fileStorage drives file storage through its whole life as a project user, every
// optional member set somewhere so that each is seen on the wire, and leaves the
// run's network free to delete.
func (r *run) fileStorage(t *testing.T) {
	ctx := t.Context()

	classes, err := call(r.coverage, r.user.ListStorageClasses)(ctx)
	require.NoError(t, err)
	require.Contains(t, storageClassIDs(classes), sandbox.StorageClassRemoteID)

	classes, err = call(r.coverage, r.user.ListStorageClasses)(ctx, sandbox.RegionID)
	require.NoError(t, err)
	require.Contains(t, storageClassIDs(classes), sandbox.StorageClassStandardID)
	require.NotContains(t, storageClassIDs(classes), sandbox.StorageClassRemoteID)

	day := 1
	protection := false
	create := unikorn.FileStorageCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-share", Tags: unikorn.Tags{{Name: "purpose", Value: "conformance"}}},
		Spec: unikorn.FileStorageCreateSpec{
			FileStorageSpec: unikorn.FileStorageSpec{
				SizeGiB:                          2,
				StorageType:                      unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: false}},
				Attachments:                      &unikorn.StorageAttachments{NetworkIDs: []string{r.networkID}},
				DefaultSnapshotProtectionEnabled: &protection,
				SnapshotPolicies: &[]unikorn.StorageSnapshotPolicy{{
					Name:      "monthly",
					Schedule:  unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotMonthly, TimeOfDay: "03:00Z", DayOfMonth: &day},
					Retention: unikorn.StorageRetention{Keep: 3},
				}},
			},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			RegionID:       sandbox.RegionID,
			StorageClassID: sandbox.StorageClassStandardID,
		},
	}

	created, err := call(r.coverage, r.user.CreateFileStorage)(ctx, create)
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	id := created.Metadata.ID

	listed, err := call(r.coverage, r.user.ListFileStorage)(ctx, unikorn.FileStorageQuery{
		Tags:            unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
	})
	require.NoError(t, err)
	require.Equal(t, []string{id}, fileStorageIDs(listed))

	mounted := r.waitForFileStorage(t, id, "provisioned and mounted", func(fs *unikorn.FileStorage) bool {
		return fs.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && len(fs.Status.Attachments) == 1 &&
			fs.Status.Attachments[0].MountSource != "" && fs.Status.Usage != nil
	})
	require.NotEmpty(t, mounted.Status.Attachments[0].MountOptions["remoteports"])

	// Grown, detached, the policies left as they are (omitted) and protection on.
	protection = true
	updated, err := call(r.coverage, r.user.UpdateFileStorage)(ctx, id, unikorn.FileStorageUpdate{
		Metadata: create.Metadata,
		Spec: unikorn.FileStorageSpec{
			SizeGiB:                          3,
			StorageType:                      unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: true}},
			Attachments:                      &unikorn.StorageAttachments{NetworkIDs: []string{}},
			DefaultSnapshotProtectionEnabled: &protection,
		},
	})
	require.NoError(t, err)
	require.Equal(t, int64(3), updated.Spec.SizeGiB)
	require.Len(t, *updated.Spec.SnapshotPolicies, 1, "omitted policies are kept")

	r.waitForFileStorage(t, id, "detached and grown", func(fs *unikorn.FileStorage) bool {
		return fs.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && len(fs.Status.Attachments) == 0 &&
			fs.Status.Usage.CapacityBytes == 3<<30
	})

	// A class of another region is refused as region refuses it.
	wrongRegion := create
	wrongRegion.Spec.StorageClassID = sandbox.StorageClassRemoteID
	_, err = call(r.coverage, r.user.CreateFileStorage)(ctx, wrongRegion)
	require.True(t, unikorn.IsUnprocessable(err), "another region's class is a 422, got %v", err)

	require.NoError(t, call(r.coverage, r.user.DeleteFileStorage)(ctx, id))
	r.poll(t, "the file storage to be gone", func() bool {
		_, err := call(r.coverage, r.user.GetFileStorage)(ctx, id)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})
}

func (r *run) waitForFileStorage(t *testing.T, id, what string, ready func(*unikorn.FileStorage) bool) *unikorn.FileStorage {
	t.Helper()

	var last *unikorn.FileStorage

	r.poll(t, "the file storage to be "+what, func() bool {
		fs, err := call(r.coverage, r.user.GetFileStorage)(t.Context(), id)
		require.NoError(t, err)

		last = fs

		return ready(fs)
	})

	return last
}

func storageClassIDs(classes []unikorn.StorageClass) []string {
	return ids(classes, func(c unikorn.StorageClass) string { return c.Metadata.ID })
}

func fileStorageIDs(all []unikorn.FileStorage) []string {
	return ids(all, func(fs unikorn.FileStorage) string { return fs.Metadata.ID })
}
