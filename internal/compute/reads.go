package compute

import (
	"context"
	"errors"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The catalogue's objects are region's whatever the instance back end: the compute
// service places instances in region's networks from region's flavors and images. The
// façade names them so that the Terraform types read them without knowing the wire.
type (
	Region         = unikorn.Region
	Flavor         = unikorn.Flavor
	CatalogueImage = unikorn.Image
	ImageQuery     = unikorn.ImageQuery
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

	// ProvisioningError is the provisioning status of an instance the cloud gave up on.
	ProvisioningError = unikorn.ProvisioningError
)

// Catalogue is what the Terraform types read besides instances: the regions, flavors
// and images to choose from.
type Catalogue interface {
	Regions(ctx context.Context, organizationID string) ([]Region, error)
	Flavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error)
	Images(ctx context.Context, regionID string, query ImageQuery) ([]CatalogueImage, error)
}

var _ Catalogue = (*Service)(nil)

// Regions lists the regions an organization may use. Data sources read the catalogue
// afresh rather than through the cache: they are what a user reads to choose.
func (s *Service) Regions(ctx context.Context, organizationID string) ([]Region, error) {
	return s.client.ListRegions(ctx, organizationID)
}

// Flavors lists a region's flavors.
func (s *Service) Flavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error) {
	return s.client.ListFlavors(ctx, organizationID, regionID)
}

// Images lists a region's images.
func (s *Service) Images(ctx context.Context, regionID string, query ImageQuery) ([]CatalogueImage, error) {
	return s.client.ListImagesV2(ctx, regionID, query)
}

// StatusCode is the HTTP status a service answered a failed call with, or 0 when err
// is no answer at all (unreachable, timed out).
func StatusCode(err error) int {
	var apiErr *unikorn.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}

	return 0
}
