package image_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	regionimage "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
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

func importImage(h *sandboxtest.Harness, create unikorn.ImageCreate) unikorn.Image {
	h.T.Helper()

	var image unikorn.Image

	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.RegionPath("/images"), create).Expect(http.StatusOK, &image)

	return image
}

func ownedImage(h *sandboxtest.Harness, id string) *unikorn.Image {
	h.T.Helper()

	all := url.Values{"organizationID": {sandbox.OrganizationID}, "scope": {"owned"}, "status": {"pending", "creating", "ready", "failed"}}
	for _, image := range h.ListImagesV2(all) {
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
	h := sandboxtest.New(t)

	image := importImage(h, imageCreate("golden", "https://images.example.com/noble.raw"))
	assert.Equal(t, unikorn.ImagePending, image.Status.State)
	assert.Equal(t, 0, image.Spec.SizeGiB)
	assert.Equal(t, "24.04", image.Spec.OS.Version)
	assert.Equal(t, map[string]string{"cuda": "v12.4.1"}, image.Spec.SoftwareVersions)
	require.NotNil(t, image.Spec.GPU)
	assert.Equal(t, unikorn.Tags{
		{Name: "images.unikorn-cloud.org:organization-id", Value: sandbox.OrganizationID},
		{Name: "images.unikorn-cloud.org:source", Value: "import"},
		{Name: "team", Value: "ml"},
	}, image.Metadata.Tags)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV1()), "golden", "not ready yet")
	assert.Empty(t, image.Metadata.Description, "region keeps no description of an image")

	h.Clock.Advance(sandboxtest.Settle / 4)
	assert.Equal(t, unikorn.ImageCreating, ownedImage(h, image.Metadata.ID).Status.State)

	h.Clock.Advance(sandboxtest.Settle)

	ready := ownedImage(h, image.Metadata.ID)
	assert.Equal(t, unikorn.ImageReady, ready.Status.State)
	assert.Equal(t, regionimage.DefaultImportedSizeGiB, ready.Spec.SizeGiB)
	assert.Equal(t, []string{"debian-12-amd64", "golden", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64",
		"ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-kubernetes-v1.31.0-arm64", "ubuntu-24.04-metal"},
		sandboxtest.ImageNames(h.ListImagesV1()))

	// An image lives in the region it was imported into.
	var private []unikorn.Image

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/regions/"+sandbox.PrivateRegionID+"/images"), nil).Expect(http.StatusOK, &private)
	assert.NotContains(t, sandboxtest.ImageNames(private), "golden")
}

// Tests make an import fail on demand through the control API: after it is accepted,
// or at once where region cannot read the URI or finds no raw image there.
func TestImageImportFailsOnDemand(t *testing.T) {
	h := sandboxtest.New(t)
	control := sandbox.NewControlClient(h.URL, sandbox.DefaultToken, nil)

	require.NoError(t, control.SetImageSource(t.Context(), sandbox.ImageSource{URI: "https://images.example.com/broken.raw", Outcome: sandbox.ImageSourceFailed}))
	require.NoError(t, control.SetImageSource(t.Context(), sandbox.ImageSource{URI: "https://images.example.com/gone.raw", Outcome: sandbox.ImageSourceUnreadable}))
	require.NoError(t, control.SetImageSource(t.Context(), sandbox.ImageSource{URI: "https://images.example.com/noble.qcow2", Outcome: sandbox.ImageSourceNotRaw}))
	require.NoError(t, control.SetImageSource(t.Context(), sandbox.ImageSource{URI: "https://images.example.com/big.raw", SizeGiB: 40}))
	require.Error(t, control.SetImageSource(t.Context(), sandbox.ImageSource{URI: "https://images.example.com/x.raw", Outcome: "maybe"}))

	broken := importImage(h, imageCreate("broken", "https://images.example.com/broken.raw"))
	assert.Equal(t, unikorn.ImagePending, broken.Status.State)

	big := importImage(h, imageCreate("big", "https://images.example.com/big.raw"))

	for uri, description := range map[string]string{
		"https://images.example.com/gone.raw":    "Image read failed, please ensure the URL is correct",
		"ftp://images.example.com/noble.raw":     "Image read failed, please ensure the URL is correct",
		"https://images.example.com/noble.qcow2": "Image does not contain a valid master boot record, ensure the image is in raw format",
	} {
		body := h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.RegionPath("/images"), imageCreate("refused", uri)).
			ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
		assert.Equal(t, description, body.ErrorDescription, uri)
	}

	h.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, unikorn.ImageFailed, ownedImage(h, broken.Metadata.ID).Status.State)
	assert.Equal(t, 40, ownedImage(h, big.Metadata.ID).Spec.SizeGiB)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV1()), "broken")

	require.NoError(t, control.ClearImageSources(t.Context()))
	importImage(h, imageCreate("mended", "https://images.example.com/broken.raw"))
	h.Clock.Advance(sandboxtest.Settle)
	assert.Contains(t, sandboxtest.ImageNames(h.ListImagesV1()), "mended")
}

// The request body is checked as region's validator checks it, before the caller's
// rights; then the organization must grant images:create and see the region.
func TestImageImportValidation(t *testing.T) {
	h := sandboxtest.New(t)

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
			h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.RegionPath("/images"), body).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}

	create := imageCreate("ok", "https://images.example.com/noble.raw")

	h.CallAs(sandbox.ForeignToken, http.MethodPost, sandboxtest.RegionPath("/images"), create).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.OrganizationPath("/regions/b0000000-0000-4000-8000-0000000000ff/images"), create).
		ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.ForeignToken, http.MethodPost, "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/regions/"+sandbox.PrivateRegionID+"/images", create).
		ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

// Deleting an imported image is accepted; it shows failed, as region's cache marks
// it, until the cloud lets it go, and deleting it again is not found. An image a
// server uses is refused with region's plain conflict.
func TestImportedImageDelete(t *testing.T) {
	h := sandboxtest.New(t)

	image := importImage(h, imageCreate("golden", "https://images.example.com/noble.raw"))
	h.Clock.Advance(sandboxtest.Settle)

	user := sandboxtest.ServerCreate("user")
	user.Spec.ImageID = image.Metadata.ID
	used := h.CreateServer(user)

	path := sandboxtest.RegionPath("/images/" + image.Metadata.ID)
	body := h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).ExpectError(http.StatusConflict, unikorn.ErrorConflict)
	assert.Equal(t, "the requested resource already exists", body.ErrorDescription)
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, sandboxtest.OrganizationPath("/regions/"+sandbox.PrivateRegionID+"/images/"+image.Metadata.ID), nil).
		ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Call(http.MethodDelete, "/api/v2/servers/"+used.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	resp := h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	assert.Empty(t, resp.Body)
	assert.Equal(t, unikorn.ImageFailed, ownedImage(h, image.Metadata.ID).Status.State)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV1()), "golden")
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	user.Metadata.Name = "late"
	h.Call(http.MethodPost, "/api/v2/servers", user).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(sandboxtest.Settle)
	assert.Nil(t, ownedImage(h, image.Metadata.ID))
}

func TestImageCatalogue(t *testing.T) {
	h := sandboxtest.New(t)

	images := h.ListImagesV1()
	assert.Equal(t, []string{"debian-12-amd64", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64",
		"ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-kubernetes-v1.31.0-arm64", "ubuntu-24.04-metal"},
		sandboxtest.ImageNames(images))

	byName := map[string]unikorn.Image{}
	for _, image := range images {
		byName[image.Metadata.Name] = image
	}

	assert.Equal(t, unikorn.VirtualizationAny, byName["debian-12-amd64"].Spec.Virtualization)
	assert.Equal(t, "12", byName["debian-12-amd64"].Spec.OS.Version)
	assert.Equal(t, "24.04", byName["ubuntu-24.04-amd64"].Spec.OS.Version)
	assert.Equal(t, unikorn.VirtualizationBaremetal, byName["ubuntu-24.04-metal"].Spec.Virtualization)
	assert.Equal(t, unikorn.ArchitectureAarch64, byName["ubuntu-24.04-arm64"].Spec.Architecture)
	require.NotNil(t, byName["ubuntu-24.04-gpu-amd64"].Spec.GPU)
	assert.Equal(t, "NVIDIA", byName["ubuntu-24.04-gpu-amd64"].Spec.GPU.Vendor)

	// Kubernetes node images say which Kubernetes they carry; no other image carries
	// any software.
	for name, image := range byName {
		if !strings.Contains(name, "-kubernetes-") {
			assert.Empty(t, image.Spec.SoftwareVersions, name)
		}
	}

	for name, want := range map[string]struct{ id, version, architecture string }{
		"ubuntu-24.04-kubernetes-v1.31.0-amd64": {sandbox.ImageKubernetesID, sandbox.KubernetesVersion, unikorn.ArchitectureX86_64},
		"ubuntu-24.04-kubernetes-v1.31.0-arm64": {sandbox.ImageKubernetesArmID, sandbox.KubernetesVersion, unikorn.ArchitectureAarch64},
		"ubuntu-24.04-kubernetes-v1.30.4-amd64": {sandbox.ImageKubernetesOlderID, sandbox.KubernetesOlderVersion, unikorn.ArchitectureX86_64},
	} {
		image := byName[name]
		assert.Equal(t, want.id, image.Metadata.ID, name)
		assert.Equal(t, map[string]string{"kubernetes": want.version}, image.Spec.SoftwareVersions, name)
		assert.Equal(t, want.architecture, image.Spec.Architecture, name)
		assert.Equal(t, unikorn.VirtualizationVirtualized, image.Spec.Virtualization, name)
		assert.Equal(t, "24.04", image.Spec.OS.Version, name)
		assert.Nil(t, image.Spec.GPU, name)
	}

	h.Call(http.MethodGet, "/api/v2/regions/"+sandbox.RegionID+"/images?scope=everything", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.Call(http.MethodGet, "/api/v2/regions/"+sandbox.RegionID+"/images?status=broken", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.Call(http.MethodGet, "/api/v2/regions/b0000000-0000-4000-8000-0000000000ff/images", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestSnapshotBecomesReadyAndListed(t *testing.T) {
	h := sandboxtest.New(t)

	gpuServer := sandboxtest.ServerCreate("trainer")
	gpuServer.Spec.FlavorID = sandbox.FlavorGPUID
	gpuServer.Spec.ImageID = sandbox.ImageUbuntuGPUID
	server := h.CreateServer(gpuServer)

	snapshotPath := "/api/v2/servers/" + server.Metadata.ID + "/snapshot"
	snapshot := unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{
		Name: "trainer-golden", Description: "trained",
		Tags: unikorn.Tags{
			{Name: "compute.unikorn-cloud.org:instance-id", Value: "i-1"},
			{Name: "images.unikorn-cloud.org:source", Value: "forged"},
			{Name: "team", Value: "ml"},
		},
	}}

	h.Call(http.MethodPost, snapshotPath, snapshot).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.Clock.Advance(sandboxtest.Settle)

	var image unikorn.Image

	h.Call(http.MethodPost, snapshotPath, snapshot).Expect(http.StatusCreated, &image)
	assert.Equal(t, unikorn.ImagePending, image.Status.State)
	assert.Equal(t, "trainer-golden", image.Metadata.Name)
	assert.Empty(t, image.Metadata.Description, "region keeps no description of an image")
	assert.Equal(t, unikorn.Tags{
		{Name: "compute.unikorn-cloud.org:instance-id", Value: "i-1"},
		{Name: "images.unikorn-cloud.org:organization-id", Value: sandbox.OrganizationID},
		{Name: "images.unikorn-cloud.org:source", Value: "snapshot"},
		{Name: "team", Value: "ml"},
	}, image.Metadata.Tags)
	assert.Equal(t, 30, image.Spec.SizeGiB)
	assert.Equal(t, "ubuntu", image.Spec.OS.Distro)
	require.NotNil(t, image.Spec.GPU)

	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV1()), "trainer-golden", "not ready yet")

	owned := url.Values{"organizationID": {sandbox.OrganizationID}, "scope": {"owned"}}
	pending := h.ListImagesV2(owned)
	require.Len(t, pending, 1)
	assert.Equal(t, unikorn.ImagePending, pending[0].Status.State)

	h.Clock.Advance(sandboxtest.Settle / 4)
	assert.Equal(t, unikorn.ImageCreating, h.ListImagesV2(owned)[0].Status.State)

	h.Clock.Advance(sandboxtest.Settle)
	assert.Contains(t, sandboxtest.ImageNames(h.ListImagesV1()), "trainer-golden")
	assert.Equal(t, unikorn.ImageReady, h.ListImagesV2(owned)[0].Status.State)

	// Without an organization only global images are listed.
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV2(nil)), "trainer-golden")
	assert.Len(t, h.ListImagesV2(nil), 8)
	assert.Len(t, h.ListImagesV2(url.Values{"organizationID": {sandbox.OrganizationID}}), 9)
	assert.Len(t, h.ListImagesV2(url.Values{"organizationID": {sandbox.OrganizationID}, "status": {"pending", "creating"}}), 0)
	assert.Empty(t, h.ListImagesV2(url.Values{"organizationID": {"a0000000-0000-4000-8000-0000000000ff"}, "scope": {"owned"}}))
}

func TestImageDelete(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("source")

	var image unikorn.Image

	h.Call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/snapshot", unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{Name: "copy"}}).
		Expect(http.StatusCreated, &image)
	h.Clock.Advance(sandboxtest.Settle)

	user := sandboxtest.ServerCreate("user")
	user.Spec.ImageID = image.Metadata.ID
	used := h.CreateServer(user)

	path := sandboxtest.RegionPath("/images/" + image.Metadata.ID)
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusConflict, unikorn.ErrorConflict)
	h.Call(http.MethodDelete, sandboxtest.RegionPath("/images/"+sandbox.ImageUbuntuID), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	// Through an organization the caller is not in, the image is out of reach.
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, "/api/v1/organizations/"+sandbox.ForeignOrganizationID+"/regions/"+sandbox.RegionID+"/images/"+image.Metadata.ID, nil).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.Call(http.MethodDelete, "/api/v2/servers/"+used.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV1()), "copy")
}

// Images lag as every other object: a snapshot is missing from the lists until the
// cache sees it, and a deleted image is still listed as it was, while a second delete,
// which reads the latest version, already answers 404.
func TestImagesLag(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("source")
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))

	owned := url.Values{"organizationID": {sandbox.OrganizationID}, "scope": {"owned"}, "status": {"pending", "creating", "ready", "failed"}}

	var image unikorn.Image

	h.Call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/snapshot", unikorn.SnapshotCreate{Metadata: unikorn.WriteMetadata{Name: "copy"}}).
		Expect(http.StatusCreated, &image)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV2(owned)), "copy", "a new image is not listed at once")

	h.Clock.Advance(sandboxtest.Settle + sandboxtest.ReadLag)
	assert.Contains(t, sandboxtest.ImageNames(h.ListImagesV2(owned)), "copy")

	path := sandboxtest.RegionPath("/images/" + image.Metadata.ID)
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	assert.Contains(t, sandboxtest.ImageNames(h.ListImagesV2(owned)), "copy", "a deleted image is listed for a while")
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Clock.Advance(sandboxtest.ReadLag)
	assert.NotContains(t, sandboxtest.ImageNames(h.ListImagesV2(owned)), "copy")
}
