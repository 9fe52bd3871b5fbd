package faults_test

import (
	"fmt"
	"slices"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// fileStorage is the life of file storage, made by an ordinary project user: created
// attached to one network, then grown, attached to a second, given a snapshot policy
// and root squash off, then deleted.
type fileStorage struct{}

var _ subject = fileStorage{}

// fileStorageAllocationKind is what region charges file storage to the quota as.
const fileStorageAllocationKind = "filestorages.region.unikorn-cloud.org"

func (fileStorage) name() string { return "file-storage" }

func (fileStorage) describe() string { return "file storage" }

func (fileStorage) promise() string {
	return "zero leaked allocations, no file storage left behind or replaced"
}

// backend is the compute one for the token it gives the provider: a project user's,
// as file storage needs no service rights.
func (fileStorage) backend() acctest.Backend { return acctest.ComputeBackend }

func (fileStorage) replacingRoutes() []string {
	return []string{"DELETE /api/v2/filestorage/{filestorageID}"}
}

// settleLostCharges has nothing to settle: region charges file storage itself, and
// releases the charge with it.
func (fileStorage) settleLostCharges(*life) int { return 0 }

// sizeIn is the storage's size in the phase.
func sizeIn(p phase) int64 {
	if p == phaseCreate {
		return 1
	}

	return 2
}

func (fileStorage) config(env *acctest.Environment, p phase) string {
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

// requireAgreement proves that, after the phase, there is exactly the storage in state
// with its one quota charge, as the phase wants it, or none at all after a delete.
func (fileStorage) requireAgreement(l *life, p phase) {
	l.t.Helper()

	// The sandbox's own records, not lists that may lag.
	all := l.env.FileStorage(l.t)
	charges := slices.DeleteFunc(l.env.Allocations(l.t), func(a unikorn.Allocation) bool {
		return a.Spec.Kind != fileStorageAllocationKind
	})

	if p == phaseDelete {
		require.Empty(l.t, all, "no file storage left")
		require.Empty(l.t, charges, "no leaked allocation")
		require.NotContains(l.t, l.cli.Run("state", "list"), "unikorn_file_storage.", "nothing left in state")

		return
	}

	output, err := l.cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(l.t, err, "state and cloud disagree after %s:\n%s", p, output)

	require.Len(l.t, all, 1, "exactly the storage in state")
	require.Equal(l.t, sizeIn(p), all[0].Spec.SizeGiB)
	require.Contains(l.t, l.cli.Run("state", "show", "unikorn_file_storage.test"), all[0].Metadata.ID)

	require.Len(l.t, charges, 1, "exactly the storage's allocation")
	require.Equal(l.t, all[0].Metadata.ID, charges[0].Spec.ID)
	require.Equal(l.t, int(sizeIn(p))<<30, charges[0].Spec.Allocations[0].Committed, "the charge follows the size")
}
