package compute

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The parts of an image's specification an import names, as region has them.
type (
	ImageSpec = unikorn.ImageSpec
	ImageOS   = unikorn.ImageOS
	ImageGPU  = unikorn.ImageGPU
)

// ImageImport asks region to import a raw disk image from a URI into an organization's
// images of a region.
type ImageImport struct {
	OrganizationID string
	RegionID       string
	Name           string
	Description    string
	Tags           map[string]string
	// URI is where region fetches the image from.
	URI  string
	Spec ImageSpec
}

// ImageImportFailedError means region could not import the image: it marked the image
// failed, which says no more of why (the URI unreachable, or not a raw disk image).
type ImageImportFailedError struct {
	ImageID, URI string
	// Removed says whether the failed image was deleted; when it was not, RemoveErr says
	// why.
	Removed   bool
	RemoveErr error
}

func (e *ImageImportFailedError) Error() string {
	removed := "it was deleted"
	if !e.Removed {
		removed = fmt.Sprintf("deleting it failed too (%v), so it is left in the organization's images", e.RemoveErr)
	}

	return fmt.Sprintf("region could not import the image from %s: image %s is failed, and %s", e.URI, e.ImageID, removed)
}

// ImportImage imports an image and waits until it is ready. The import is sent once.
// When it fails without a definite refusal, the answer may have been lost after region
// took it: the organization's image of that name that was not there before is looked
// for, past the read lag, and adopted. An image region marks failed is deleted, and the
// error is an *ImageImportFailedError. A returned image exists and must be tracked even
// when err is not nil.
func (s *Service) ImportImage(ctx context.Context, request ImageImport, progress Progress) (*Image, error) {
	if err := ValidateImageName(request.Name); err != nil {
		return nil, &ValidationError{Problems: []Problem{{Field: FieldName, Summary: "Invalid image name", Detail: err.Error()}}}
	}

	scope := ImageRef{OrganizationID: request.OrganizationID, RegionID: request.RegionID}
	named := importNamed(request.Name)

	before, err := s.ownedIDs(ctx, scope, named)
	if err != nil {
		return nil, fmt.Errorf("listing the images of organization %s: %w", request.OrganizationID, err)
	}

	image, err := s.client.CreateImage(ctx, request.OrganizationID, request.RegionID, unikorn.ImageCreate{
		Metadata: unikorn.WriteMetadata{Name: request.Name, Description: request.Description, Tags: cloud.TagsOf(request.Tags)},
		Spec: unikorn.ImageCreateSpec{
			URI: request.URI, Architecture: request.Spec.Architecture, Virtualization: request.Spec.Virtualization,
			OS: request.Spec.OS, SoftwareVersions: maps.Clone(request.Spec.SoftwareVersions), GPU: request.Spec.GPU,
		},
	})
	if err != nil {
		if !mayHaveMade(err) || cloud.IsClientError(err) {
			return nil, fmt.Errorf("importing image %q: %w", request.Name, err)
		}

		made, findErr := s.adoptImage(ctx, scope, named, before, true)
		if findErr != nil {
			return nil, fmt.Errorf("importing image %q: %w; and looking for the image it may have made failed: %w", request.Name, err, findErr)
		}

		if made == nil {
			return nil, fmt.Errorf("importing image %q: %w", request.Name, err)
		}

		progress(fmt.Sprintf("Found image %s (%s), which the import made.", made.Metadata.ID, made.Metadata.Name))
		image = made
	}

	ready, err := s.waitImage(ctx, scope, "Imported image", image, progress, func() error {
		return &ImageImportFailedError{ImageID: image.Metadata.ID, URI: request.URI}
	})

	var failed *ImageImportFailedError
	if errors.As(err, &failed) {
		// A failed image is of no use and is not left behind.
		failed.RemoveErr = s.DeleteImage(context.WithoutCancel(ctx), ImageRef{ID: image.Metadata.ID, OrganizationID: scope.OrganizationID, RegionID: scope.RegionID},
			image.Metadata.CreationTime)
		failed.Removed = failed.RemoveErr == nil

		if failed.Removed {
			return nil, failed
		}
	}

	if err != nil {
		return imageFrom(image, scope), err
	}

	return imageFrom(ready, scope), nil
}

// importNamed picks the organization's images of name that are not snapshots.
func importNamed(name string) ownedImage {
	return ownedImage{
		keep: func(image *unikorn.Image) bool {
			_, snapshot := image.Metadata.Tags.Get(SnapshotInstanceIDTag)

			return !snapshot && image.Metadata.Name == name
		},
		what: fmt.Sprintf("images named %q", name),
	}
}
