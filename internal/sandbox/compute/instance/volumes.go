package instance

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Compute's volumes (pkg/server/handler/instance validateVolumes, of the compute that
// attaches them): an instance names the whole set of existing volumes attached to it
// (spec.volumes), which compute checks as the caller against region, sends whole to
// the hidden server, and reports back from the server's attachment rows
// (status.volumes). Volumes charge no quota of the instance's.

// checkVolumes is compute's check of a volume set for an instance, in its order:
// duplicates; each volume read as the caller (region's 403 becomes 404); of the
// instance's organization, project and region; on its network; not being deleted;
// not attached elsewhere (attachedAt set while not in the instance's current set);
// of a class of the instance's region that supports the flavor.
func checkVolumes(ctx context.Context, user *unikorn.Client, in *unikorn.Instance, flavorID string, ids, current []string) error {
	if len(ids) == 0 {
		return nil
	}

	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return errUnprocessable("volumes must not contain duplicate IDs")
		}
	}

	volumes := make([]*unikorn.Volume, 0, len(ids))

	for _, id := range ids {
		volume, err := user.GetVolume(ctx, id)
		if err != nil {
			var refused *unikorn.APIError
			if errors.As(err, &refused) && refused.StatusCode == http.StatusForbidden {
				return errNotFound()
			}

			return err
		}

		md := volume.Metadata

		switch {
		case md.OrganizationID != in.Metadata.OrganizationID || md.ProjectID != in.Metadata.ProjectID || volume.Status.RegionID != in.Status.RegionID:
			return errUnprocessable("volumes must reference volumes in the same organization, project, and region as the instance")
		case volume.Spec.NetworkID != in.Status.NetworkID:
			return errUnprocessable("a referenced volume must belong to the same network as the instance")
		case md.ProvisioningStatus == unikorn.ProvisioningDeprovisioning:
			return errUnprocessable("volume is being deleted")
		case volume.Status.AttachedAt != nil && !slices.Contains(current, id):
			return errUnprocessable("volumes must not reference attached volumes")
		}

		volumes = append(volumes, volume)
	}

	return checkFlavorSupport(ctx, user, in.Status.RegionID, flavorID, volumes)
}

// checkFlavorSupport is compute's check that each volume's class, of the instance's
// region, names the flavor: a class that names none supports none.
func checkFlavorSupport(ctx context.Context, user *unikorn.Client, regionID, flavorID string, volumes []*unikorn.Volume) error {
	if len(volumes) == 0 {
		return nil
	}

	classes, err := user.ListVolumeClasses(ctx, regionID)
	if err != nil {
		return err
	}

	for _, volume := range volumes {
		classID := volume.Spec.VolumeClassID

		i := slices.IndexFunc(classes, func(c unikorn.VolumeClass) bool { return c.Metadata.ID == classID })
		if i < 0 {
			return errUnprocessable("volume class %s was not found in the instance region", classID)
		}

		if !slices.Contains(classes[i].Spec.SupportedFlavorIDs, flavorID) {
			return errUnprocessable("volume class does not support the server flavor")
		}
	}

	return nil
}

// checkKeptVolumes is the check of an update that keeps the volume set but changes
// the flavor: the volumes kept must support the new one.
func checkKeptVolumes(ctx context.Context, user *unikorn.Client, in *unikorn.Instance, flavorID string) error {
	kept := volumeIDs(in.Spec)
	volumes := make([]*unikorn.Volume, 0, len(kept))

	for _, id := range kept {
		volume, err := user.GetVolume(ctx, id)
		if err != nil {
			return err
		}

		volumes = append(volumes, volume)
	}

	return checkFlavorSupport(ctx, user, in.Status.RegionID, flavorID, volumes)
}

// volumeIDs is the set an instance asks for, none when it names none.
func volumeIDs(spec unikorn.InstanceSpec) []string {
	if spec.Volumes == nil {
		return nil
	}

	return *spec.Volumes
}

// withVolumes is spec with the set stored as compute stores it: an empty set is no
// set, which a read leaves out.
func withVolumes(spec unikorn.InstanceSpec, ids []string) unikorn.InstanceSpec {
	spec.Volumes = nil
	if len(ids) > 0 {
		set := slices.Clone(ids)
		spec.Volumes = &set
	}

	return spec
}

// serverVolumes is the set as the hidden server asks for it.
func serverVolumes(spec unikorn.InstanceSpec) []unikorn.ServerVolume {
	var out []unikorn.ServerVolume

	for _, id := range volumeIDs(spec) {
		out = append(out, unikorn.ServerVolume{ID: id})
	}

	return out
}

// attachments are the server's attachment rows as compute reports them: each copied,
// and a volume asked for that the server does not report yet as pending.
func attachments(spec unikorn.InstanceSpec, server unikorn.Server) []unikorn.InstanceVolumeStatus {
	rows := slices.Clone(server.Status.Volumes)

	for _, id := range volumeIDs(spec) {
		if !slices.ContainsFunc(rows, func(row unikorn.InstanceVolumeStatus) bool { return row.ID == id }) {
			rows = append(rows, unikorn.InstanceVolumeStatus{ID: id, ProvisioningStatus: unikorn.ProvisioningPending})
		}
	}

	return rows
}
