package sandbox

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func imageCreate(name, uri string) unikorn.ImageCreate {
	return unikorn.ImageCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Description: "golden image", Tags: unikorn.Tags{
			{Name: "team", Value: "ml"},
			{Name: "images.unikorn-cloud.org:source", Value: "forged"},
		}},
		Spec: unikorn.ImageCreateSpec{
			URI:              uri,
			Architecture:     unikorn.ArchitectureX86_64,
			Virtualization:   unikorn.VirtualizationVirtualized,
			OS:               unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Codename: "noble", Version: "24.04"},
			SoftwareVersions: map[string]string{"cuda": "v12.4.1"},
			GPU:              &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550.54"},
		},
	}
}

func (h *harness) importImage(create unikorn.ImageCreate) unikorn.Image {
	h.t.Helper()

	var image unikorn.Image

	h.callAs(DefaultToken, http.MethodPost, regionPath("/images"), create).expect(http.StatusOK, &image)

	return image
}

func (h *harness) ownedImage(id string) *unikorn.Image {
	h.t.Helper()

	all := url.Values{"organizationID": {OrganizationID}, "scope": {"owned"}, "status": {"pending", "creating", "ready", "failed"}}
	for _, image := range h.listImagesV2(all) {
		if image.Metadata.ID == id {
			return &image
		}
	}

	return nil
}

// An import answers 200 with the image pending and of no size, as the cloud first
// describes it; it goes creating, then ready with its size, and only then joins the
// catalogue's images in the organization's list, in name order.
func TestImageImportBecomesReadyAndListed(t *testing.T) {
	h := newHarness(t)

	image := h.importImage(imageCreate("golden", "https://images.example.com/noble.raw"))
	assert.Equal(t, unikorn.ImagePending, image.Status.State)
	assert.Equal(t, 0, image.Spec.SizeGiB)
	assert.Equal(t, "24.04", image.Spec.OS.Version)
	assert.Equal(t, map[string]string{"cuda": "v12.4.1"}, image.Spec.SoftwareVersions)
	require.NotNil(t, image.Spec.GPU)
	assert.Equal(t, unikorn.Tags{
		{Name: "images.unikorn-cloud.org:organization-id", Value: OrganizationID},
		{Name: "images.unikorn-cloud.org:source", Value: "import"},
		{Name: "team", Value: "ml"},
	}, image.Metadata.Tags)
	assert.NotContains(t, imageNames(h.listImagesV1()), "golden", "not ready yet")
	assert.Empty(t, image.Metadata.Description, "region keeps no description of an image")

	h.clock.Advance(settle / 4)
	assert.Equal(t, unikorn.ImageCreating, h.ownedImage(image.Metadata.ID).Status.State)

	h.clock.Advance(settle)

	ready := h.ownedImage(image.Metadata.ID)
	assert.Equal(t, unikorn.ImageReady, ready.Status.State)
	assert.Equal(t, defaultImportedSizeGiB, ready.Spec.SizeGiB)
	assert.Equal(t, []string{"debian-12-amd64", "golden", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64", "ubuntu-24.04-metal"},
		imageNames(h.listImagesV1()))

	// An image lives in the region it was imported into.
	var private []unikorn.Image

	h.callAs(DefaultToken, http.MethodGet, organizationPath("/regions/"+PrivateRegionID+"/images"), nil).expect(http.StatusOK, &private)
	assert.NotContains(t, imageNames(private), "golden")
}

// Tests make an import fail on demand through the control API: after it is accepted,
// or at once where region cannot read the URI or finds no raw image there.
func TestImageImportFailsOnDemand(t *testing.T) {
	h := newHarness(t)
	control := NewControlClient(h.url, DefaultToken, nil)

	require.NoError(t, control.SetImageSource(t.Context(), ImageSource{URI: "https://images.example.com/broken.raw", Outcome: ImageSourceFailed}))
	require.NoError(t, control.SetImageSource(t.Context(), ImageSource{URI: "https://images.example.com/gone.raw", Outcome: ImageSourceUnreadable}))
	require.NoError(t, control.SetImageSource(t.Context(), ImageSource{URI: "https://images.example.com/noble.qcow2", Outcome: ImageSourceNotRaw}))
	require.NoError(t, control.SetImageSource(t.Context(), ImageSource{URI: "https://images.example.com/big.raw", SizeGiB: 40}))
	require.Error(t, control.SetImageSource(t.Context(), ImageSource{URI: "https://images.example.com/x.raw", Outcome: "maybe"}))

	broken := h.importImage(imageCreate("broken", "https://images.example.com/broken.raw"))
	assert.Equal(t, unikorn.ImagePending, broken.Status.State)

	big := h.importImage(imageCreate("big", "https://images.example.com/big.raw"))

	for uri, description := range map[string]string{
		"https://images.example.com/gone.raw":    "Image read failed, please ensure the URL is correct",
		"ftp://images.example.com/noble.raw":     "Image read failed, please ensure the URL is correct",
		"https://images.example.com/noble.qcow2": "Image does not contain a valid master boot record, ensure the image is in raw format",
	} {
		body := h.callAs(DefaultToken, http.MethodPost, regionPath("/images"), imageCreate("refused", uri)).
			expectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
		assert.Equal(t, description, body.ErrorDescription, uri)
	}

	h.clock.Advance(settle)
	assert.Equal(t, unikorn.ImageFailed, h.ownedImage(broken.Metadata.ID).Status.State)
	assert.Equal(t, 40, h.ownedImage(big.Metadata.ID).Spec.SizeGiB)
	assert.NotContains(t, imageNames(h.listImagesV1()), "broken")

	require.NoError(t, control.ClearImageSources(t.Context()))
	h.importImage(imageCreate("mended", "https://images.example.com/broken.raw"))
	h.clock.Advance(settle)
	assert.Contains(t, imageNames(h.listImagesV1()), "mended")
}

// The request body is checked as region's validator checks it, before the caller's
// rights; then the organization must grant images:create and see the region.
func TestImageImportValidation(t *testing.T) {
	h := newHarness(t)

	badArchitecture := imageCreate("bad", "https://images.example.com/noble.raw")
	badArchitecture.Spec.Architecture = "riscv64"

	badVersion := imageCreate("bad", "https://images.example.com/noble.raw")
	badVersion.Spec.SoftwareVersions = map[string]string{"cuda": "12.4"}

	for name, body := range map[string]any{
		"architecture":     badArchitecture,
		"software version": badVersion,
		"no uri": map[string]any{
			"metadata": map[string]any{"name": "bad"},
			"spec": map[string]any{"architecture": "x86_64", "virtualization": "any",
				"os": map[string]any{"kernel": "linux", "family": "debian", "distro": "debian", "version": "12"}},
		},
		"gpu without driver": map[string]any{
			"metadata": map[string]any{"name": "bad"},
			"spec": map[string]any{"uri": "https://images.example.com/noble.raw", "architecture": "x86_64", "virtualization": "any",
				"os": map[string]any{"kernel": "linux", "family": "debian", "distro": "debian", "version": "12"}, "gpu": map[string]any{"vendor": "AMD"}},
		},
	} {
		t.Run(name, func(t *testing.T) {
			h.callAs(DefaultToken, http.MethodPost, regionPath("/images"), body).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}

	create := imageCreate("ok", "https://images.example.com/noble.raw")

	h.callAs(ForeignToken, http.MethodPost, regionPath("/images"), create).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(DefaultToken, http.MethodPost, organizationPath("/regions/b0000000-0000-4000-8000-0000000000ff/images"), create).
		expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(ForeignToken, http.MethodPost, "/api/v1/organizations/"+ForeignOrganizationID+"/regions/"+PrivateRegionID+"/images", create).
		expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

// Deleting an imported image is accepted; it shows failed, as region's cache marks
// it, until the cloud lets it go, and deleting it again is not found. An image a
// server uses is refused with region's plain conflict.
func TestImportedImageDelete(t *testing.T) {
	h := newHarness(t)

	image := h.importImage(imageCreate("golden", "https://images.example.com/noble.raw"))
	h.clock.Advance(settle)

	user := serverCreate("user")
	user.Spec.ImageID = image.Metadata.ID
	used := h.createServer(user)

	path := regionPath("/images/" + image.Metadata.ID)
	body := h.callAs(DefaultToken, http.MethodDelete, path, nil).expectError(http.StatusConflict, unikorn.ErrorConflict)
	assert.Equal(t, "the requested resource already exists", body.ErrorDescription)
	h.callAs(DefaultToken, http.MethodDelete, organizationPath("/regions/"+PrivateRegionID+"/images/"+image.Metadata.ID), nil).
		expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.call(http.MethodDelete, "/api/v2/servers/"+used.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)

	resp := h.callAs(DefaultToken, http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	assert.Empty(t, resp.body)
	assert.Equal(t, unikorn.ImageFailed, h.ownedImage(image.Metadata.ID).Status.State)
	assert.NotContains(t, imageNames(h.listImagesV1()), "golden")
	h.callAs(DefaultToken, http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	user.Metadata.Name = "late"
	h.call(http.MethodPost, "/api/v2/servers", user).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.clock.Advance(settle)
	assert.Nil(t, h.ownedImage(image.Metadata.ID))
}
