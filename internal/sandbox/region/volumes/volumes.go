// Package volumes is region's block volumes (pkg/handler/volume and the volume
// provisioner): volumes made on a network, charged by size (GiB) to the `volume` quota,
// which outlive the servers they are attached to, and the classes they are made of.
// A volume holds its network in use. A server asks for volumes in its spec; the
// volume's controller claims each volume for one server, attaches it, and reports the
// attachment on the server's status (and, on the volume, when it was attached); a
// volume no longer asked for, or whose server is being deleted, is detached and let
// go. An attached volume cannot be deleted. Region's volume paths are in no whole
// document of region's: the document of their paths alone, copied verbatim from
// upstream (region-volumes-4e37c3d.spec.yaml), judges them.
package volumes

import (
	"embed"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's block volumes.
var Family = core.Family{Name: "volumes", Register: register}

const (
	// ObjectKind is a volume's kind among the objects the sandbox holds.
	ObjectKind = "volume"
	// AllocationKind is the kind region charges a volume's quota under.
	AllocationKind = "volumes.region.unikorn-cloud.org"
	// QuotaKind is the quota a volume's size is charged to, in GiB: the kind identity
	// declares from v1.19 ("total requested block storage capacity in GiB", default
	// 0), which region's handler and identity converge on. Its default is not applied
	// to an organization that has a quota object (the fixture organization's names no
	// volume), so it limits nothing until a quota names it (`-quota volume=N`).
	QuotaKind = "volume"

	// Document is region's document of its volume paths, in this folder.
	Document = "region-volumes-4e37c3d.spec.yaml"

	rbacNetworks      = "region:networks:v2"
	rbacVolumes       = "region:volumes:v2"
	rbacVolumeClasses = "region:volumeclasses:v2"
)

//go:embed region-volumes-4e37c3d.spec.yaml
var documents embed.FS

// record is a volume as region keeps it: what was asked for, what the provider has
// made of it, and its claim by a server.
type record struct {
	Volume    unikorn.Volume `json:"volume"`
	Lifecycle core.Schedule  `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the size to the quota.
	AllocationID string `json:"allocationId"`
	// Claim is the server the volume is claimed for (spec.claimRef), empty for none.
	Claim *claim `json:"claim,omitempty"`
	// Files are what guests wrote to the volume, by path (WriteFile).
	Files map[string]string `json:"files,omitempty"`
}

// claim is a volume's claim by one server, and how far its attachment has come.
type claim struct {
	ServerID string `json:"serverId"`
	// Since is when the server claimed it: the volume's attachedAt.
	Since time.Time `json:"since"`
	// Status is the attachment's provisioning status: provisioning until the volume
	// is attached, provisioned with its device, deprovisioning while it is detached.
	Status string `json:"status"`
	Device string `json:"device,omitempty"`
	// Lifecycle is the attachment's pending transitions; one to gone releases the claim.
	Lifecycle core.Schedule `json:"lifecycle,omitempty"`
}

var volumes = &core.Kind[record]{
	Name:       "volumes",
	Noun:       "region volume",
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.Volume.Metadata },
	ObjectKind: ObjectKind,
	// A volume holds its network in use while it lasts: the sandbox refuses the
	// network's delete until its volumes are gone, where region most likely deletes
	// them with it (a sandbox choice, see DESIGN.md).
	References: func(r *record) []core.Ref {
		return []core.Ref{core.RefTo[unikorn.Network](r.Volume.Spec.NetworkID)}
	},
	Life: func(r *record) (*unikorn.ReadMetadata, *core.Schedule) {
		return &r.Volume.Metadata.ReadMetadata, &r.Lifecycle
	},
}

// handlers serve region's volume API (pkg/handler/volume).
type handlers struct {
	s *core.Server
}

func register(s *core.Server) error {
	core.Register(s, volumes)
	s.QuotaKinds(core.QuotaKind{Name: QuotaKind, DisplayName: "Volume Storage", Description: "Total requested block storage capacity in GiB."})
	core.Expose(s, volumes, core.View[record, unikorn.Volume]{
		Show: func(r *record) *unikorn.Volume { return r.render() },
		Place: func(r *record) core.Placement {
			metadata := r.Volume.Metadata

			return core.Placement{
				OrganizationID: metadata.OrganizationID, ProjectID: metadata.ProjectID,
				RegionID: r.Volume.Status.RegionID, NetworkID: r.Volume.Spec.NetworkID,
			}
		},
	})

	s.Judge(core.Contract{Document: Document, Documents: documents, Judges: judges})

	h := &handlers{s: s}
	s.Handle("GET /api/v2/volumes", h.list)
	s.Handle("POST /api/v2/volumes", h.create)
	s.Handle("GET /api/v2/volumes/{volumeID}", h.get)
	s.Handle("PUT /api/v2/volumes/{volumeID}", h.update)
	s.Handle("DELETE /api/v2/volumes/{volumeID}", h.delete)
	s.Handle("GET /api/v2/volumeclasses", h.listClasses)

	registerControlRoutes(s)

	s.Advance(func(st *core.Store, now time.Time) bool {
		return advance(st, now, delays{attach: s.ProvisionDelay() / 2, detach: s.DeprovisionDelay() / 2})
	})

	return nil
}

// judges reports whether a path is one of region's volume paths, which their own
// document judges.
func judges(path string) bool {
	return path == "/api/v2/volumes" || strings.HasPrefix(path, "/api/v2/volumes/") || path == "/api/v2/volumeclasses"
}

// render is region `volumeV2Read` of the record: the size the provider observed once
// it has made the volume, and when it was attached while a server holds it.
func (r *record) render() *unikorn.Volume {
	volume := r.Volume

	if r.Claim != nil {
		since := r.Claim.Since
		volume.Status.AttachedAt = &since
	}

	return &volume
}

// advance applies the volumes' due transitions: provisioning, deletion (which
// releases the quota once the volume is gone), and the attachments the servers ask
// for.
func advance(st *core.Store, now time.Time, delays delays) bool {
	changed := volumes.Provision(st, now, func(r *record) { core.Allocations.Delete(st, r.AllocationID) })

	for _, r := range volumes.Records(st) {
		if r.Volume.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && r.Volume.Status.SizeGiB == nil {
			size := r.Volume.Spec.SizeGiB
			r.Volume.Status.SizeGiB = &size
			changed = true
		}
	}

	return attach(st, now, delays) || changed
}
