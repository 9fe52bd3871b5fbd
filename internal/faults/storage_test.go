package faults_test

import (
	"fmt"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// fileStorageAllocationKind is the kind region charges file storage's quota under.
const fileStorageAllocationKind = "filestorages.region.unikorn-cloud.org"

// fileStorageSubject is file storage, managed with an ordinary project user's token,
// as file storage is a public API: created attached to one network, then grown,
// attached to a second, given a snapshot policy and root squash off, then deleted.
// Region charges the quota itself, and releases it with the storage.
func fileStorageSubject() subject {
	return subject{
		name:          "file-storage",
		what:          "file storage",
		kept:          "zero leaked allocations, no file storage left behind or replaced",
		options:       []acctest.Option{acctest.WithBackend(acctest.ComputeBackend)},
		config:        fileStorageConfig,
		agree:         fileStorageAgreement,
		replaceRoutes: []string{"DELETE /api/v2/filestorage/{filestorageID}"},
	}
}

// sizeIn is the storage's size in the phase.
func sizeIn(p phase) int64 {
	if p == phaseCreate {
		return 1
	}

	return 2
}

// fileStorageConfig is the storage as the phase wants it. The update grows it, which
// moves quota, and attaches a second network, which is waited for until mounted.
func fileStorageConfig(env *acctest.Environment, p phase) string {
	networks, extra := acctest.Quote(sandbox.NetworkDefaultID), ""
	if p != phaseCreate {
		networks += ", " + acctest.Quote(sandbox.NetworkSecondaryID)
		extra = `
  description = "second"
  root_squash = false

  snapshot_policies = {
    nightly = { interval = "daily", time_of_day = "02:00Z", keep = 3 }
  }`
	}

	return fmt.Sprintf(`
resource "unikorn_file_storage" "test" {
  name             = "share"
  region_id        = %s
  storage_class_id = %s
  size_gib         = %d
  attachments      = [%s]%s
}
`, acctest.Quote(env.RegionID), acctest.Quote(sandbox.StorageClassStandardID), sizeIn(p), networks, extra)
}

// fileStorageAgreement proves one storage, with one allocation charging its size, in
// the sandbox's own records for the one in state, or none at all after a delete.
func fileStorageAgreement(l *life, p phase) {
	l.t.Helper()

	records := l.env.FileStorage(l.t)

	allocation := requireOneCharged(l, p, "file storage", "unikorn_file_storage.test", records,
		func(fs *unikorn.FileStorage) string { return fs.Metadata.ID }, fileStorageAllocationKind)
	if allocation == nil {
		return
	}

	require.Equal(l.t, sizeIn(p), records[0].Spec.SizeGiB)
	require.Equal(l.t, int(sizeIn(p))<<30, allocation.Spec.Allocations[0].Committed, "the charge follows the size")
}
