package volumes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Attaching is the instance volumes are to be attached to, as compute judges an
// attachment: where it is, and its flavor.
type Attaching struct {
	// InstanceID is the instance's ID (known before it exists: it derives from its
	// network and name); a volume it holds already is attached to it, not elsewhere.
	InstanceID     string
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
	FlavorID       string
	// FlavorName names the flavor in messages; the ID when empty.
	FlavorName string
}

func (a Attaching) flavor() string {
	if a.FlavorName == "" {
		return a.FlavorID
	}

	return fmt.Sprintf("%s (%s)", a.FlavorName, a.FlavorID)
}

// CheckAttachments returns what compute would refuse of attaching the volumes ids to
// the instance, in compute's order: a volume it cannot read, one of another
// organization, project or region, or network, one being deleted, one whose class
// the region does not have or that does not support the instance's flavor. A volume
// attached to another instance is not refused here: the same apply may be detaching
// it there (see AwaitFree). A read that fails without an answer is the error.
func (s *Service) CheckAttachments(ctx context.Context, at Attaching, ids []string) ([]Problem, error) {
	var (
		problems []Problem
		attached []*unikorn.Volume
	)

	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		volume, err := s.client.GetVolume(ctx, id)

		switch {
		case unikorn.IsNotFound(err) || unikorn.IsForbidden(err):
			problems = append(problems, Problem{
				Field: FieldVolumeIDs, VolumeID: id, Summary: "Volume not found",
				Detail: fmt.Sprintf("Volume %s does not exist or cannot be read with these credentials.", id),
				Remedy: "Check the volume ID, and that the provider's token is a member of the volume's project.",
			})

			continue
		case err != nil:
			return nil, err
		}

		if problem := placementProblem(volume, at); problem != nil {
			problems = append(problems, *problem)

			continue
		}

		attached = append(attached, volume)
	}

	if len(attached) == 0 {
		return problems, nil
	}

	classes, err := s.Classes(ctx, at.RegionID)
	if err != nil {
		return nil, err
	}

	for _, volume := range attached {
		if problem := flavorProblem(volume, classes, at); problem != nil {
			problems = append(problems, *problem)
		}
	}

	return problems, nil
}

// placementProblem is what compute refuses of where a volume is, beside the instance.
func placementProblem(volume *unikorn.Volume, at Attaching) *Problem {
	metadata := &volume.Metadata
	problem := func(summary, detail, remedy string) *Problem {
		return &Problem{Field: FieldVolumeIDs, VolumeID: metadata.ID, Summary: summary, Detail: detail, Remedy: remedy}
	}

	switch {
	case metadata.OrganizationID != at.OrganizationID || metadata.ProjectID != at.ProjectID || volume.Status.RegionID != at.RegionID:
		return problem("Volume of another project or region",
			fmt.Sprintf("Volume %q (%s) is of project %s in region %s, and the instance of project %s in region %s: an instance "+
				"attaches only volumes of its own organization, project and region.",
				metadata.Name, metadata.ID, metadata.ProjectID, volume.Status.RegionID, at.ProjectID, at.RegionID),
			"Attach a volume made on the instance's network.")
	case volume.Spec.NetworkID != at.NetworkID:
		return problem("Volume on another network",
			fmt.Sprintf("Volume %q (%s) is on network %s, and the instance on network %s: an instance attaches only volumes "+
				"of its own network.", metadata.Name, metadata.ID, volume.Spec.NetworkID, at.NetworkID),
			"Attach a volume whose network_id is the instance's network. A volume's network is fixed when it is made.")
	case metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning || metadata.DeletionTime != nil:
		return problem("Volume being deleted",
			fmt.Sprintf("Volume %q (%s) is being deleted.", metadata.Name, metadata.ID),
			"Attach another volume.")
	}

	return nil
}

// flavorProblem is what compute refuses of a volume's class for the instance.
func flavorProblem(volume *unikorn.Volume, classes []Class, at Attaching) *Problem {
	classID := volume.Spec.VolumeClassID
	name := fmt.Sprintf("%q (%s)", volume.Metadata.Name, volume.Metadata.ID)

	index := slices.IndexFunc(classes, func(c Class) bool { return c.ID == classID && c.RegionID == at.RegionID })
	if index < 0 {
		return &Problem{
			Field: FieldVolumeIDs, VolumeID: volume.Metadata.ID, Summary: "Volume class not in the instance's region",
			Detail: fmt.Sprintf("Volume %s is of class %q, which region %s does not offer, so compute cannot check that "+
				"it supports flavor %s.", name, classID, at.RegionID, at.flavor()),
			Remedy: "Attach a volume of a class of the instance's region.",
		}
	}

	class := &classes[index]
	if class.Supports(at.FlavorID) {
		return nil
	}

	supported := "names no flavor, so compute attaches its volumes to no instance"
	if len(class.SupportedFlavorIDs) > 0 {
		supported = "supports only flavors " + strings.Join(class.SupportedFlavorIDs, ", ")
	}

	return &Problem{
		Field: FieldVolumeIDs, VolumeID: volume.Metadata.ID, Summary: "Volume class does not support the flavor",
		Detail: fmt.Sprintf("Volume %s is of class %s, which does not support the instance's flavor %s: the class %s.",
			name, class.describe(), at.flavor(), supported),
		Remedy: "Choose a flavor the class supports, or attach a volume of a class that supports this flavor " +
			"(the unikorn_volume_classes data source filters classes by flavor_id).",
	}
}

// AttachedError means a volume to be attached to an instance is attached to another,
// which still asks for it, and stayed so for longer than the caches could hide its
// release: compute attaches a volume to one instance at a time. Nothing was sent.
type AttachedError struct {
	VolumeID   string
	VolumeName string
	InstanceID string
	// Holders are the instances the token can see holding the volume; empty when it
	// sees none (the volume's region says it is attached).
	Holders []cloud.Holder
}

func (e *AttachedError) Error() string {
	held := "an instance the token cannot see"
	if len(e.Holders) > 0 {
		names := make([]string, len(e.Holders))
		for i, holder := range e.Holders {
			names[i] = holder.String()
		}

		held = strings.Join(names, ", ")
	}

	return fmt.Sprintf("volume %q (%s) is attached to %s, which still asks for it, so it cannot be attached to instance %s",
		e.VolumeName, e.VolumeID, held, e.InstanceID)
}

// AwaitFree waits until none of the volumes ids is attached to an instance other than
// the one at names. A volume attached elsewhere is waited for while what holds it lets
// it go (the instance is being deleted, or no longer asks for it: an apply that moves
// a volume detaches it there while it attaches it here, and one that replaces an
// instance deletes the old one first), and for as long as the caches could hide its
// release (the read lag, and at least cloud.HeldGrace, which also gives an update of
// the holder in the same apply time to be sent). Then it is an *AttachedError.
func (s *Service) AwaitFree(ctx context.Context, at Attaching, ids []string) error {
	for _, id := range ids {
		if err := s.awaitFree(ctx, at, id); err != nil {
			return err
		}
	}

	return nil
}

func (s *Service) awaitFree(ctx context.Context, at Attaching, id string) error {
	// judged is when a hold with nothing letting the volume go is taken to stand.
	var judged time.Time

	check := func(ctx context.Context) (bool, error) {
		volume, err := s.client.GetVolume(ctx, id)

		switch {
		case unikorn.IsNotFound(err) || unikorn.IsForbidden(err):
			// Not for this wait to judge: compute's answer says what is wrong.
			return true, nil
		case err != nil:
			return false, cloud.ReadFailed(err)
		case volume.Status.AttachedAt == nil:
			return true, nil
		}

		// A list the token may not read shows nobody: the hold is judged by region's
		// word alone. A list that failed says nothing: it is read again.
		found := cloud.FindHolders(ctx, s.heldBy(volume))
		for _, unread := range found.Unread {
			if !cloud.IsClientError(unread.Err) {
				return false, cloud.ReadFailed(unread.Err)
			}
		}

		holders := found.Found

		// Attached to the instance itself: compute takes a volume it holds already.
		if slices.ContainsFunc(holders, func(h cloud.Holder) bool { return h.ID == at.InstanceID && !h.Leaving }) {
			return true, nil
		}

		// One letting it go (the instance of the same name this one replaces among
		// them) is waited for.
		if slices.ContainsFunc(holders, func(h cloud.Holder) bool { return h.Leaving }) {
			judged = time.Time{}

			return false, nil
		}

		holders = slices.DeleteFunc(holders, func(h cloud.Holder) bool { return h.ID == at.InstanceID })

		now := time.Now()
		if judged.IsZero() {
			judged = now.Add(max(s.session.ReadLag(), s.session.Poll().Max, cloud.HeldGrace))
		}

		if now.Before(judged) {
			return false, nil
		}

		return false, &AttachedError{VolumeID: id, VolumeName: volume.Metadata.Name, InstanceID: at.InstanceID, Holders: holders}
	}

	return s.session.WaitForNow(ctx, "volume "+id+" to be free to attach", check)
}

// heldBy are the lists in which what holds a volume is looked for: compute's instances
// on its network that ask for it or still show it attached. One that no longer asks
// for it, or is being deleted, is letting it go (Leaving). Only compute's instances
// attach volumes, so without them nobody is seen holding one.
func (s *Service) heldBy(volume *unikorn.Volume) []cloud.HolderSearch {
	if !s.compute {
		return nil
	}

	list := func(ctx context.Context) ([]unikorn.Instance, error) {
		return s.client.ListInstances(ctx, unikorn.InstanceQuery{
			OrganizationIDs: []string{volume.Metadata.OrganizationID}, ProjectIDs: []string{volume.Metadata.ProjectID},
			NetworkIDs: []string{volume.Spec.NetworkID},
		})
	}

	holds := func(instance *unikorn.Instance) (cloud.Holder, bool) {
		asks := instance.Spec.Volumes != nil && slices.Contains(*instance.Spec.Volumes, volume.Metadata.ID)
		shows := slices.ContainsFunc(instance.Status.Volumes, func(v unikorn.InstanceVolumeStatus) bool { return v.ID == volume.Metadata.ID })

		holder := cloud.HolderOf("instance", &instance.Metadata.ReadMetadata)
		holder.Leaving = holder.Leaving || !asks

		return holder, asks || shows
	}

	return []cloud.HolderSearch{cloud.Search("compute's instances", list, holds)}
}
