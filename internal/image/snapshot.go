package image

import (
	"context"
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Snapshot is an image to make of an instance's disk, by the instance back end that
// has the instance (compute.SnapshotOf says how).
type Snapshot struct {
	// InstanceID, OrganizationID and RegionID say whose disk it is and where the image
	// is made; Name is the image's.
	InstanceID     string
	OrganizationID string
	RegionID       string
	Name           string
	// Make sends the snapshot once and waits until its image is ready.
	Make func(ctx context.Context) (*Image, error)
	// Unsent reports whether a failure of Make was found before anything was sent, so
	// that it cannot have made an image.
	Unsent func(err error) bool
}

// SnapshotFailedError means the cloud could not make the snapshot image.
type SnapshotFailedError struct {
	InstanceID string
	ImageID    string
}

func (e *SnapshotFailedError) Error() string {
	return fmt.Sprintf("the cloud failed to snapshot instance %s: image %s is failed", e.InstanceID, e.ImageID)
}

// Snapshot implements Images. The snapshot is sent once. When it fails without a
// definite refusal, the answer may have been lost after region made the image, or the
// wait may have ended after it did: rather than send it again, the image carrying the
// instance's provenance tag and the name that was not there before is looked for,
// past the read lag, and adopted.
func (s *Service) Snapshot(ctx context.Context, snapshot Snapshot, progress cloud.Progress) (*Image, error) {
	scope := Ref{OrganizationID: snapshot.OrganizationID, RegionID: snapshot.RegionID}

	ofInstance := snapshotOf(snapshot.InstanceID, snapshot.Name)

	before, err := s.ownedIDs(ctx, scope, ofInstance)
	if err != nil {
		return nil, fmt.Errorf("listing the images of instance %s: %w", snapshot.InstanceID, err)
	}

	image, err := snapshot.Make(ctx)
	if err == nil {
		image.OrganizationID, image.RegionID, image.InstanceID = scope.OrganizationID, scope.RegionID, snapshot.InstanceID

		return image, nil
	}

	if snapshot.Unsent(err) {
		return nil, err
	}

	made, findErr := s.adopt(ctx, scope, ofInstance, before, !cloud.IsClientError(err))
	if findErr != nil {
		return nil, fmt.Errorf("%w; and looking for the image it may have made failed: %w", err, findErr)
	}

	if made == nil {
		return nil, err
	}

	progress(fmt.Sprintf("Found image %s (%s), which the snapshot made.", made.Metadata.ID, made.Metadata.Name))

	if ctx.Err() != nil || made.Status.State == unikorn.ImageFailed {
		return From(made, scope), err
	}

	return s.WaitSnapshot(ctx, snapshot.InstanceID, scope, made, progress)
}

// WaitSnapshot waits until the snapshot image of the instance, made in scope, is
// ready, reporting its states; an image the cloud marks failed is a
// *SnapshotFailedError. The image is returned once it is ready, and also with any
// error but that: it exists and must be tracked.
func (s *Service) WaitSnapshot(ctx context.Context, instanceID string, scope Ref, made *unikorn.Image, progress cloud.Progress,
) (*Image, error) {
	ready, err := s.wait(ctx, scope, "Snapshot image", made, progress, func() error {
		return &SnapshotFailedError{InstanceID: instanceID, ImageID: made.Metadata.ID}
	})
	if err != nil {
		return From(made, scope), err
	}

	return From(ready, scope), nil
}

// snapshotOf picks the images of name made from instanceID.
func snapshotOf(instanceID, name string) owned {
	return owned{
		keep: func(image *unikorn.Image) bool {
			from, _ := image.Metadata.Tags.Get(cloud.SnapshotInstanceIDTag)

			return from == instanceID && image.Metadata.Name == name
		},
		what: fmt.Sprintf("images of instance %s named %q", instanceID, name),
	}
}
