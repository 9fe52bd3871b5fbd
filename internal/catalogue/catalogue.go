// Package catalogue is the façade's family of what an instance is made from: the
// regions an organization may use and a region's flavors and images, region's
// whatever the instance back end (the compute service places instances in region's
// networks from region's flavors and images). The Terraform types look them up to
// choose; the instance checks (internal/compute) read them through the session's
// shared reads, one request per provider process however many instances ask at once
// (see cloud.Shared), and the image family (internal/image) forgets what it changes.
package catalogue

import (
	"context"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Values of the catalogue's enumerations the Terraform types validate or filter on.
const (
	ArchitectureX86_64  = unikorn.ArchitectureX86_64
	ArchitectureAarch64 = unikorn.ArchitectureAarch64

	ImagePending  = unikorn.ImagePending
	ImageCreating = unikorn.ImageCreating
	ImageReady    = unikorn.ImageReady
	ImageFailed   = unikorn.ImageFailed

	// ImageScopeOwned lists only the organization's own images.
	ImageScopeOwned = unikorn.ImageScopeOwned
)

// Catalogue is what the Terraform types read to choose: the regions, flavors and
// images.
type Catalogue interface {
	Regions(ctx context.Context, organizationID string) ([]Region, error)
	Flavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error)
	Images(ctx context.Context, regionID string, query ImageQuery) ([]Image, error)
}

var _ Catalogue = (*Service)(nil)

// Service is the catalogue over a session. It is safe for concurrent use.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
}

// NewService returns the catalogue over session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// Regions lists the regions an organization may use. Data sources read the catalogue
// afresh rather than through the shared reads: they are what a user reads to choose.
func (s *Service) Regions(ctx context.Context, organizationID string) ([]Region, error) {
	return cloud.All(regionFromWire)(s.client.ListRegions(ctx, organizationID))
}

// Flavors lists a region's flavors.
func (s *Service) Flavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error) {
	return cloud.All(flavorFromWire)(s.client.ListFlavors(ctx, organizationID, regionID))
}

// Images lists a region's images.
func (s *Service) Images(ctx context.Context, regionID string, query ImageQuery) ([]Image, error) {
	return cloud.All(imageFromWire)(s.client.ListImagesV2(ctx, regionID, query.wire()))
}

func flavorsKey(organizationID, regionID string) string {
	return "flavors/" + organizationID + "/" + regionID
}

func imagesKey(organizationID, regionID string) string {
	return "images/" + organizationID + "/" + regionID
}

// ForgetFlavors drops the flavors of a region kept for an organization: the cloud
// refused what referred to them, so whoever checks next asks the cloud again and gets
// a precise answer.
func (s *Service) ForgetFlavors(organizationID, regionID string) {
	s.session.Forget(flavorsKey(organizationID, regionID))
}

// ForgetImages drops the images of a region kept for an organization, which this
// process has just changed, or which the cloud refused a reference to.
func (s *Service) ForgetImages(organizationID, regionID string) {
	s.session.Forget(imagesKey(organizationID, regionID))
}

// SharedFlavor returns the flavor with the given ID, or nil when the region has none,
// for the checks of an instance, which read region's own record.
func (s *Service) SharedFlavor(ctx context.Context, organizationID, regionID, id string) (*unikorn.Flavor, error) {
	return findFresh(ctx, s.session, flavorsKey(organizationID, regionID), id,
		func(ctx context.Context) ([]unikorn.Flavor, error) {
			return s.client.ListFlavors(ctx, organizationID, regionID)
		},
		func(f *unikorn.Flavor) string { return f.Metadata.ID })
}

// StartSharedImages begins the shared read of the images of a region kept for an
// organization, which the check of an instance's image reads after its flavor, and
// returns what waits for it to end.
func (s *Service) StartSharedImages(ctx context.Context, organizationID, regionID string) (wait func()) {
	var read sync.WaitGroup

	read.Go(func() {
		_, _, _ = cloud.Shared(ctx, s.session, imagesKey(organizationID, regionID), time.Time{}, s.imagesOf(organizationID, regionID))
	})

	return read.Wait
}

// imagesOf is the read of the images of a region kept for an organization.
func (s *Service) imagesOf(organizationID, regionID string) func(context.Context) ([]unikorn.Image, error) {
	return func(ctx context.Context) ([]unikorn.Image, error) {
		return s.client.ListImages(ctx, organizationID, regionID)
	}
}

// SharedImage returns the image with the given ID, or nil when none is visible, for the
// checks of an instance, which read region's own record. Images that are not ready are
// missing from the list compute uses, so a miss asks for the image itself to tell "not
// ready" from "unknown".
func (s *Service) SharedImage(ctx context.Context, organizationID, regionID, id string) (*unikorn.Image, error) {
	image, err := findFresh(ctx, s.session, imagesKey(organizationID, regionID), id,
		s.imagesOf(organizationID, regionID), func(i *unikorn.Image) string { return i.Metadata.ID })
	if err != nil || image != nil {
		return image, err
	}

	image, err = s.client.GetImage(ctx, organizationID, regionID, id)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return image, err
}

// findFresh looks an item up in a shared list, reloading the list once on a miss, so
// that a stale entry can delay nothing but can never reject a valid reference.
func findFresh[T any](ctx context.Context, s *cloud.Session, key, id string, list func(context.Context) ([]T, error), idOf func(*T) string) (*T, error) {
	notBefore := time.Time{}

	for range 2 {
		items, began, err := cloud.Shared(ctx, s, key, notBefore, list)
		if err != nil {
			return nil, err
		}

		for i := range items {
			if idOf(&items[i]) == id {
				return &items[i], nil
			}
		}

		notBefore = began.Add(time.Nanosecond)
	}

	return nil, nil
}
