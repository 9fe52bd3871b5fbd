package compute

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
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

// Validate implements Instances. Beyond the placement, it checks at plan that the
// token may call region's server API at all, which only service accounts and platform administrators may, and
// refuses volumes, which region's servers do not attach (RegionAttachesNoVolumes).
func (r *RegionInstances) Validate(ctx context.Context, spec Spec) (*Location, error) {
	placement, err := r.service.Validate(ctx, spec)
	if err = regionRefusesVolumes(spec, err); err != nil {
		return nil, err
	}

	if err := r.service.checkServiceRights(ctx, placement.Network); err != nil {
		return nil, serviceRights(err)
	}

	return placement.location(), nil
}

// ValidateUpdate implements Instances.
func (r *RegionInstances) ValidateUpdate(ctx context.Context, spec Spec) error {
	return regionRefusesVolumes(spec, r.service.ValidateUpdate(ctx, spec))
}

// Create implements Instances.
func (r *RegionInstances) Create(ctx context.Context, spec Spec) (*Instance, error) {
	if err := regionRefusesVolumes(spec, nil); err != nil {
		return nil, err
	}

	instance, err := r.service.Create(ctx, spec)

	return instance, serviceRights(err)
}

// WaitReady implements Instances.
func (r *RegionInstances) WaitReady(ctx context.Context, instance *Instance) (*Instance, error) {
	ready, err := r.service.WaitReady(ctx, instance)

	return ready, serviceRights(err)
}

// Get implements Instances.
func (r *RegionInstances) Get(ctx context.Context, ref Ref) (*Instance, error) {
	instance, err := r.service.Get(ctx, ref)

	return instance, serviceRights(err)
}

// Lookup implements Instances. An instance's ID derives from its network and name, so
// a look-up by name is one by ID.
func (r *RegionInstances) Lookup(ctx context.Context, ref Ref, name string) (*Instance, error) {
	ref, err := byName(ref, name)
	if err != nil {
		return nil, err
	}

	return r.Get(ctx, ref)
}

// byName is ref with the ID of the instance called name on ref's network: both back
// ends derive an instance's ID from its network and name.
func byName(ref Ref, name string) (Ref, error) {
	id, err := unikorn.DeriveServerID(ref.NetworkID, name)
	if err != nil {
		return ref, &ValidationError{Problems: []Problem{{Field: FieldNetworkID, Summary: "Invalid network ID", Detail: err.Error()}}}
	}

	ref.ID = id

	return ref, nil
}

// Update implements Instances.
func (r *RegionInstances) Update(ctx context.Context, ref Ref, spec Spec) (*Instance, error) {
	if err := regionRefusesVolumes(spec, nil); err != nil {
		return nil, err
	}

	instance, err := r.service.Update(ctx, ref, spec)

	return instance, serviceRights(err)
}

// Delete implements Instances. The region back end's handle is the ID of the quota
// allocation, which cannot be found once the server that names it is gone. The server
// is found again by its tag, as only a read can say which server is the instance's.
func (r *RegionInstances) Delete(ctx context.Context, last *Instance, handle Handle) error {
	return serviceRights(r.service.delete(ctx, last.Ref(), string(handle), last.CreateAnswered))
}

// List implements Instances.
func (r *RegionInstances) List(ctx context.Context, query ListQuery) (*Listing, error) {
	listing, err := r.service.List(ctx, query)

	return listing, serviceRights(err)
}

// Power implements Instances.
func (r *RegionInstances) Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error) {
	instance, err := r.service.Power(ctx, ref, op, progress)

	return instance, serviceRights(err)
}

// Snapshot implements Instances.
func (r *RegionInstances) Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*image.Image, error) {
	made, err := r.service.Snapshot(ctx, ref, request, progress)

	return made, serviceRights(err)
}

// SSHKey implements Instances.
func (r *RegionInstances) SSHKey(ctx context.Context, ref Ref) (string, error) {
	key, err := r.service.SSHKey(ctx, ref)

	return key, serviceRights(err)
}

// ConsoleOutput implements Instances.
func (r *RegionInstances) ConsoleOutput(ctx context.Context, ref Ref, lines int) (string, error) {
	output, err := r.service.ConsoleOutput(ctx, ref, lines)

	return output, serviceRights(err)
}

// ServiceRightsError means region refused its server API to the token: in Unikorn only
// the compute service's own account may call it, so an ordinary user's token cannot
// use the region back end at all, whatever its roles in the project.
type ServiceRightsError struct {
	Err error
}

func (e *ServiceRightsError) Error() string {
	return fmt.Sprintf("region's server API refused the token (%v)", e.Err)
}

func (e *ServiceRightsError) Unwrap() error { return e.Err }

// rightsProbe is one probe of region's server API; err is its answer once done is
// closed.
type rightsProbe struct {
	done chan struct{}
	err  error
}

// checkServiceRights asks region's server API, once per network and process, whether
// it answers the token. Identity's allocation API, which the saga writes to first,
// refuses a user's token with the same 403 it gives an organization over quota; asking
// region first tells the user the real reason before anything is charged. Terraform
// plans and creates ten instances at once: they wait for one probe rather than send
// ten. A probe that fails is tried again by the next caller.
func (s *Service) checkServiceRights(ctx context.Context, network *unikorn.Network) error {
	id := network.Metadata.ID

	s.rightsMu.Lock()
	probe, sent := s.rights[id]

	if !sent {
		probe = &rightsProbe{done: make(chan struct{})}
		s.rights[id] = probe
	}
	s.rightsMu.Unlock()

	if sent {
		select {
		case <-probe.done:
			return probe.err
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}

	// The answer is shared, so one caller's cancellation must not become everyone's.
	_, probe.err = s.client.ListServers(context.WithoutCancel(ctx), unikorn.ServerQuery{
		OrganizationIDs: []string{network.Metadata.OrganizationID},
		ProjectIDs:      []string{network.Metadata.ProjectID},
		NetworkIDs:      []string{id},
		// A tag no instance carries: the answer is the right to list, not a list.
		Tags: unikorn.Tags{{Name: InstanceIDTag, Value: id}},
	})

	if probe.err != nil {
		s.rightsMu.Lock()
		delete(s.rights, id)
		s.rightsMu.Unlock()
	}

	close(probe.done)

	return probe.err
}

// serviceRights tells a 403 from region's server API from the other 403s. A read that
// lost access to one instance (AccessError) is about that instance, not the token's
// rights, and says so itself.
func serviceRights(err error) error {
	var (
		apiErr *unikorn.APIError
		access *AccessError
	)

	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusForbidden &&
		strings.HasPrefix(apiErr.Path, "/api/v2/servers") && !errors.As(err, &access) {
		return &ServiceRightsError{Err: err}
	}

	return err
}
