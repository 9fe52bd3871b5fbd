package unikorn

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The volume types follow region's volume paths at upstream commit 4e37c3d
// (`region-volumes-4e37c3d.spec.yaml`, `volumeV2*` and `volumeClassV2*`); no region
// module of that version is published. Compute's instance carries the volumes attached
// to it (InstanceSpec.Volumes, InstanceStatus.Volumes).

// Volume class media (region `volumeClassV2Media`).
const (
	VolumeMediaHDD  = "hdd"
	VolumeMediaSSD  = "ssd"
	VolumeMediaNVMe = "nvme"
)

// Volume is region `volumeV2Read`.
type Volume struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     VolumeSpec            `json:"spec"`
	Status   VolumeStatus          `json:"status"`
}

// VolumeSpec is region `volumeV2Spec`: what a volume is made of, fixed at create
// (region has no resize).
type VolumeSpec struct {
	NetworkID     string `json:"networkId"`
	VolumeClassID string `json:"volumeClassId"`
	SizeGiB       int64  `json:"sizeGiB"`
}

// VolumeStatus is region `volumeV2Status`. SizeGiB appears once the region has seen
// the volume made. AttachedAt is newer than the 4e37c3d document (region sets it while
// a server holds the volume, and compute refuses to attach a volume that has it); it
// is read when a region sends it.
type VolumeStatus struct {
	RegionID   string     `json:"regionId"`
	SizeGiB    *int64     `json:"sizeGiB,omitempty"`
	AttachedAt *time.Time `json:"attachedAt,omitempty"`
}

// VolumeCreate is region `volumeV2Create`: the volume's organization, project and
// region are its network's.
type VolumeCreate struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     VolumeSpec    `json:"spec"`
}

// VolumeUpdate is region `volumeV2Update`: only the metadata changes.
type VolumeUpdate struct {
	Metadata WriteMetadata `json:"metadata"`
}

// VolumeClass is region `volumeClassV2Read`; it belongs to no organization, and its
// ID is the region's name for it, not necessarily a UUID.
type VolumeClass struct {
	Metadata StaticMetadata  `json:"metadata"`
	Spec     VolumeClassSpec `json:"spec"`
}

// VolumeClassSpec is region `volumeClassV2Spec`. Bounds and performance are absent
// when the region publishes none. SupportedFlavorIDs is the flavors whose servers may
// attach volumes of the class: the document reads none as no restriction, compute
// as no flavor (it refuses every attachment).
type VolumeClassSpec struct {
	RegionID           string             `json:"regionId"`
	MinimumSizeGiB     *int64             `json:"minimumSizeGiB,omitempty"`
	MaximumSizeGiB     *int64             `json:"maximumSizeGiB,omitempty"`
	SupportedFlavorIDs []string           `json:"supportedFlavorIds,omitempty"`
	Media              string             `json:"media,omitempty"`
	Performance        *VolumePerformance `json:"performance,omitempty"`
	Encrypted          bool               `json:"encrypted"`
}

// VolumePerformance is region `volumeClassV2Performance`: advertised caps, not
// reservations.
type VolumePerformance struct {
	MaxIOPS            *int `json:"maxIOPS,omitempty"`
	MaxThroughputMiBps *int `json:"maxThroughputMiBps,omitempty"`
}

// InstanceVolumeStatus is compute `instanceVolumeStatus`: one attachment as compute
// reports it, including one still being removed.
type InstanceVolumeStatus struct {
	ID                 string `json:"id"`
	ProvisioningStatus string `json:"provisioningStatus"`
	Device             string `json:"device,omitempty"`
	Message            string `json:"message,omitempty"`
}

// VolumeQuery filters `GET /api/v2/volumes` as ServerQuery filters servers.
type VolumeQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
	NetworkIDs      []string
}

func (q VolumeQuery) values() url.Values { return scopeFilter(q).values() }

// ListVolumes lists the volumes matching q, by name and then ID.
func (c *Client) ListVolumes(ctx context.Context, q VolumeQuery) ([]Volume, error) {
	return callList[Volume](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/volumes").withQuery(q.values()))
}

// CreateVolume creates a volume on a network; region charges its size to the
// organization's quota and answers 202 while the volume is still pending.
func (c *Client) CreateVolume(ctx context.Context, create VolumeCreate) (*Volume, error) {
	return callObject[Volume](ctx, c, c.op(services.Region, http.MethodPost, http.StatusAccepted, "/api/v2/volumes").withBody(create))
}

// GetVolume returns a volume; another project's answers 403.
func (c *Client) GetVolume(ctx context.Context, id string) (*Volume, error) {
	return callObject[Volume](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/volumes/%s", id))
}

// UpdateVolume replaces a volume's metadata, under an optimistic lock on the version
// region read (409 when that was out of date); it answers 200 with the volume.
func (c *Client) UpdateVolume(ctx context.Context, id string, update VolumeUpdate) (*Volume, error) {
	return callObject[Volume](ctx, c, c.op(services.Region, http.MethodPut, http.StatusOK, "/api/v2/volumes/%s", id).withBody(update))
}

// DeleteVolume starts deleting a volume; one attached to a server is refused (403 by
// region's handler, 409 by its document).
func (c *Client) DeleteVolume(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/volumes/%s", id))
}

// ListVolumeClasses lists the volume classes of the given regions, or of every region
// the token sees when none is given; a region it does not see is left out, never an
// error.
func (c *Client) ListVolumeClasses(ctx context.Context, regionIDs ...string) ([]VolumeClass, error) {
	return callList[VolumeClass](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/volumeclasses").withQuery(inRegions(regionIDs)))
}
