package compute

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// Attachment is a volume attached to an instance as compute shows it: pending until
// region has claimed the volume for the instance's server, provisioned with the
// device the guest sees it as once attached, and deprovisioning while it is detached.
type Attachment struct {
	VolumeID           string
	ProvisioningStatus string
	// Device is the guest's device name (e.g. /dev/vdb); empty until attached.
	Device string
	// Message is compute's word on the attachment's state, if any.
	Message string
}

// Settled reports whether the attachment is done: provisioned, with its device.
func (a Attachment) Settled() bool {
	return a.ProvisioningStatus == unikorn.ProvisioningProvisioned && a.Device != ""
}

// RegionAttachesNoVolumes is the region back end's refusal of volumes: region's server
// API, which it plays compute's part on, has no attachments; compute attaches them.
var RegionAttachesNoVolumes = Problem{
	Field:   FieldVolumeIDs,
	Summary: "Volumes need the compute instance API",
	Detail: "volumes are attached by compute's instance API: region's server API, which instance_api = \"region\" " +
		"uses, has no attachments. Set instance_api = \"compute\" (with compute_endpoint) to attach volumes; an " +
		"instance stays with the API that made it (see the guide \"Choosing the instance API\"), so one made under " +
		"region is replaced or imported anew there",
}

// regionRefusesVolumes adds RegionAttachesNoVolumes to err when spec asks for volumes.
func regionRefusesVolumes(spec Spec, err error) error {
	if len(spec.VolumeIDs) == 0 {
		return err
	}

	problems := &ValidationError{}
	if err != nil && !errors.As(err, &problems) {
		return err
	}

	problems.Problems = append(problems.Problems, RegionAttachesNoVolumes)

	return problems
}

// AttachmentFailedError means compute reported the attachment of a volume to the
// instance as failed.
type AttachmentFailedError struct {
	InstanceID string
	VolumeID   string
	Message    string
	// Detaching is set when the volume failed to come off the instance, which no
	// longer asks for it.
	Detaching bool
}

func (e *AttachmentFailedError) Error() string {
	message := ""
	if e.Message != "" {
		message = " (" + e.Message + ")"
	}

	if e.Detaching {
		return fmt.Sprintf("the cloud failed to detach volume %s from instance %s: the attachment's provisioning status is error%s",
			e.VolumeID, e.InstanceID, message)
	}

	return fmt.Sprintf("the cloud failed to attach volume %s to instance %s: the attachment's provisioning status is error%s",
		e.VolumeID, e.InstanceID, message)
}

// attachmentsFromCompute are compute's rows of an instance's volumes.
func attachmentsFromCompute(rows []unikorn.InstanceVolumeStatus) []Attachment {
	var attachments []Attachment

	for _, row := range rows {
		attachments = append(attachments, Attachment{
			VolumeID: row.ID, ProvisioningStatus: row.ProvisioningStatus, Device: row.Device, Message: row.Message,
		})
	}

	return attachments
}

// volumeIDsOf is the set compute's spec holds, in the façade's order.
func volumeIDsOf(volumes *[]string) []string {
	if volumes == nil || len(*volumes) == 0 {
		return nil
	}

	return slices.Sorted(slices.Values(*volumes))
}

// volumesSpec is the volume set as compute takes it in an update of current: the
// whole set, an empty one detaching every volume; left out, which keeps the set, when
// the instance has none and gets none, so that an instance without volumes is updated
// as before compute had them.
func volumesSpec(current, desired []string) *[]string {
	if len(current) == 0 && len(desired) == 0 {
		return nil
	}

	ids := slices.Sorted(slices.Values(desired))
	if ids == nil {
		ids = []string{}
	}

	return &ids
}

// sameVolumes reports whether two volume sets are the same.
func sameVolumes(a, b []string) bool {
	return slices.Equal(slices.Compact(slices.Sorted(slices.Values(a))), slices.Compact(slices.Sorted(slices.Values(b))))
}

// attached reports whether every volume the instance asks for is attached, with its
// device, and every other one is gone. An attachment that failed is the error, the
// attachment of a volume asked for or the detachment of one no longer asked for:
// neither moves on by itself. Only a wait for a change of the volumes asks, on a read
// that shows the volumes it sent.
func (i *Instance) attached() (bool, error) {
	wanted := map[string]bool{}
	for _, id := range i.Spec.VolumeIDs {
		wanted[id] = true
	}

	for _, attachment := range i.Attachments {
		switch {
		case attachment.ProvisioningStatus == unikorn.ProvisioningError:
			return false, &AttachmentFailedError{
				InstanceID: i.ID, VolumeID: attachment.VolumeID, Message: attachment.Message, Detaching: !wanted[attachment.VolumeID],
			}
		case !wanted[attachment.VolumeID], attachment.ProvisioningStatus != unikorn.ProvisioningProvisioned:
			return false, nil
		}

		delete(wanted, attachment.VolumeID)
	}

	return len(wanted) == 0, nil
}

// attaching is where the instance of spec, placed so, attaches its volumes.
func attaching(spec Spec, placement *Placement) (volumes.Attaching, error) {
	network := placement.Network

	id, err := unikorn.DeriveServerID(network.Metadata.ID, spec.Name)
	if err != nil {
		return volumes.Attaching{}, err
	}

	at := volumes.Attaching{
		InstanceID: id, OrganizationID: network.Metadata.OrganizationID, ProjectID: network.Metadata.ProjectID,
		RegionID: network.Status.RegionID, NetworkID: network.Metadata.ID, FlavorID: spec.FlavorID,
	}

	if placement.Flavor != nil {
		at.FlavorName = placement.Flavor.Metadata.Name
	}

	return at, nil
}

// checkVolumes adds to err what compute would refuse of the volumes spec attaches,
// each on volume_ids. A read that fails is the error.
func (c *ComputeInstances) checkVolumes(ctx context.Context, spec Spec, placement *Placement, err error) error {
	problems := &ValidationError{}

	if len(spec.VolumeIDs) == 0 || placement == nil || err != nil && !errors.As(err, &problems) {
		return err
	}

	at, atErr := attaching(spec, placement)
	if atErr != nil {
		return atErr
	}

	found, checkErr := c.service.volumes.CheckAttachments(ctx, at, spec.VolumeIDs)
	if checkErr != nil {
		return checkErr
	}

	for _, problem := range found {
		problems.add(FieldVolumeIDs, problem.Summary, "%s %s", strings.TrimSuffix(problem.Detail, "."), problem.Remedy)
	}

	return problems.orNil()
}

// attachRefused reports whether compute refused volumes attached to another instance:
// its check reads volumes from region's caches, which may not show a release yet.
func attachRefused(err error) bool {
	return unikorn.IsUnprocessable(err) && strings.Contains(err.Error(), "attached volumes")
}

// sendAttaching sends a write that attaches the volumes added (those the instance does
// not hold yet) once none of them is attached elsewhere (volumes.Service.AwaitFree).
// A refusal of compute's for a volume attached elsewhere, which its lagging reads may
// give after region let the volume go (nothing was made or changed), is sent again
// until the read lag has passed since the first. It reports whether its error is
// the answer to the write (false: waiting for the volumes failed, and nothing was
// sent that was not refused).
func (c *ComputeInstances) sendAttaching(ctx context.Context, at volumes.Attaching, added []string, send func() error) (bool, error) {
	var until time.Time

	for {
		if len(added) > 0 {
			if err := c.service.volumes.AwaitFree(ctx, at, added); err != nil {
				return false, err
			}
		}

		err := send()
		if !attachRefused(err) || len(added) == 0 {
			return true, err
		}

		if until.IsZero() {
			until = c.service.UnseenSettled()
		}

		if !cloud.Unsettled(time.Now(), until) {
			return true, err
		}

		if sleepErr := cloud.Sleep(ctx, c.service.Poll().Max); sleepErr != nil {
			return true, err
		}
	}
}

// added are the volumes of desired that current does not hold.
func added(current, desired []string) []string {
	var out []string

	for _, id := range desired {
		if !slices.Contains(current, id) {
			out = append(out, id)
		}
	}

	return out
}

// attaching is where the instance attaches volumes.
func (i *Instance) attaching() volumes.Attaching {
	return volumes.Attaching{
		InstanceID: i.ID, OrganizationID: i.OrganizationID, ProjectID: i.ProjectID, RegionID: i.RegionID,
		NetworkID: i.Spec.NetworkID, FlavorID: i.Spec.FlavorID,
	}
}
