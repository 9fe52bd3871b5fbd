package image

import (
	"maps"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Image is an organization's image of a region as the façade shows it.
type Image struct {
	ID             string
	Name           string
	Description    string
	OrganizationID string
	RegionID       string
	// InstanceID is the instance a snapshot image was made from, from its provenance
	// tag; empty for other images.
	InstanceID   string
	Status       string
	CreationTime time.Time
	// Tags are those a caller set; reserved tags (the snapshot's provenance) are left out.
	Tags map[string]string
	// Spec is what the image is for: architecture, virtualization, operating system,
	// the disk it needs.
	Spec Spec
}

// The states of an image the Terraform types read.
const (
	// Ready is an image that boots instances.
	Ready = unikorn.ImageReady
	// Failed is an image the cloud could not make.
	Failed = unikorn.ImageFailed
)

// states are all of an image's states: a read must see an image in any of them.
var states = []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed}

// Leaving reports whether the image is of no more use: region's image cache shows a
// deleted image failed until the cloud has let it go, and an image that failed to be
// made cannot boot anything either.
func (i *Image) Leaving() bool { return i.Status == Failed }

// Ref locates an image: region reads and deletes images within one organization's
// view of one region.
type Ref struct {
	ID             string
	OrganizationID string
	RegionID       string
}

// Spec is what an image is for, as region describes it.
type Spec struct {
	Architecture   string
	Virtualization string
	// SizeGiB is the disk the image needs, which region measures once it has the
	// image: an import does not send it.
	SizeGiB          int
	OS               OS
	SoftwareVersions map[string]string
	// GPU is the GPU the image's drivers are for; nil for none.
	GPU *GPU
}

// OS is the operating system an image holds.
type OS struct {
	Kernel   string
	Family   string
	Distro   string
	Variant  string
	Codename string
	Version  string
}

// GPU is the GPU an image's drivers are for.
type GPU struct {
	Vendor string
	Driver string
	Models []string
}

// From is region's image in the façade's terms, found in ref's organization and
// region. Compute's snapshots, which region makes, are read with it.
func From(in *unikorn.Image, ref Ref) *Image {
	instanceID, _ := in.Metadata.Tags.Get(cloud.SnapshotInstanceIDTag)

	return &Image{
		ID:             in.Metadata.ID,
		Name:           in.Metadata.Name,
		Description:    in.Metadata.Description,
		OrganizationID: ref.OrganizationID,
		RegionID:       ref.RegionID,
		InstanceID:     instanceID,
		Status:         in.Status.State,
		CreationTime:   in.Metadata.CreationTime,
		Tags:           cloud.UserTags(in.Metadata.Tags),
		Spec:           specFromWire(in.Spec),
	}
}

// specFromWire is region's description of an image in the façade's terms.
func specFromWire(in unikorn.ImageSpec) Spec {
	spec := Spec{
		Architecture:     in.Architecture,
		Virtualization:   in.Virtualization,
		SizeGiB:          in.SizeGiB,
		OS:               OS(in.OS),
		SoftwareVersions: maps.Clone(in.SoftwareVersions),
	}

	if in.GPU != nil {
		spec.GPU = &GPU{Vendor: in.GPU.Vendor, Driver: in.GPU.Driver, Models: slices.Clone(in.GPU.Models)}
	}

	return spec
}

// wire is what an import from uri asks region to make: the spec but its size, which
// region measures.
func (s Spec) wire(uri string) unikorn.ImageCreateSpec {
	spec := unikorn.ImageCreateSpec{
		URI:              uri,
		Architecture:     s.Architecture,
		Virtualization:   s.Virtualization,
		OS:               unikorn.ImageOS(s.OS),
		SoftwareVersions: maps.Clone(s.SoftwareVersions),
	}

	if s.GPU != nil {
		spec.GPU = &unikorn.ImageGPU{Vendor: s.GPU.Vendor, Driver: s.GPU.Driver, Models: slices.Clone(s.GPU.Models)}
	}

	return spec
}
