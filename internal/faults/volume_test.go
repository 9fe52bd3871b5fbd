package faults_test

import (
	"fmt"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	sandboxvolumes "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/volumes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// volumeSubject is a block volume, managed with an ordinary project user's token, as
// volumes are a public API: created and waited for until provisioned, then renamed,
// described and retagged in place (region's update, under its optimistic lock), then
// deleted. Region charges the size to the quota itself, and releases it with the
// volume.
func volumeSubject() subject {
	return subject{
		name:          "volume",
		what:          "block volumes",
		kept:          "zero leaked allocations, no volume left behind or replaced",
		options:       []acctest.Option{acctest.WithBackend(acctest.ComputeBackend)},
		config:        volumeConfig,
		agree:         volumeAgreement,
		replaceRoutes: []string{"DELETE /api/v2/volumes/{volumeID}"},
	}
}

// volumeConfig is the volume as the phase wants it: the update changes everything
// region changes in place.
func volumeConfig(env *acctest.Environment, p phase) string {
	name, description, team := "data", "first", "a"
	if p != phaseCreate {
		name, description, team = "data-renamed", "second", "b"
	}

	return fmt.Sprintf(`
resource "unikorn_volume" "test" {
  name            = %q
  description     = %q
  tags            = { team = %q }
  network_id      = %s
  volume_class_id = %s
  size_gib        = 3
}
`, name, description, team, acctest.Quote(env.NetworkID), acctest.Quote(sandbox.VolumeClassStandardID))
}

// volumeAgreement proves one volume, with one allocation charging its size, in the
// sandbox's own records for the one in state, or none at all after a delete.
func volumeAgreement(l *life, p phase) {
	l.t.Helper()

	records := l.env.Volumes(l.t)

	allocation := requireOneCharged(l, p, "volume", "unikorn_volume.test", records,
		func(v *unikorn.Volume) string { return v.Metadata.ID }, sandboxvolumes.AllocationKind)
	if allocation == nil {
		return
	}

	require.Equal(l.t, int64(3), records[0].Spec.SizeGiB)
	require.Equal(l.t, unikorn.ProvisioningProvisioned, records[0].Metadata.ProvisioningStatus)
	require.Equal(l.t, 3, allocation.Spec.Allocations[0].Committed, "the size is charged in GiB")
}
