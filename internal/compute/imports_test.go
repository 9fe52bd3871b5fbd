package compute_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// importOf asks for an import of a small Ubuntu image from uri, named name.
func importOf(name, uri string) compute.ImageImport {
	return compute.ImageImport{
		OrganizationID: sandbox.OrganizationID, RegionID: sandbox.RegionID, Name: name, URI: uri,
		Tags: map[string]string{"team": "platform"},
		Spec: compute.ImageSpec{
			Architecture: "x86_64", Virtualization: "virtualized",
			OS: compute.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Version: "24.04"},
		},
	}
}

func TestImportImageWaitsUntilReady(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/golden.raw"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, SizeGiB: 7}))

	image, err := e.service.ImportImage(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)

	assert.Equal(t, unikorn.ImageReady, image.Status)
	assert.Equal(t, 7, image.Spec.SizeGiB, "the size is region's, once imported")
	assert.Equal(t, "ubuntu", image.Spec.OS.Distro)
	assert.Equal(t, map[string]string{"team": "platform"}, image.Tags)
	assert.Empty(t, image.InstanceID, "an imported image is no snapshot")
	assert.Equal(t, sandbox.RegionID, image.RegionID)

	read, err := e.service.ReadImage(t.Context(), compute.ImageRef{ID: image.ID, OrganizationID: sandbox.OrganizationID, RegionID: sandbox.RegionID})
	require.NoError(t, err)
	assert.Equal(t, image, read)
}

func TestImportImageFailedLeavesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/broken.raw"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, Outcome: sandbox.ImageSourceFailed}))

	image, err := e.service.ImportImage(t.Context(), importOf("broken", uri), ignoreProgress)
	assert.Nil(t, image, "a failed image is not returned to be tracked")

	var failed *compute.ImageImportFailedError
	require.ErrorAs(t, err, &failed)
	assert.True(t, failed.Removed)
	assert.Equal(t, uri, failed.URI)
	assert.NotEmpty(t, failed.ImageID)
	assert.Empty(t, e.snapshotsNamed(t, "broken"), "the failed image was deleted")
}

func TestImportImageRefusedSourceMakesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/disk.qcow2"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, Outcome: sandbox.ImageSourceNotRaw}))

	image, err := e.service.ImportImage(t.Context(), importOf("qcow", uri), ignoreProgress)
	require.Error(t, err)
	assert.Nil(t, image)
	assert.True(t, unikorn.IsBadRequest(err) || unikorn.IsUnprocessable(err), "region refuses what is not a raw image: %v", err)
	assert.Empty(t, e.snapshotsNamed(t, "qcow"))
}

func TestImportImageAdoptsTheImageOfALostAnswer(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/golden.raw"

	// An earlier image of the same name is not the one this import makes.
	earlier, err := e.service.ImportImage(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)

	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost,
		losePath: "/api/v1/organizations/" + sandbox.OrganizationID + "/regions/" + sandbox.RegionID + "/images"}
	service := e.serviceOver(t, network)

	image, err := service.ImportImage(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)
	assert.Zero(t, network.lose, "the answer was lost")

	assert.NotEqual(t, earlier.ID, image.ID, "the earlier image is not adopted")
	assert.Equal(t, unikorn.ImageReady, image.Status)
	assert.Len(t, e.snapshotsNamed(t, "golden"), 2, "the import was sent once")
}

// An image that compute's instances boot from is held by them: a user's token sees
// no server of theirs in region's list, so the delete's refusal names them from
// compute's instances.
func TestDeleteImageNamesTheComputeInstancesBootedFromIt(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	service := compute.NewService(e.NewSession(e.NewComputeClient(t, sandbox.DefaultToken, nil), testReadLag)).HeldByComputeInstances()
	instances := compute.NewComputeInstances(service)

	image, err := service.ImportImage(t.Context(), importOf("golden", "https://images.example.com/golden.raw"), ignoreProgress)
	require.NoError(t, err)

	spec := standardSpec("booted")
	spec.ImageID = image.ID
	created, err := instances.Create(t.Context(), spec)
	require.NoError(t, err)
	_, err = instances.WaitReady(t.Context(), created)
	require.NoError(t, err)

	ref := compute.ImageRef{ID: image.ID, OrganizationID: image.OrganizationID, RegionID: image.RegionID}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()

	var held *cloud.HeldError
	require.ErrorAs(t, service.DeleteImage(ctx, ref, image.CreationTime), &held)
	require.Len(t, held.Holders, 1)
	assert.Equal(t, "instance", held.Holders[0].Kind)
	assert.Equal(t, created.ID, held.Holders[0].ID)
}
