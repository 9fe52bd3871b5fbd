// Package image is the façade's family of the images an organization makes in a
// region: images of an instance's disk (snapshots, which an instance back end of
// internal/compute makes) and images region imports from the URL of a raw disk image.
// It reads, finds and deletes them, waits until they are ready, and finds the image
// that a request whose answer was lost made, rather than make it twice.
package image

import (
	"context"
	"fmt"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Images manages an organization's images through region's image API, which any
// member of the organization may call whichever instance back end made the image.
type Images interface {
	// Snapshot makes an image of an instance's disk and waits until it is ready (see
	// Service.Snapshot). A returned image exists and must be tracked even when err is
	// not nil.
	Snapshot(ctx context.Context, snapshot Snapshot, progress cloud.Progress) (*Image, error)
	// Import imports an image from a URI and waits until it is ready (see
	// Service.Import). A returned image exists and must be tracked even when err is not
	// nil.
	Import(ctx context.Context, request Import, progress cloud.Progress) (*Image, error)
	// Read returns the image, or nil when region has definitely none: it answered 404
	// for longer than the read lag.
	Read(ctx context.Context, ref Ref) (*Image, error)
	// Find is Read for an image known only by its ID and organization (an import): it
	// looks in each of the organization's regions.
	Find(ctx context.Context, organizationID, id string) (*Image, error)
	// Delete deletes the image and waits until region answers 404 for it. created is
	// its creation time when the caller knows it (zero otherwise), which saves reading
	// it before the delete.
	Delete(ctx context.Context, ref Ref, created time.Time) error
}

var _ Images = (*Service)(nil)

// Service is the image family over a session. It is safe for concurrent use.
type Service struct {
	*cloud.Session

	client *unikorn.Client
	// catalogue keeps the images of a region that instance checks read, which this
	// family forgets when it changes them.
	catalogue *catalogue.Service
	// heldByCompute says that instances are compute's, whose servers region may not
	// show the token: what boots from an image is also looked for among compute's
	// instances.
	heldByCompute bool
}

// NewService returns the image family over session.
func NewService(session *cloud.Session) *Service {
	return &Service{Session: session, client: session.Client(), catalogue: catalogue.NewService(session)}
}

// HeldByComputeInstances makes the look for what holds an image ask compute's
// instances too, for a provider whose instances are compute's (see cloud.HeldError),
// as networking.Service.HeldByComputeInstances does for networks.
func (s *Service) HeldByComputeInstances() *Service {
	s.heldByCompute = true

	return s
}

// ValidateName checks the name of an image to be made without calling the API.
func ValidateName(name string) error {
	return cloud.ValidateName("image", name)
}

// NameError is a name region would refuse for an image; nothing was sent.
type NameError struct {
	Err error
}

func (e *NameError) Error() string { return e.Err.Error() }

func (e *NameError) Unwrap() error { return e.Err }

// Read implements Images. A 404 right after an image is made may be region's cache
// not showing it yet, so only a 404 that lasts the read lag means gone; a 403 is an
// error, because lost access says nothing about whether the image exists.
func (s *Service) Read(ctx context.Context, ref Ref) (*Image, error) {
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

	return From(image, ref), nil
}

// Find implements Images.
func (s *Service) Find(ctx context.Context, organizationID, id string) (*Image, error) {
	regions, err := s.client.ListRegions(ctx, organizationID)
	if err != nil {
		return nil, fmt.Errorf("listing the regions of organization %s: %w", organizationID, err)
	}

	var image *Image

	err = s.PastReadLag(ctx, func(ctx context.Context) error {
		for _, region := range regions {
			found, err := s.client.GetImage(ctx, organizationID, region.Metadata.ID, id)
			if err == nil {
				image = From(found, Ref{OrganizationID: organizationID, RegionID: region.Metadata.ID})

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

// Delete implements Images. Region refuses with 409 while an instance still boots
// from the image; while those are being deleted the delete is asked again, and a
// refusal that stands with none of them going is a *cloud.HeldError.
func (s *Service) Delete(ctx context.Context, ref Ref, created time.Time) error {
	images := cloud.Object[unikorn.Image]{
		Kind: "image", Users: "the instances booted from it", InUse: cloud.InUseConflict,
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
	s.catalogue.ForgetImages(ref.OrganizationID, ref.RegionID)

	return err
}

// bootedFrom are the searches for the instances of the image's organization and
// region that boot from it, which hold its deletion: region's servers, and compute's
// instances when they are compute's (region's server list may show the token none of
// their servers).
func (s *Service) bootedFrom(ref Ref, imageID string) []cloud.HolderSearch {
	return networking.InstanceHolders{
		Compute:  s.heldByCompute,
		In:       unikorn.ServerQuery{OrganizationIDs: []string{ref.OrganizationID}, RegionIDs: cloud.Only(ref.RegionID)},
		Instance: func(spec *unikorn.InstanceSpec) bool { return spec.ImageID == imageID },
		Server:   func(server *unikorn.Server) bool { return server.Spec.ImageID == imageID },
	}.Searches(s.client)
}

// wait waits until the image, found in scope, is ready, reporting its states as
// those of what (e.g. "Snapshot image"); failed is the error of an image that failed.
func (s *Service) wait(ctx context.Context, scope Ref, what string, image *unikorn.Image, progress cloud.Progress,
	failed func() error,
) (*unikorn.Image, error) {
	s.catalogue.ForgetImages(scope.OrganizationID, scope.RegionID)
	progress(fmt.Sprintf("%s %s (%s) is %s.", what, image.Metadata.ID, image.Metadata.Name, image.Status.State))

	state := image.Status.State
	err := s.WaitFor(ctx, "image "+image.Metadata.ID+" to be ready", func(ctx context.Context) (bool, error) {
		latest, err := s.client.GetImage(ctx, scope.OrganizationID, scope.RegionID, image.Metadata.ID)
		if unikorn.IsNotFound(err) {
			return false, nil
		}

		if err != nil {
			return false, cloud.ReadFailed(err)
		}

		image = latest
		if image.Status.State != state {
			state = image.Status.State
			progress(fmt.Sprintf("%s %s is %s.", what, image.Metadata.ID, state))
		}

		if state == unikorn.ImageFailed {
			return false, failed()
		}

		return state == unikorn.ImageReady, nil
	})
	if err != nil {
		return nil, err
	}

	return image, nil
}

// owned picks out, among an organization's own images, those of one making: a
// snapshot of an instance, or an import of a name. It says what it picks in errors.
type owned struct {
	keep func(*unikorn.Image) bool
	what string
}

// adopt returns the one image that picked keeps and that is not in before, or nil
// when there is none. Looking goes on for the read lag when lagging is set (the request
// got no definite answer, so a new image may not be listed yet); it runs on a context
// of its own, because a wait that ran out of time is a reason to look.
func (s *Service) adopt(ctx context.Context, scope Ref, picked owned, before map[string]bool, lagging bool,
) (*unikorn.Image, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cloud.UndoTimeout+s.ReadLag())
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

		err := s.Persist(ctx, func(ctx context.Context) error {
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
func (s *Service) ownedIDs(ctx context.Context, scope Ref, picked owned) (map[string]bool, error) {
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
func (s *Service) listOwned(ctx context.Context, scope Ref, picked owned) ([]unikorn.Image, error) {
	images, err := s.client.ListImagesV2(ctx, scope.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{scope.OrganizationID}, Scope: unikorn.ImageScopeOwned, Status: states,
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
