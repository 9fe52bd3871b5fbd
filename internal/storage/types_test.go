package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// What region holds of file storage comes back whole from the façade's file storage,
// and an update made of that storage sends all of its spec again.
func TestFileStorageKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	protected, day, used := true, 3, int64(1<<20)
	updated := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	policies := []unikorn.StorageSnapshotPolicy{{
		Name:      "nightly",
		Schedule:  unikorn.StorageSnapshotSchedule{Interval: Monthly, TimeOfDay: "01:00Z", DayOfWeek: "monday", DayOfMonth: &day},
		Retention: unikorn.StorageRetention{Keep: 5},
	}}
	in := unikorn.FileStorage{
		Metadata: cloudtest.ProjectMetadata(),
		Spec: unikorn.FileStorageSpec{
			SizeGiB:                          2,
			StorageType:                      unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: true}},
			Attachments:                      &unikorn.StorageAttachments{NetworkIDs: []string{"network"}},
			DefaultSnapshotProtectionEnabled: &protected,
			SnapshotPolicies:                 &policies,
		},
		Status: unikorn.FileStorageStatus{
			StorageClassID: "class", RegionID: "region",
			Usage: &unikorn.StorageUsage{CapacityBytes: 2 << 30, UsedBytes: &used, UpdatedAt: &updated},
			Attachments: []unikorn.StorageAttachmentStatus{{
				NetworkID: "network", ProvisioningStatus: unikorn.ProvisioningProvisioned,
				MountSource: "10.0.0.16:/volumes/id", MountOptions: map[string]string{"remoteports": "10.0.0.16-10.0.0.17"},
			}},
			SnapshotPolicies: []unikorn.StorageSnapshotPolicyStatus{
				{Name: "nightly", ProvisioningStatus: unikorn.ProvisioningProvisioned, Message: "ok"},
			},
		},
	}
	cloudtest.RequireAllSet(t, in.Spec)
	cloudtest.RequireAllSet(t, in.Status)

	fs := fromWire(&in)
	cloudtest.RequireAllSet(t, *fs)

	desired := Desired{
		Metadata: fs.Metadata.WriteMetadata, SizeGiB: fs.SizeGiB, RootSquash: fs.RootSquash,
		NetworkIDs: fs.NetworkIDs, SnapshotPolicies: &fs.SnapshotPolicies, DefaultProtection: fs.DefaultProtection,
	}
	assert.Equal(t, in.Spec, desired.spec())
	assert.True(t, shows(fs, desired), "the storage shows what it was read as")
}

// A storage class keeps all region says of it.
func TestClassKeepsEveryField(t *testing.T) {
	t.Parallel()

	var in unikorn.StorageClass
	in.Metadata.ID, in.Metadata.Name = "class", "fast"
	in.Spec = unikorn.StorageClassSpec{RegionID: "region", Protocols: []string{NFSv4}, Parallelism: 2}
	cloudtest.RequireAllSet(t, in.Spec)

	cloudtest.RequireAllSet(t, *classFromWire(&in))
}
