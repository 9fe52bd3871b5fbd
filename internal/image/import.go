package image

import (
	"context"
	"errors"
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Import asks region to import a raw disk image from a URI into an organization's
// images of a region.
type Import struct {
	OrganizationID string
	RegionID       string
	Name           string
	Description    string
	Tags           map[string]string
	// URI is where region fetches the image from.
	URI string
	// Spec describes the image; its size is region's to measure.
	Spec catalogue.ImageSpec
}

// ImportFailedError means region could not import the image: it marked the image
// failed, which says no more of why (the URI unreachable, or not a raw disk image).
type ImportFailedError struct {
	ImageID, URI string
	// Removed says whether the failed image was deleted; when it was not, RemoveErr says
	// why.
	Removed   bool
	RemoveErr error
}

func (e *ImportFailedError) Error() string {
	removed := "it was deleted"
	if !e.Removed {
		removed = fmt.Sprintf("deleting it failed too (%v), so it is left in the organization's images", e.RemoveErr)
	}

	return fmt.Sprintf("region could not import the image from %s: image %s is failed, and %s", e.URI, e.ImageID, removed)
}

// Import implements Images. The import is sent once. When it fails without a definite
// refusal, the answer may have been lost after region took it: the organization's
// image of that name that was not there before is looked for, past the read lag, and
// adopted. An image region marks failed is deleted, and the error is an
// *ImportFailedError. A returned image exists and must be tracked even when err is not
// nil.
func (s *Service) Import(ctx context.Context, request Import, progress cloud.Progress) (*Image, error) {
	if err := ValidateName(request.Name); err != nil {
		return nil, &NameError{Err: err}
	}

	scope := Ref{OrganizationID: request.OrganizationID, RegionID: request.RegionID}
	named := importNamed(request.Name)

	before, err := s.ownedIDs(ctx, scope, named)
	if err != nil {
		return nil, fmt.Errorf("listing the images of organization %s: %w", request.OrganizationID, err)
	}

	image, err := s.client.CreateImage(ctx, request.OrganizationID, request.RegionID, unikorn.ImageCreate{
		Metadata: unikorn.WriteMetadata{Name: request.Name, Description: request.Description, Tags: cloud.TagsOf(request.Tags).Wire()},
		Spec:     createSpec(request.Spec, request.URI),
	})
	if err != nil {
		if cloud.IsClientError(err) {
			return nil, fmt.Errorf("importing image %q: %w", request.Name, err)
		}

		made, findErr := s.adopt(ctx, scope, named, before, true)
		if findErr != nil {
			return nil, fmt.Errorf("importing image %q: %w; and looking for the image it may have made failed: %w", request.Name, err, findErr)
		}

		if made == nil {
			return nil, fmt.Errorf("importing image %q: %w", request.Name, err)
		}

		progress(fmt.Sprintf("Found image %s (%s), which the import made.", made.Metadata.ID, made.Metadata.Name))
		image = made
	}

	ready, err := s.wait(ctx, scope, "Imported image", image, progress, func() error {
		return &ImportFailedError{ImageID: image.Metadata.ID, URI: request.URI}
	})

	var failed *ImportFailedError
	if errors.As(err, &failed) {
		// A failed image is of no use and is not left behind.
		failed.RemoveErr = s.Delete(context.WithoutCancel(ctx), Ref{ID: image.Metadata.ID, OrganizationID: scope.OrganizationID, RegionID: scope.RegionID},
			image.Metadata.CreationTime)
		failed.Removed = failed.RemoveErr == nil

		if failed.Removed {
			return nil, failed
		}
	}

	if err != nil {
		return From(image, scope), err
	}

	return From(ready, scope), nil
}

// importNamed picks the organization's images of name that are not snapshots.
func importNamed(name string) owned {
	return owned{
		keep: func(image *unikorn.Image) bool {
			_, snapshot := image.Metadata.Tags.Get(cloud.SnapshotInstanceIDTag)

			return !snapshot && image.Metadata.Name == name
		},
		what: fmt.Sprintf("images named %q", name),
	}
}
