package image_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// testReadLag stands for region's read lag in the façade's tests.
const testReadLag = 100 * time.Millisecond

// env is one sandbox with the image family over it, called with the service token.
type env struct {
	*cloudtest.World

	images *image.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()

	e := &env{World: cloudtest.Start(t, cloudtest.Config{Token: sandbox.PlatformAdminToken})}
	e.images = e.imagesOver(t, nil)

	return e
}

// imagesOver returns the family over the sandbox whose requests go through transport
// (the default one when nil), which may lose answers as a harsh network does.
func (e *env) imagesOver(t *testing.T, transport http.RoundTripper) *image.Service {
	t.Helper()

	return image.NewService(e.NewSession(e.NewClient(t, sandbox.PlatformAdminToken, transport), testReadLag))
}

func ignoreProgress(string) {}

// importOf asks for an import of a small Ubuntu image from uri, named name.
func importOf(name, uri string) image.Import {
	return image.Import{
		OrganizationID: sandbox.OrganizationID, RegionID: sandbox.RegionID, Name: name, URI: uri,
		Tags: map[string]string{"team": "platform"},
		Spec: catalogue.ImageSpec{
			Architecture: "x86_64", Virtualization: "virtualized",
			OS: catalogue.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Version: "24.04"},
		},
	}
}

func TestImportImageWaitsUntilReady(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/golden.raw"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, SizeGiB: 7}))

	imported, err := e.images.Import(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)

	assert.Equal(t, unikorn.ImageReady, imported.Status)
	assert.Equal(t, 7, imported.Spec.SizeGiB, "the size is region's, once imported")
	assert.Equal(t, "ubuntu", imported.Spec.OS.Distro)
	assert.Equal(t, map[string]string{"team": "platform"}, imported.Tags)
	assert.Empty(t, imported.InstanceID, "an imported image is no snapshot")
	assert.Equal(t, sandbox.RegionID, imported.RegionID)

	read, err := e.images.Read(t.Context(), image.Ref{ID: imported.ID, OrganizationID: sandbox.OrganizationID, RegionID: sandbox.RegionID})
	require.NoError(t, err)
	assert.Equal(t, imported, read)
}

func TestImportImageFailedLeavesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/broken.raw"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, Outcome: sandbox.ImageSourceFailed}))

	imported, err := e.images.Import(t.Context(), importOf("broken", uri), ignoreProgress)
	assert.Nil(t, imported, "a failed image is not returned to be tracked")

	var failed *image.ImportFailedError
	require.ErrorAs(t, err, &failed)
	assert.True(t, failed.Removed)
	assert.Equal(t, uri, failed.URI)
	assert.NotEmpty(t, failed.ImageID)
	assert.Empty(t, e.ImagesNamed(t, "broken"), "the failed image was deleted")
}

func TestImportImageRefusedSourceMakesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/disk.qcow2"
	require.NoError(t, e.Sandbox.SetImageSource(sandbox.ImageSource{URI: uri, Outcome: sandbox.ImageSourceNotRaw}))

	imported, err := e.images.Import(t.Context(), importOf("qcow", uri), ignoreProgress)
	require.Error(t, err)
	assert.Nil(t, imported)
	assert.True(t, unikorn.IsBadRequest(err) || unikorn.IsUnprocessable(err), "region refuses what is not a raw image: %v", err)
	assert.Empty(t, e.ImagesNamed(t, "qcow"))
}

func TestImportImageAdoptsTheImageOfALostAnswer(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	uri := "https://images.example.com/golden.raw"

	// An earlier image of the same name is not the one this import makes.
	earlier, err := e.images.Import(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)

	network := &cloudtest.Loser{}
	network.Lose(http.MethodPost, "/api/v1/organizations/"+sandbox.OrganizationID+"/regions/"+sandbox.RegionID+"/images", 1)

	imported, err := e.imagesOver(t, network).Import(t.Context(), importOf("golden", uri), ignoreProgress)
	require.NoError(t, err)
	assert.Zero(t, network.Left(), "the answer was lost")

	assert.NotEqual(t, earlier.ID, imported.ID, "the earlier image is not adopted")
	assert.Equal(t, unikorn.ImageReady, imported.Status)
	assert.Len(t, e.ImagesNamed(t, "golden"), 2, "the import was sent once")
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
		"a platform administrator on the region path": {token: sandbox.PlatformAdminToken, found: []string{`instance "booted"`}},
		// Compute's instance and the server region shows for it are one holder.
		"a platform administrator on the compute path": {token: sandbox.PlatformAdminToken, compute: true, found: []string{`instance "booted"`}},
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
			session := e.NewSession(e.NewComputeClient(t, sandbox.DefaultToken, nil), testReadLag)
			instances := compute.NewComputeInstances(compute.NewService(session))

			imported, err := image.NewService(session).Import(t.Context(),
				importOf("golden", "https://images.example.com/golden.raw"), ignoreProgress)
			require.NoError(t, err)

			spec := compute.Spec{Name: "booted", NetworkID: sandbox.NetworkDefaultID, FlavorID: sandbox.FlavorStandardID, ImageID: imported.ID}
			created, err := instances.Create(t.Context(), spec)
			require.NoError(t, err)
			_, err = instances.WaitReady(t.Context(), created)
			require.NoError(t, err)

			for _, rule := range tt.faults {
				_, err := e.Sandbox.AddFault(rule)
				require.NoError(t, err)
			}

			images := image.NewService(e.NewSession(e.NewClient(t, tt.token, nil), testReadLag))
			if tt.compute {
				images = images.HeldByComputeInstances()
			}

			ref := image.Ref{ID: imported.ID, OrganizationID: imported.OrganizationID, RegionID: imported.RegionID}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()

			var held *cloud.HeldError
			require.ErrorAs(t, images.Delete(ctx, ref, imported.CreationTime), &held)

			for _, holder := range held.Holders.Found {
				assert.Equal(t, created.ID, holder.ID, "the instance, by its own ID")
			}

			found, unread := cloudtest.Held(held.Holders)

			assert.Equal(t, tt.found, found, held.Error())
			assert.Equal(t, tt.unread, unread, held.Error())
		})
	}
}
