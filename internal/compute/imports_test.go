package compute_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
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

// An image that instances boot from is held by them. The delete's refusal names them
// from every list the token may read: a project user's token sees no server in
// region's list, yet sees compute's instances; a list that fails is named, and the
// others are still searched.
func TestDeleteImageNamesTheInstancesBootedFromIt(t *testing.T) {
	t.Parallel()

	const serversForbidden = "the token may not list region's servers"

	tests := map[string]struct {
		token   string
		compute bool
		faults  []sandbox.FaultRule
		found   []string
		unread  []string
	}{
		"a project user on the compute path": {
			token: sandbox.DefaultToken, compute: true, found: []string{`instance "booted"`}, unread: []string{serversForbidden},
		},
		"a service account on the region path": {token: sandbox.ServiceToken, found: []string{`instance "booted"`}},
		// Compute's instance and the server region shows for it are one holder.
		"a service account on the compute path": {token: sandbox.ServiceToken, compute: true, found: []string{`instance "booted"`}},
		"a project user whose list of compute's instances fails": {
			token: sandbox.DefaultToken, compute: true,
			faults: []sandbox.FaultRule{{Method: http.MethodGet, Route: sandbox.ComputePrefix + "/api/v2/instances", Status: http.StatusServiceUnavailable}},
			unread: []string{"the list of compute's instances failed", serversForbidden},
		},
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			e := newEnv(t)
			user := compute.NewService(e.NewSession(e.NewComputeClient(t, sandbox.DefaultToken, nil), testReadLag)).HeldByComputeInstances()
			instances := compute.NewComputeInstances(user)

			image, err := user.ImportImage(t.Context(), importOf("golden", "https://images.example.com/golden.raw"), ignoreProgress)
			require.NoError(t, err)

			spec := standardSpec("booted")
			spec.ImageID = image.ID
			created, err := instances.Create(t.Context(), spec)
			require.NoError(t, err)
			_, err = instances.WaitReady(t.Context(), created)
			require.NoError(t, err)

			for _, rule := range tt.faults {
				_, err := e.Sandbox.AddFault(rule)
				require.NoError(t, err)
			}

			service := compute.NewService(e.NewSession(e.NewClient(t, tt.token, nil), testReadLag))
			if tt.compute {
				service = service.HeldByComputeInstances()
			}

			ref := compute.ImageRef{ID: image.ID, OrganizationID: image.OrganizationID, RegionID: image.RegionID}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()

			var held *cloud.HeldError
			require.ErrorAs(t, service.DeleteImage(ctx, ref, image.CreationTime), &held)

			for _, holder := range held.Holders.Found {
				assert.Equal(t, created.ID, holder.ID, "the instance, by its own ID")
			}

			found, unread := cloudtest.Held(held.Holders)

			assert.Equal(t, tt.found, found, held.Error())
			assert.Equal(t, tt.unread, unread, held.Error())
		})
	}
}
