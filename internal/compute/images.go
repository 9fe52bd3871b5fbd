package compute

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ImageRef locates an image: region reads and deletes images within one
// organization's view of one region.
type ImageRef struct {
	ID             string
	OrganizationID string
	RegionID       string
}

// Images manages the images made from instances (snapshots) through region's image
// API, which any member of the organization may call whichever instance back end
// made the image.
type Images interface {
	// SnapshotImage makes an image of instance through instances and waits until it is
	// ready. A returned image exists and must be tracked even when err is not nil.
	SnapshotImage(ctx context.Context, instances Instances, instance *Instance, request SnapshotRequest, progress Progress) (*Image, error)
	// ImportImage imports an image from a URI and waits until it is ready (see
	// Service.ImportImage). A returned image exists and must be tracked even when err is
	// not nil.
	ImportImage(ctx context.Context, request ImageImport, progress Progress) (*Image, error)
	// ReadImage returns the image, or nil when region has definitely none: it answered
	// 404 for longer than the read lag.
	ReadImage(ctx context.Context, ref ImageRef) (*Image, error)
	// FindImage is ReadImage for an image known only by its ID and organization (an
	// import): it looks in each of the organization's regions.
	FindImage(ctx context.Context, organizationID, id string) (*Image, error)
	// DeleteImage deletes the image and waits until region answers 404 for it. created
	// is its creation time when the caller knows it (zero otherwise), which saves
	// reading it before the delete.
	DeleteImage(ctx context.Context, ref ImageRef, created time.Time) error
}

var _ Images = (*Service)(nil)

// imageStates are all of an image's states: a read must see an image in any of them.
var imageStates = []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed}

// SnapshotImage implements Images. The snapshot is sent once. When it fails without a
// definite refusal, the answer may have been lost after region made the image, or the
// wait may have ended after it did: rather than send it again, the image carrying the
// instance's provenance tag and the name that was not there before is looked for,
// past the read lag, and adopted.
func (s *Service) SnapshotImage(ctx context.Context, instances Instances, instance *Instance,
	request SnapshotRequest, progress Progress,
) (*Image, error) {
	scope := ImageRef{OrganizationID: instance.OrganizationID, RegionID: instance.RegionID}

	ofInstance := snapshotOf(instance.ID, request.Name)

	before, err := s.ownedIDs(ctx, scope, ofInstance)
	if err != nil {
		return nil, fmt.Errorf("listing the images of instance %s: %w", instance.ID, err)
	}

	image, err := instances.Snapshot(ctx, instance.Ref(), request, progress)
	if err == nil {
		return placed(image, scope, instance.ID), nil
	}

	if !mayHaveMade(err) {
		return nil, err
	}

	made, findErr := s.adoptImage(ctx, scope, ofInstance, before, !cloud.IsClientError(err))
	if findErr != nil {
		return nil, fmt.Errorf("%w; and looking for the image it may have made failed: %w", err, findErr)
	}

	if made == nil {
		return nil, err
	}

	progress(fmt.Sprintf("Found image %s (%s), which the snapshot made.", made.Metadata.ID, made.Metadata.Name))

	if ctx.Err() != nil || made.Status.State == unikorn.ImageFailed {
		return imageFrom(made, scope), err
	}

	ready, err := s.waitSnapshot(ctx, instance, made, progress)
	if err != nil {
		return imageFrom(made, scope), err
	}

	return imageFrom(ready, scope), nil
}

// mayHaveMade reports whether a failed snapshot may still have made an image: every
// failure but those found before anything was sent.
func mayHaveMade(err error) bool {
	var (
		validation *ValidationError
		access     *AccessError
		rights     *ServiceRightsError
	)

	return !errors.Is(err, ErrNotFound) && !errors.As(err, &validation) && !errors.As(err, &access) && !errors.As(err, &rights)
}

// ownedImage picks out, among an organization's own images, those of one making: a
// snapshot of an instance, or an import of a name. It says what it picks in errors.
type ownedImage struct {
	keep func(*unikorn.Image) bool
	what string
}

// snapshotOf picks the images of name made from instanceID.
func snapshotOf(instanceID, name string) ownedImage {
	return ownedImage{
		keep: func(image *unikorn.Image) bool {
			from, _ := image.Metadata.Tags.Get(SnapshotInstanceIDTag)

			return from == instanceID && image.Metadata.Name == name
		},
		what: fmt.Sprintf("images of instance %s named %q", instanceID, name),
	}
}

// adoptImage returns the one image that picked keeps and that is not in before, or nil
// when there is none. Looking goes on for the read lag when lagging is set (the request
// got no definite answer, so a new image may not be listed yet); it runs on a context
// of its own, because a wait that ran out of time is a reason to look.
func (s *Service) adoptImage(ctx context.Context, scope ImageRef, picked ownedImage, before map[string]bool, lagging bool,
) (*unikorn.Image, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout+s.ReadLag())
	defer cancel()

	settled := time.Now()
	if lagging {
		settled = settled.Add(s.ReadLag())
	}

	for {
		var (
			images []unikorn.Image
			began  time.Time
		)

		err := s.persist(ctx, func(ctx context.Context) error {
			var err error

			began = time.Now()
			images, err = s.listOwned(ctx, scope, picked)

			return err
		})
		if err != nil {
			return nil, err
		}

		var made []unikorn.Image

		for _, image := range images {
			if !before[image.Metadata.ID] {
				made = append(made, image)
			}
		}

		switch {
		case len(made) == 1:
			return &made[0], nil
		case len(made) > 1:
			ids := make([]string, len(made))
			for i := range made {
				ids[i] = made[i].Metadata.ID
			}

			return nil, fmt.Errorf("%d new %s (%v); delete the extra ones", len(made), picked.what, ids)
		case !cloud.Unsettled(began, settled):
			return nil, nil
		}

		if err := cloud.Sleep(ctx, min(s.Poll().Max, time.Until(settled))); err != nil {
			return nil, err
		}
	}
}

// ownedIDs returns the IDs of the images picked keeps.
func (s *Service) ownedIDs(ctx context.Context, scope ImageRef, picked ownedImage) (map[string]bool, error) {
	images, err := s.listOwned(ctx, scope, picked)
	if err != nil {
		return nil, err
	}

	ids := map[string]bool{}
	for _, image := range images {
		ids[image.Metadata.ID] = true
	}

	return ids, nil
}

// listOwned lists the organization's own images in any state that picked keeps.
func (s *Service) listOwned(ctx context.Context, scope ImageRef, picked ownedImage) ([]unikorn.Image, error) {
	images, err := s.client.ListImagesV2(ctx, scope.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{scope.OrganizationID}, Scope: unikorn.ImageScopeOwned, Status: imageStates,
	})
	if err != nil {
		return nil, err
	}

	var kept []unikorn.Image

	for i := range images {
		if picked.keep(&images[i]) {
			kept = append(kept, images[i])
		}
	}

	return kept, nil
}

// ReadImage implements Images. A 404 right after a snapshot may be region's cache not
// showing it yet, so only a 404 that lasts the read lag means gone; a 403 is an error,
// because lost access says nothing about whether the image exists.
func (s *Service) ReadImage(ctx context.Context, ref ImageRef) (*Image, error) {
	var image *unikorn.Image

	err := s.PastReadLag(ctx, func(ctx context.Context) error {
		var err error
		image, err = s.client.GetImage(ctx, ref.OrganizationID, ref.RegionID, ref.ID)

		return err
	})

	switch {
	case unikorn.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}

	return imageFrom(image, ref), nil
}

// FindImage implements Images.
func (s *Service) FindImage(ctx context.Context, organizationID, id string) (*Image, error) {
	regions, err := s.client.ListRegions(ctx, organizationID)
	if err != nil {
		return nil, fmt.Errorf("listing the regions of organization %s: %w", organizationID, err)
	}

	var image *Image

	err = s.PastReadLag(ctx, func(ctx context.Context) error {
		for _, region := range regions {
			found, err := s.client.GetImage(ctx, organizationID, region.Metadata.ID, id)
			if err == nil {
				image = imageFrom(found, ImageRef{OrganizationID: organizationID, RegionID: region.Metadata.ID})

				return nil
			}

			if !unikorn.IsNotFound(err) {
				return err
			}
		}

		return unikorn.Missing("", fmt.Sprintf("image %s is in none of the regions of organization %s", id, organizationID))
	})

	switch {
	case unikorn.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}

	return image, nil
}

// DeleteImage implements Images. Region refuses with 409 while an instance still
// boots from the image; while those are being deleted the delete is asked again, and
// a refusal that stands with none of them going is a *cloud.HeldError.
func (s *Service) DeleteImage(ctx context.Context, ref ImageRef, created time.Time) error {
	images := cloud.Object[unikorn.Image]{
		Kind: "image", Users: "the instances booted from it", ConflictInUse: true,
		Get: func(ctx context.Context, id string) (*unikorn.Image, error) {
			return s.client.GetImage(ctx, ref.OrganizationID, ref.RegionID, id)
		},
		Del: func(ctx context.Context, id string) error {
			return s.client.DeleteImage(ctx, ref.OrganizationID, ref.RegionID, id)
		},
		HeldBy: func(image *unikorn.Image) []cloud.HolderSearch {
			return s.bootedFrom(ref, image.Metadata.ID)
		},
		// An image has no provisioning status, only its creation, which is all a
		// delete needs.
		Metadata: func(image *unikorn.Image) *unikorn.ReadMetadata {
			return &unikorn.ReadMetadata{StaticMetadata: image.Metadata}
		},
	}

	err := images.Delete(ctx, s.Session, ref.ID, created)
	s.catalogue.forgetImages(ref.OrganizationID, ref.RegionID)

	return err
}

// bootedFrom are the searches for the instances of the image's organization and
// region that boot from it, which hold its deletion: region's servers, and compute's
// instances when they are compute's (region's server list may show the token none of
// their servers).
func (s *Service) bootedFrom(ref ImageRef, imageID string) []cloud.HolderSearch {
	return networking.InstanceHolders{
		Compute:  s.heldByCompute,
		In:       unikorn.ServerQuery{OrganizationIDs: []string{ref.OrganizationID}, RegionIDs: cloud.Only(ref.RegionID)},
		Instance: func(spec *unikorn.InstanceSpec) bool { return spec.ImageID == imageID },
		Server:   func(server *unikorn.Server) bool { return server.Spec.ImageID == imageID },
	}.Searches(s.client)
}

// imageFrom is the façade's image of region's, found in ref's organization and region.
func imageFrom(image *unikorn.Image, ref ImageRef) *Image {
	instanceID, _ := image.Metadata.Tags.Get(SnapshotInstanceIDTag)

	return placed(imageFromRegion(image), ref, instanceID)
}

// placed completes an image read from a back end, which does not say where it lives.
func placed(image *Image, ref ImageRef, instanceID string) *Image {
	image.OrganizationID, image.RegionID, image.InstanceID = ref.OrganizationID, ref.RegionID, instanceID

	return image
}
