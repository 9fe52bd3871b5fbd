package compute

import (
	"context"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// RegionInstances is the region back end of Instances: Service's saga over region's servers and
// identity's allocations. It only translates Service's answers into the types the
// interface promises, so that the saga itself keeps speaking Unikorn.
type RegionInstances struct {
	service *Service
}

var _ Instances = (*RegionInstances)(nil)

// NewRegionInstances returns the region back end over a Service.
func NewRegionInstances(service *Service) *RegionInstances {
	return &RegionInstances{service: service}
}

// Validate implements Instances.
func (r *RegionInstances) Validate(ctx context.Context, spec Spec) (*Location, error) {
	placement, err := r.service.Validate(ctx, spec)
	if err != nil {
		return nil, err
	}

	return &Location{
		OrganizationID: placement.Network.Metadata.OrganizationID,
		ProjectID:      placement.Network.Metadata.ProjectID,
		RegionID:       placement.Network.Status.RegionID,
	}, nil
}

// ValidateUpdate implements Instances.
func (r *RegionInstances) ValidateUpdate(ctx context.Context, spec Spec) error {
	return r.service.ValidateUpdate(ctx, spec)
}

// Create implements Instances.
func (r *RegionInstances) Create(ctx context.Context, spec Spec) (*Instance, error) {
	return r.service.Create(ctx, spec)
}

// WaitReady implements Instances.
func (r *RegionInstances) WaitReady(ctx context.Context, instance *Instance) (*Instance, error) {
	return r.service.WaitReady(ctx, instance)
}

// Get implements Instances.
func (r *RegionInstances) Get(ctx context.Context, ref Ref) (*Instance, error) {
	return r.service.Get(ctx, ref)
}

// Lookup implements Instances. An instance's ID derives from its network and name, so
// a look-up by name is one by ID.
func (r *RegionInstances) Lookup(ctx context.Context, ref Ref, name string) (*Instance, error) {
	id, err := unikorn.DeriveServerID(ref.NetworkID, name)
	if err != nil {
		return nil, &ValidationError{Problems: []Problem{{Field: FieldNetworkID, Summary: "Invalid network ID", Detail: err.Error()}}}
	}

	ref.ID = id

	return r.service.Get(ctx, ref)
}

// Update implements Instances.
func (r *RegionInstances) Update(ctx context.Context, ref Ref, spec Spec) (*Instance, error) {
	return r.service.Update(ctx, ref, spec)
}

// Delete implements Instances. The region back end's handle is the ID of the quota
// allocation, which cannot be found once the server that names it is gone.
func (r *RegionInstances) Delete(ctx context.Context, ref Ref, handle Handle) error {
	return r.service.Delete(ctx, ref, string(handle))
}

// List implements Instances.
func (r *RegionInstances) List(ctx context.Context, query ListQuery) (*Listing, error) {
	return r.service.List(ctx, query)
}

// Power implements Instances.
func (r *RegionInstances) Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error) {
	return r.service.Power(ctx, ref, op, progress)
}

// Snapshot implements Instances.
func (r *RegionInstances) Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*Image, error) {
	image, err := r.service.Snapshot(ctx, ref, request, progress)
	if err != nil {
		return nil, err
	}

	return imageFromRegion(image), nil
}

// SSHKey implements Instances.
func (r *RegionInstances) SSHKey(ctx context.Context, ref Ref) (string, error) {
	return r.service.SSHKey(ctx, ref)
}

// ConsoleOutput implements Instances.
func (r *RegionInstances) ConsoleOutput(ctx context.Context, ref Ref, lines int) (string, error) {
	return r.service.ConsoleOutput(ctx, ref, lines)
}

func imageFromRegion(image *unikorn.Image) *Image {
	return &Image{
		ID:           image.Metadata.ID,
		Name:         image.Metadata.Name,
		Description:  image.Metadata.Description,
		Status:       image.Status.State,
		CreationTime: image.Metadata.CreationTime,
		Tags:         SnapshotTags(image),
	}
}
