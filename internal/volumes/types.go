package volumes

import (
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Volume is a block volume as region has it.
type Volume struct {
	Metadata  cloud.ProjectMetadata
	NetworkID string
	RegionID  string
	ClassID   string
	SizeGiB   int64
	// ObservedSizeGiB is the size region's back end reports, nil until it has seen
	// the volume made.
	ObservedSizeGiB *int64
	// AttachedAt is when a server claimed the volume, nil while none holds it (and
	// always from a region older than the attribute).
	AttachedAt *time.Time
}

// Class is a volume class: of which region, what sizes it takes, which flavors' servers
// may attach its volumes, and what it advertises.
type Class struct {
	ID          string
	Name        string
	Description string
	RegionID    string
	// MinimumSizeGiB and MaximumSizeGiB bound a volume's size; nil where the region
	// sets no bound.
	MinimumSizeGiB *int64
	MaximumSizeGiB *int64
	// SupportedFlavorIDs are the flavors whose instances may attach the class's
	// volumes; compute refuses every attachment of a class that names none.
	SupportedFlavorIDs []string
	// Media is hdd, ssd or nvme; empty when the region does not say.
	Media     string
	Encrypted bool
	// MaxIOPS and MaxThroughputMiBps are advertised caps; nil when not published.
	MaxIOPS            *int
	MaxThroughputMiBps *int
}

// Create is what a new volume is: where (its network, and so its organization,
// project and region), of which class and size, all fixed for its life.
type Create struct {
	Metadata  cloud.WriteMetadata
	NetworkID string
	ClassID   string
	SizeGiB   int64
}

// wire is the create as region takes it.
func (c Create) wire() unikorn.VolumeCreate {
	return unikorn.VolumeCreate{
		Metadata: c.Metadata.Wire(),
		Spec:     unikorn.VolumeSpec{NetworkID: c.NetworkID, VolumeClassID: c.ClassID, SizeGiB: c.SizeGiB},
	}
}

// fromWire is region's volume in the façade's terms.
func fromWire(in *unikorn.Volume) *Volume {
	return &Volume{
		Metadata:        cloud.ProjectMetadataOf(&in.Metadata),
		NetworkID:       in.Spec.NetworkID,
		RegionID:        in.Status.RegionID,
		ClassID:         in.Spec.VolumeClassID,
		SizeGiB:         in.Spec.SizeGiB,
		ObservedSizeGiB: in.Status.SizeGiB,
		AttachedAt:      in.Status.AttachedAt,
	}
}

// classFromWire is region's volume class in the façade's terms.
func classFromWire(in *unikorn.VolumeClass) *Class {
	class := &Class{
		ID: in.Metadata.ID, Name: in.Metadata.Name, Description: in.Metadata.Description, RegionID: in.Spec.RegionID,
		MinimumSizeGiB: in.Spec.MinimumSizeGiB, MaximumSizeGiB: in.Spec.MaximumSizeGiB,
		SupportedFlavorIDs: slices.Clone(in.Spec.SupportedFlavorIDs), Media: in.Spec.Media, Encrypted: in.Spec.Encrypted,
	}

	if performance := in.Spec.Performance; performance != nil {
		class.MaxIOPS, class.MaxThroughputMiBps = performance.MaxIOPS, performance.MaxThroughputMiBps
	}

	return class
}
