package compute

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ComputeInstances is the compute back end of Instances: compute's public instance API,
// which any project member may call. The compute service runs the saga itself (quota,
// hidden server, tag), so this back end only sends the instance and keeps the rules of
// the façade around it: the same validation at plan, the same waits on the same poll
// grid, nothing called gone without a definite answer, a write whose answer was lost
// read back rather than repeated. Its handle is always empty: compute releases the
// quota of an instance itself.
type ComputeInstances struct {
	service   *Service
	client    *unikorn.Client
	instances *sharedLists[unikorn.Instance]
}

var _ Instances = (*ComputeInstances)(nil)

// NewComputeInstances returns the compute back end over a Service, whose client must
// know the compute endpoint. It shares the Service's catalogue and poll grid.
func NewComputeInstances(service *Service) *ComputeInstances {
	c := &ComputeInstances{service: service, client: service.client}
	c.instances = newSharedLists(c.listScope, DefaultReadGathering)
	c.instances.shareRecent(service.lookupWindow(), service.client, service.Now)

	return c
}

// listScope lists the instances of one network; a lone reader asks for its instance
// alone, which one request answers as well as a list. That read's 404 is an
// absentError: a direct read's answer, which a confirmation need not ask again.
func (c *ComputeInstances) listScope(ctx context.Context, sc scope, only string) ([]unikorn.Instance, error) {
	if only != "" {
		instance, err := readAlone(ctx, only, c.client.GetInstance)
		if err != nil {
			return nil, err
		}

		return []unikorn.Instance{*instance}, nil
	}

	return c.client.ListInstances(ctx, unikorn.InstanceQuery{
		OrganizationIDs: []string{sc.organizationID},
		ProjectIDs:      []string{sc.projectID},
		RegionIDs:       []string{sc.regionID},
		NetworkIDs:      []string{sc.networkID},
	})
}

// Validate implements Instances: compute's handler checks what the façade checks, as
// the same user, so a plan reports it first.
func (c *ComputeInstances) Validate(ctx context.Context, spec Spec) (*Location, error) {
	placement, err := c.validate(ctx, spec, true)
	if err != nil {
		return nil, err
	}

	return placement.location(), nil
}

// ValidateUpdate implements Instances.
func (c *ComputeInstances) ValidateUpdate(ctx context.Context, spec Spec) error {
	_, err := c.validate(ctx, spec, false)

	return err
}

// validate is the Service's validation and what compute checks of the volumes.
func (c *ComputeInstances) validate(ctx context.Context, spec Spec, placing bool) (*Placement, error) {
	placement, err := c.service.validate(ctx, spec, placing)

	return placement, c.checkVolumes(ctx, spec, placement, err)
}

// Create implements Instances. A create whose answer was lost is never sent again:
// the instance's ID derives from its network and name, so it is looked for, past the
// read lag, and adopted when it is the one asked for.
func (c *ComputeInstances) Create(ctx context.Context, spec Spec) (*Instance, error) {
	placement, err := c.validate(ctx, spec, true)
	if err != nil {
		return nil, err
	}

	at, err := attaching(spec, placement)
	if err != nil {
		return nil, err
	}

	network := placement.Network

	id, err := unikorn.DeriveServerID(network.Metadata.ID, spec.Name)
	if err != nil {
		return nil, err
	}

	ctx = unikorn.Concerning(ctx, id)

	location := placement.location()
	ref := Ref{
		ID: id, OrganizationID: location.OrganizationID, ProjectID: location.ProjectID,
		RegionID: location.RegionID, NetworkID: network.Metadata.ID,
	}

	// Seen through even when Terraform is interrupted, as every write is (see
	// Service.Create); only waiting for the volumes to be free stops.
	waits := ctx
	ctx = context.WithoutCancel(ctx)

	create := unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: spec.Name, Description: spec.Description, Tags: serverTags(spec.Tags)},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   instanceSpec(spec, nil),
			OrganizationID: ref.OrganizationID,
			ProjectID:      ref.ProjectID,
			NetworkID:      ref.NetworkID,
		},
	}

	var created *unikorn.Instance

	// A volume the instance this one replaces held is attached once it is let go.
	answered, err := c.sendAttaching(waits, at, spec.VolumeIDs, func() error {
		var err error
		created, err = c.client.CreateInstance(ctx, create)

		return err
	})
	if !answered {
		return nil, err
	}

	switch {
	case err == nil:
		instance := instanceFromCompute(created)
		instance.CreateAnswered = time.Now()

		return instance, nil
	case unikorn.IsConflict(err):
		return nil, &NameTakenError{
			Name: spec.Name, NetworkID: ref.NetworkID, InstanceID: id,
			OrganizationID: ref.OrganizationID, ProjectID: ref.ProjectID, Err: err,
		}
	case cloud.IsQuotaRefusal(err):
		// Compute charges the quota first and refuses with 403 when it is spent; its
		// other 403s are RBAC's, which the body tells apart.
		return nil, &QuotaError{Err: err}
	case cloud.IsClientError(err):
		// The catalogue cache may have let through what has changed since (see
		// Service.Create).
		c.service.references.forgetPlacement(network, spec)

		return nil, fmt.Errorf("creating the instance: %w", err)
	}

	var existing *Instance

	findErr := c.service.Persist(ctx, func(ctx context.Context) error {
		var err error
		existing, err = c.Get(ctx, ref)

		return err
	})

	switch {
	case findErr == nil && existing.Spec.FlavorID == spec.FlavorID && existing.Spec.ImageID == spec.ImageID:
		return existing, nil
	case findErr == nil:
		return nil, &NameTakenError{
			Name: spec.Name, NetworkID: ref.NetworkID, InstanceID: id,
			OrganizationID: ref.OrganizationID, ProjectID: ref.ProjectID, Err: err,
		}
	case errors.Is(findErr, ErrNotFound):
		return nil, fmt.Errorf("creating the instance: %w (it was not created)", err)
	default:
		// Its fate is unknown: it is returned to be tracked, so that the next run reads
		// it and either adopts it or, definitely gone, forgets it.
		return &Instance{ID: id, OrganizationID: ref.OrganizationID, ProjectID: ref.ProjectID, RegionID: ref.RegionID, Spec: spec},
			&CompensationError{
				Err:  fmt.Errorf("creating the instance: %w", err),
				Undo: "reading back whether instance " + id + " was created", UndoErr: findErr,
			}
	}
}

// WaitReady implements Instances.
func (c *ComputeInstances) WaitReady(ctx context.Context, instance *Instance) (*Instance, error) {
	what := "instance " + instance.ID + " to be provisioned and running"
	if len(instance.Spec.VolumeIDs) > 0 {
		what += ", its volumes attached"
	}

	return c.service.waitInstance(ctx, instance, what, instance.change(changeReady), c.read, func(candidate *Instance) (bool, error) {
		done, err := candidate.attached()

		return candidate.Ready() && done, err
	})
}

// read reads the instance afresh (an instanceReader). Within a known scope the read
// shares one list of the network's instances with the reads of every other instance
// there.
func (c *ComputeInstances) read(ctx context.Context, instance *Instance) (*Instance, error) {
	return c.readFrom(ctx, instance, c.instances.read)
}

// readFrom reads the instance from the shared list that read gives, or directly when
// the instance's scope is not known.
func (c *ComputeInstances) readFrom(ctx context.Context, instance *Instance,
	read func(context.Context, scope, string) ([]unikorn.Instance, error),
) (*Instance, error) {
	ref := instance.Ref()

	sc, ok := scopeOf(ref)
	if !ok {
		return c.readDirect(ctx, ref)
	}

	instances, err := read(ctx, sc, ref.ID)
	if err != nil {
		return nil, err
	}

	for i := range instances {
		if instances[i].Metadata.ID == ref.ID {
			return instanceFromCompute(&instances[i]), nil
		}
	}

	return nil, nil
}

// readDirect asks for the instance itself: nil when it is not there or lies outside
// the scope ref names.
func (c *ComputeInstances) readDirect(ctx context.Context, ref Ref) (*Instance, error) {
	instance, err := c.getInScope(ctx, ref)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return instance, err
}

// getInScope reads the instance, or nil when the one read lies outside the scope ref
// names (which is not there for this caller); a 404 stays an error.
func (c *ComputeInstances) getInScope(ctx context.Context, ref Ref) (*Instance, error) {
	wire, err := c.client.GetInstance(ctx, ref.ID)
	if err != nil {
		return nil, err
	}

	if instance := instanceFromCompute(wire); instance.inScope(ref) {
		return instance, nil
	}

	return nil, nil
}

// confirmGone checks a read that missed the instance against direct reads until
// settled (see Service.confirmGoneBy).
func (c *ComputeInstances) confirmGone(ctx context.Context, ref Ref, settled time.Time, answered *absentError) (*Instance, error) {
	return c.service.confirmGoneBy(ctx, ref, "the instance itself", settled, answered, func(ctx context.Context) (*Instance, error) {
		return c.getInScope(ctx, ref)
	})
}

// Get implements Instances. It may share a list of the network that another look-up
// has just made (see sharedLists.readRecent).
func (c *ComputeInstances) Get(ctx context.Context, ref Ref) (*Instance, error) {
	instance, err := c.readFrom(ctx, Seen(ref, "", time.Time{}), c.instances.readRecent)
	if err != nil || instance != nil {
		return instance, err
	}

	return c.confirmGone(ctx, ref, c.service.UnseenSettled(), nil)
}

// Lookup implements Instances. Compute derives an instance's ID from its network and
// name, as the region back end does.
func (c *ComputeInstances) Lookup(ctx context.Context, ref Ref, name string) (*Instance, error) {
	ref, err := byName(ref, name)
	if err != nil {
		return nil, err
	}

	return c.Get(ctx, ref)
}

// Update implements Instances. Compute replaces the description, tags and spec as a
// whole, so the request carries what cannot change in place as it is. It is done when
// a read shows the change and compute has provisioned it onto the server.
func (c *ComputeInstances) Update(ctx context.Context, ref Ref, spec Spec) (*Instance, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	current, err := readAndCheck(ctx, ref, spec, c.Get, c.ValidateUpdate)
	if err != nil {
		return nil, err
	}

	if !needsUpdate(current, spec) {
		return current, nil
	}

	unchangeable := current.Spec
	unchangeable.Description, unchangeable.Tags = spec.Description, spec.Tags
	unchangeable.SecurityGroupIDs, unchangeable.PublicIP, unchangeable.AllowedSourceAddresses =
		spec.SecurityGroupIDs, spec.PublicIP, spec.AllowedSourceAddresses
	unchangeable.VolumeIDs = spec.VolumeIDs

	// Sent even when Terraform is interrupted; only the wait that follows stops.
	writes := context.WithoutCancel(ctx)
	update := unikorn.InstanceUpdate{
		Metadata: unikorn.WriteMetadata{Name: current.Spec.Name, Description: spec.Description, Tags: serverTags(spec.Tags)},
		Spec:     instanceSpec(unchangeable, current.Spec.VolumeIDs),
	}

	// A volume moved here from another instance in the same apply is attached once
	// that instance lets it go.
	answered, err := c.sendAttaching(ctx, current.attaching(), added(current.Spec.VolumeIDs, spec.VolumeIDs), func() error {
		_, err := c.client.UpdateInstance(writes, current.ID, update)

		return err
	})
	if !answered {
		return nil, err
	}

	// A read that trails the update shows the volumes asked for before it: their
	// attachments say nothing of the update's until the read shows its set.
	landed := func(candidate *Instance) (bool, error) {
		if needsUpdate(candidate, spec) {
			return false, nil
		}

		done, err := candidate.attached()

		return candidate.realized() && done, err
	}

	switch {
	case err == nil:
	case cloud.IsQuotaRefusal(err):
		return nil, &QuotaError{Err: err, Charged: true}
	case !cloud.IsClientError(err) && c.service.settles(writes, func(ctx context.Context) bool {
		candidate, err := c.readDirect(ctx, current.Ref())

		return err == nil && candidate != nil && !needsUpdate(candidate, spec)
	}):
		// The answer was lost, not the update: wait for it as for any other.
	default:
		return nil, fmt.Errorf("updating the instance: %w", err)
	}

	return c.service.waitInstance(ctx, current, "the update of instance "+current.ID+" to take effect", current.change(changeUpdated), c.read, landed)
}

// Delete implements Instances. Compute deletes the server first and releases the quota
// once it is gone; the instance reads as deprovisioning until then.
//
// Compute deletes by ID, so the delete goes out at once when last holds what its wait
// needs (Terraform refreshes an instance before it destroys it): a read first would
// add a round trip to every deletion. Its 404 says gone as a read's would once the
// instance is older than the read lag; a younger one is read to be sure.
func (c *ComputeInstances) Delete(ctx context.Context, last *Instance, _ Handle) error {
	ctx = unikorn.Concerning(ctx, last.ID)
	instance := last

	if last.CreationTime.IsZero() || last.Spec.FlavorID == "" {
		read, err := c.Get(ctx, last.Ref())

		switch {
		case errors.Is(err, ErrNotFound):
			return nil
		case err != nil:
			return err
		}

		instance = read
	}

	sent := time.Now()
	err := c.client.DeleteInstance(context.WithoutCancel(ctx), instance.ID)

	switch {
	case err == nil:
	case !unikorn.IsNotFound(err):
		return fmt.Errorf("deleting the instance: %w", err)
	case instance == last && cloud.Unsettled(sent, c.service.SeenSettled(instance.creation())):
		// Too young for its 404 to be believed: read it first, as if nothing were known.
		return c.Delete(ctx, Seen(instance.Ref(), "", time.Time{}), "")
	default:
		return nil
	}

	return c.service.waitGone(ctx, instance, "instance "+instance.ID, c.read, c.confirmGone)
}

// List implements Instances. Compute shows no instance twice, so there are no
// conflicts to report.
func (c *ComputeInstances) List(ctx context.Context, query ListQuery) (*Listing, error) {
	instances, err := c.client.ListInstances(ctx, unikorn.InstanceQuery{
		Tags:            serverTags(query.Tags),
		OrganizationIDs: cloud.Only(query.OrganizationID),
		ProjectIDs:      cloud.Only(query.ProjectID),
		RegionIDs:       cloud.Only(query.RegionID),
		NetworkIDs:      cloud.Only(query.NetworkID),
	})
	if err != nil {
		return nil, err
	}

	listing := &Listing{}

	for i := range instances {
		if instances[i].Metadata.ProvisioningStatus != unikorn.ProvisioningDeprovisioning {
			listing.Instances = append(listing.Instances, instanceFromCompute(&instances[i]))
		}
	}

	sortInstances(listing.Instances)

	return listing, nil
}

// Power implements Instances.
func (c *ComputeInstances) Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	instance, err := c.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	return c.service.power(ctx, instance, op, progress, c.read, func(ctx context.Context, op PowerOperation) error {
		switch op {
		case PowerStart:
			return c.client.StartInstance(ctx, instance.ID)
		case PowerStop:
			return c.client.StopInstance(ctx, instance.ID)
		default:
			return c.client.RebootInstance(ctx, instance.ID, op == PowerHardReboot)
		}
	})
}

// Snapshot implements Instances. Compute tags the image with its provenance itself.
func (c *ComputeInstances) Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*image.Image, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	if err := checkSnapshotRequest(request); err != nil {
		return nil, err
	}

	instance, err := c.Get(ctx, ref)
	if err != nil {
		return nil, err
	}

	made, err := c.client.SnapshotInstance(ctx, instance.ID, unikorn.InstanceSnapshotCreate{
		Metadata: unikorn.WriteMetadata{
			Name: request.Name, Description: request.Description, Tags: serverTags(snapshotTags(request.Tags)),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("snapshotting instance %s: %w", instance.ID, err)
	}

	return c.service.waitSnapshot(ctx, instance, made, progress)
}

// SSHKey implements Instances.
func (c *ComputeInstances) SSHKey(ctx context.Context, ref Ref) (string, error) {
	instance, err := c.Get(ctx, ref)
	if err != nil {
		return "", err
	}

	key, err := c.client.GetInstanceSSHKey(ctx, instance.ID)
	if err != nil {
		return "", fmt.Errorf("reading the SSH key of instance %s: %w", instance.ID, err)
	}

	return key.PrivateKey, nil
}

// ConsoleOutput implements Instances.
func (c *ComputeInstances) ConsoleOutput(ctx context.Context, ref Ref, lines int) (string, error) {
	instance, err := c.Get(ctx, ref)
	if err != nil {
		return "", err
	}

	output, err := c.client.GetInstanceConsoleOutput(ctx, instance.ID, lines)
	if err != nil {
		return "", fmt.Errorf("reading the console of instance %s: %w", instance.ID, err)
	}

	return output.Contents, nil
}

// instanceSpec is what compute is asked for an instance of spec that holds the
// volumes current (none for a new instance).
func instanceSpec(spec Spec, current []string) unikorn.InstanceSpec {
	return unikorn.InstanceSpec{
		FlavorID:                  spec.FlavorID,
		ImageID:                   spec.ImageID,
		Networking:                serverNetworking(spec),
		Volumes:                   volumesSpec(current, spec.VolumeIDs),
		SSHCertificateAuthorityID: spec.SSHCertificateAuthorityID,
		UserData:                  encodeUserData(spec.UserData),
	}
}

// instanceFromCompute is the façade's view of compute's instance.
func instanceFromCompute(wire *unikorn.Instance) *Instance {
	instance := &Instance{
		ID:                 wire.Metadata.ID,
		OrganizationID:     wire.Metadata.OrganizationID,
		ProjectID:          wire.Metadata.ProjectID,
		RegionID:           wire.Status.RegionID,
		PrivateIP:          wire.Status.PrivateIP,
		PublicIP:           wire.Status.PublicIP,
		MACAddress:         wire.Status.MACAddress,
		Attachments:        attachmentsFromCompute(wire.Status.Volumes),
		PowerState:         collapsePowerState(wire.Status.PowerState),
		ProvisioningStatus: wire.Metadata.ProvisioningStatus,
		HealthStatus:       wire.Metadata.HealthStatus,
		CreationTime:       wire.Metadata.CreationTime,
		Spec: Spec{
			Name:                      wire.Metadata.Name,
			NetworkID:                 wire.Status.NetworkID,
			FlavorID:                  wire.Spec.FlavorID,
			ImageID:                   wire.Spec.ImageID,
			UserData:                  decodeUserData(wire.Spec.UserData),
			SSHCertificateAuthorityID: wire.Spec.SSHCertificateAuthorityID,
			VolumeIDs:                 volumeIDsOf(wire.Spec.Volumes),
			Description:               wire.Metadata.Description,
			Tags:                      cloud.UserTags(wire.Metadata.Tags),
		},
	}

	setNetworking(&instance.Spec, wire.Spec.Networking)

	return instance
}

// inScope reports whether the instance lies within every part of ref that is set.
func (i *Instance) inScope(ref Ref) bool {
	for _, part := range [][2]string{
		{ref.OrganizationID, i.OrganizationID},
		{ref.ProjectID, i.ProjectID},
		{ref.RegionID, i.RegionID},
		{ref.NetworkID, i.Spec.NetworkID},
	} {
		if part[0] != "" && part[0] != part[1] {
			return false
		}
	}

	return true
}

// setNetworking copies networking onto spec in the façade's order.
func setNetworking(spec *Spec, networking *unikorn.ServerNetworking) {
	if networking == nil {
		return
	}

	spec.SecurityGroupIDs = slices.Sorted(slices.Values(networking.SecurityGroups))
	spec.PublicIP = networking.PublicIP
	spec.AllowedSourceAddresses = slices.Sorted(slices.Values(networking.AllowedSourceAddresses))
}
