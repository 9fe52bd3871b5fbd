package conformance

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// volumes drives a block volume through its whole life as a project user on the run's
// network, and the classes of every region and of one, so that region's volume
// document judges each answer.
func (r *run) volumes(t *testing.T) {
	ctx := t.Context()

	classes, err := call(r.coverage, r.user.ListVolumeClasses)(ctx)
	require.NoError(t, err)
	require.Contains(t, volumeClassIDs(classes), sandbox.VolumeClassPrivateID)

	classes, err = call(r.coverage, r.user.ListVolumeClasses)(ctx, sandbox.RegionID, sandbox.RegionID)
	require.NoError(t, err)
	require.Equal(t, []string{sandbox.VolumeClassFastID, sandbox.VolumeClassStandardID}, volumeClassIDs(classes), "by name, each once")

	create := unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-volume", Description: "data", Tags: unikorn.Tags{{Name: "purpose", Value: "conformance"}}},
		Spec:     unikorn.VolumeSpec{NetworkID: r.networkID, VolumeClassID: sandbox.VolumeClassFastID, SizeGiB: 10},
	}

	created, err := call(r.coverage, r.user.CreateVolume)(ctx, create)
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	id := created.Metadata.ID

	listed, err := call(r.coverage, r.user.ListVolumes)(ctx, unikorn.VolumeQuery{
		Tags:            unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
		NetworkIDs:      []string{r.networkID},
	})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, id, listed[0].Metadata.ID)

	r.poll(t, "the volume to be provisioned", func() bool {
		volume, err := call(r.coverage, r.user.GetVolume)(ctx, id)
		require.NoError(t, err)

		return volume.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && volume.Status.SizeGiB != nil
	})

	updated, err := call(r.coverage, r.user.UpdateVolume)(ctx, id, unikorn.VolumeUpdate{Metadata: unikorn.WriteMetadata{Name: "conformance-renamed"}})
	require.NoError(t, err)
	require.Equal(t, "conformance-renamed", updated.Metadata.Name)

	// A size the class does not take is refused as region refuses it.
	tooSmall := create
	tooSmall.Spec.SizeGiB = 1
	_, err = call(r.coverage, r.user.CreateVolume)(ctx, tooSmall)
	require.True(t, unikorn.IsUnprocessable(err), "a size below the class's minimum is a 422, got %v", err)

	r.deleteVolume(t, id)
}

// attachableVolume makes a provisioned volume on the run's network of a class that
// supports the standard flavor.
func (r *run) attachableVolume(t *testing.T) string {
	t.Helper()

	ctx := t.Context()

	created, err := call(r.coverage, r.user.CreateVolume)(ctx, unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-attached"},
		Spec:     unikorn.VolumeSpec{NetworkID: r.networkID, VolumeClassID: sandbox.VolumeClassStandardID, SizeGiB: 1},
	})
	require.NoError(t, err)

	r.poll(t, "the volume to be provisioned", func() bool {
		volume, err := call(r.coverage, r.user.GetVolume)(ctx, created.Metadata.ID)
		require.NoError(t, err)

		return volume.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned
	})

	return created.Metadata.ID
}

// deleteVolume deletes a volume and waits until it is gone.
func (r *run) deleteVolume(t *testing.T, id string) {
	t.Helper()

	ctx := t.Context()

	require.NoError(t, call(r.coverage, r.user.DeleteVolume)(ctx, id))
	r.poll(t, "the volume to be gone", func() bool {
		_, err := call(r.coverage, r.user.GetVolume)(ctx, id)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})
}

func volumeClassIDs(classes []unikorn.VolumeClass) []string {
	ids := make([]string, 0, len(classes))
	for _, class := range classes {
		ids = append(ids, class.Metadata.ID)
	}

	return ids
}
