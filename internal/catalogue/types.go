package catalogue

import (
	"maps"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Region is a region an organization may use.
type Region struct {
	ID   string
	Name string
	// Type is the kind of cloud behind the region, e.g. "openstack".
	Type string
}

// Flavor is a size of machine a region offers. Memory is in GiB, Disk in GB.
type Flavor struct {
	ID           string
	Name         string
	CPUs         int
	Memory       int
	Disk         int
	Architecture string
	Baremetal    bool
	// GPU is what GPUs the flavor carries; nil for none.
	GPU *FlavorGPU
}

// FlavorGPU is the GPUs of a flavor. Memory is in GiB.
type FlavorGPU struct {
	Vendor string
	Model  string
	Memory int
	// Count is the physical GPUs, which quota counts.
	Count int
}

// Image is an image a region offers an organization: its own, or one it may use.
type Image struct {
	ID   string
	Name string
	// InstanceID is the instance a snapshot image was made from, from its provenance
	// tag; empty for other images.
	InstanceID   string
	Status       string
	CreationTime time.Time
	// Tags are all of the image's tags by name, those the platform sets too.
	Tags map[string]string
	Spec ImageSpec
}

// ImageSpec is what an image is for, as region describes it.
type ImageSpec struct {
	Architecture   string
	Virtualization string
	// SizeGiB is the disk the image needs, which region measures once it has the image.
	SizeGiB          int
	OS               ImageOS
	SoftwareVersions map[string]string
	// GPU is the GPU the image's drivers are for; nil for none.
	GPU *ImageGPU
}

// ImageOS is the operating system an image holds.
type ImageOS struct {
	Kernel   string
	Family   string
	Distro   string
	Variant  string
	Codename string
	Version  string
}

// ImageGPU is the GPU an image's drivers are for.
type ImageGPU struct {
	Vendor string
	Driver string
	Models []string
}

// ImageQuery selects the images of a region a list shows.
type ImageQuery struct {
	// OrganizationIDs are the organizations whose view is listed.
	OrganizationIDs []string
	// Scope is ImageScopeOwned for the organization's own images, empty for all it
	// may use.
	Scope string
	// Status are the states listed (see ImageReady); empty for region's default.
	Status []string
}

func regionFromWire(in *unikorn.Region) *Region {
	return &Region{ID: in.Metadata.ID, Name: in.Metadata.Name, Type: in.Spec.Type}
}

func flavorFromWire(in *unikorn.Flavor) *Flavor {
	flavor := &Flavor{
		ID: in.Metadata.ID, Name: in.Metadata.Name, CPUs: in.Spec.CPUs, Memory: in.Spec.Memory, Disk: in.Spec.Disk,
		Architecture: in.Spec.Architecture, Baremetal: in.Spec.Baremetal,
	}

	if gpu := in.Spec.GPU; gpu != nil {
		flavor.GPU = &FlavorGPU{Vendor: gpu.Vendor, Model: gpu.Model, Memory: gpu.Memory, Count: gpu.PhysicalCount}
	}

	return flavor
}

func imageFromWire(in *unikorn.Image) *Image {
	instanceID, _ := in.Metadata.Tags.Get(cloud.SnapshotInstanceIDTag)

	return &Image{
		ID: in.Metadata.ID, Name: in.Metadata.Name, InstanceID: instanceID, Status: in.Status.State,
		CreationTime: in.Metadata.CreationTime, Tags: cloud.TagMap(cloud.TagsFromWire(in.Metadata.Tags)),
		Spec: ImageSpecOf(in.Spec),
	}
}

// ImageSpecOf is region's description of an image in the façade's terms; the image
// family reads its images' with it too.
func ImageSpecOf(in unikorn.ImageSpec) ImageSpec {
	spec := ImageSpec{
		Architecture: in.Architecture, Virtualization: in.Virtualization, SizeGiB: in.SizeGiB,
		OS: ImageOS(in.OS), SoftwareVersions: maps.Clone(in.SoftwareVersions),
	}

	if in.GPU != nil {
		spec.GPU = &ImageGPU{Vendor: in.GPU.Vendor, Driver: in.GPU.Driver, Models: slices.Clone(in.GPU.Models)}
	}

	return spec
}

// Wire is the description as region has it.
func (s ImageSpec) Wire() unikorn.ImageSpec {
	spec := unikorn.ImageSpec{
		Architecture: s.Architecture, Virtualization: s.Virtualization, SizeGiB: s.SizeGiB,
		OS: unikorn.ImageOS(s.OS), SoftwareVersions: maps.Clone(s.SoftwareVersions),
	}

	if s.GPU != nil {
		spec.GPU = &unikorn.ImageGPU{Vendor: s.GPU.Vendor, Driver: s.GPU.Driver, Models: slices.Clone(s.GPU.Models)}
	}

	return spec
}

func (q ImageQuery) wire() unikorn.ImageQuery {
	return unikorn.ImageQuery{
		OrganizationIDs: slices.Clone(q.OrganizationIDs), Scope: q.Scope, Status: slices.Clone(q.Status),
	}
}
