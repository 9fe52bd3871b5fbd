package image

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
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
	// the disk it needs, as the catalogue describes every image.
	Spec catalogue.ImageSpec
}

// Failed is the state of an image the cloud could not make.
const Failed = unikorn.ImageFailed

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
		Spec:           catalogue.ImageSpecOf(in.Spec),
	}
}

// createSpec is what an import from uri asks region to make: spec but its size, which
// region measures.
func createSpec(spec catalogue.ImageSpec, uri string) unikorn.ImageCreateSpec {
	wire := spec.Wire()

	return unikorn.ImageCreateSpec{
		URI: uri, Architecture: wire.Architecture, Virtualization: wire.Virtualization, OS: wire.OS,
		SoftwareVersions: wire.SoftwareVersions, GPU: wire.GPU,
	}
}
