package volumes

import (
	"cmp"
	"math"
	"reflect"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Volumes follow region's handler (pkg/handler/volume client.go) behind the v1.25
// line's document: a create reads the network (404 when absent, 403 for another
// tenant's), checks the caller may create volumes in its project, checks the class and
// size against the network's region (422), charges the size in GiB to the `volume`
// quota and answers 202 with the volume pending; a read of another project's volume is
// 403; an update replaces the metadata alone, under an optimistic lock on the version
// the handler's cache read (409), and answers 200; a delete of an attached volume is
// 403 (the handler's word; the document promises 409), a repeated one 202.

func volumeMetadata(r *record) *unikorn.ProjectScopedMetadata {
	return &r.Volume.Metadata
}

// list is region's list, filtered by what the caller may read and sorted by name, then
// ID.
func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	listed := core.SelectList(q, req.Caller, rbacVolumes, volumes.Records(req.Store), func(r *record) (unikorn.Volume, core.Listing) {
		return *r.render(), core.ProjectListing(&r.Volume.Metadata, r.Volume.Status.RegionID, r.Volume.Spec.NetworkID)
	})

	slices.SortStableFunc(listed, func(a, b unikorn.Volume) int {
		return cmp.Or(cmp.Compare(a.Metadata.Name, b.Metadata.Name), cmp.Compare(a.Metadata.ID, b.Metadata.ID))
	})

	return core.OK(listed), nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := core.Lookup(volumes.Records(req.Store), req.PathValue("volumeID"), req.Caller, volumeMetadata, rbacVolumes, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.render()), nil
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.VolumeCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith("spec", "spec.networkId", "spec.volumeClassId", "spec.sizeGiB")...); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/networkId", spec.NetworkID); err != nil {
		return nil, err
	}

	if spec.SizeGiB < 1 {
		return nil, core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/sizeGiB\": number must be at least 1")
	}

	// The volume's scope is its network's.
	network, err := core.LookupAs[unikorn.Network](h.s.Cached(req), spec.NetworkID, req.Caller, rbacNetworks, core.OpRead)
	if err != nil {
		return nil, err
	}

	metadata := network.Metadata

	if err := core.RequireProject(req.Store, req.Caller, metadata.OrganizationID, metadata.ProjectID, rbacVolumes, core.OpCreate); err != nil {
		return nil, err
	}

	regionID := network.Status.RegionID
	if err := checkClass(regionID, spec.VolumeClassID, spec.SizeGiB); err != nil {
		return nil, err
	}

	r := &record{
		Volume: unikorn.Volume{
			Metadata: core.ProjectMetadata(core.NewResourceID(), body.Metadata, metadata.OrganizationID, metadata.ProjectID, req.Now),
			Spec:     spec,
			Status:   unikorn.VolumeStatus{RegionID: regionID},
		},
		Lifecycle: core.ProvisionSchedule(req.Now, h.s.ProvisionDelay()),
	}

	// The create saga: the allocation, then the volume.
	allocation, err := core.Allocate(req.Store, metadata.OrganizationID, metadata.ProjectID,
		core.Charge(AllocationKind, r.Volume.Metadata.ID, unikorn.ResourceAllocation{Kind: QuotaKind, Committed: int(spec.SizeGiB)}), req.Now)
	if err != nil {
		return nil, err
	}

	r.AllocationID = allocation.Metadata.ID
	volumes.Put(req.Store, r.Volume.Metadata.ID, r)

	return core.Accepted(r.render()), nil
}

// checkClass is region's check of a class and a size against the network's region,
// in its order: a class the region lacks, a size below the class's minimum or above
// its maximum, or beyond what a quantity of bytes holds.
func checkClass(regionID, classID string, sizeGiB int64) error {
	i := slices.IndexFunc(classes, func(c unikorn.VolumeClass) bool { return c.Metadata.ID == classID && c.Spec.RegionID == regionID })
	if i < 0 {
		return core.Unprocessable("volumeClassId is not available in the Network's Region")
	}

	class := classes[i].Spec

	switch {
	case class.MinimumSizeGiB != nil && sizeGiB < *class.MinimumSizeGiB:
		return core.Unprocessable("sizeGiB is below the VolumeClass minimum")
	case class.MaximumSizeGiB != nil && sizeGiB > *class.MaximumSizeGiB:
		return core.Unprocessable("sizeGiB exceeds the VolumeClass maximum")
	case sizeGiB > math.MaxInt64/(1<<30):
		return core.Unprocessable("sizeGiB exceeds the supported maximum")
	}

	return nil
}

// update replaces a volume's metadata: network, class and size never change.
func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body unikorn.VolumeUpdate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith()...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	id := req.PathValue("volumeID")

	cached, err := core.Lookup(volumes.Records(h.s.Cached(req)), id, req.Caller, volumeMetadata, rbacVolumes, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	if cached.Volume.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("volume is being deleted")
	}

	// The patch carries the version the cache read, under an optimistic lock.
	r, ok := volumes.Get(req.Store, id)
	if !ok || !sameVersion(r, cached) {
		return nil, core.Conflict()
	}

	core.RewriteMetadata(&r.Volume.Metadata.ReadMetadata, body.Metadata, req.Now)

	return core.OK(r.render()), nil
}

// sameVersion reports whether the cache's copy of a volume is the version stored.
func sameVersion(a, b *record) bool {
	return reflect.DeepEqual(a.render(), b.render())
}

// delete starts deleting an unattached volume.
func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("volumeID")

	cached, err := core.Lookup(volumes.Records(h.s.Cached(req)), id, req.Caller, volumeMetadata, rbacVolumes, core.OpDelete)
	if err != nil {
		return nil, err
	}

	if cached.Volume.Metadata.DeletionTime != nil {
		return core.Accepted(nil), nil
	}

	r, ok := volumes.Get(req.Store, id)
	if !ok {
		return nil, core.NotFound()
	}

	// The claim is a finalizer on the volume, which the handler reads as it stands.
	if r.Claim != nil {
		return nil, core.Forbidden("volume is attached and must be detached before deletion")
	}

	core.MarkDeleting(&r.Volume.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}
