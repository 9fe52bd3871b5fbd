package storage

import (
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// QuotaError means identity refused to charge the storage's size to the
// organization's `filestorage` quota, which counts bytes: nothing was created, or, for
// an update (ID set), nothing changed.
type QuotaError struct {
	// ID is the storage an update was refused for; empty for a create.
	ID      string
	SizeGiB int64
	Err     error
}

func (e *QuotaError) Error() string {
	what := "new file storage"
	if e.ID != "" {
		what = "file storage " + e.ID
	}

	return fmt.Sprintf("the organization's `filestorage` quota does not hold %d GiB (%d bytes) for %s: %v",
		e.SizeGiB, e.SizeGiB<<30, what, e.Err)
}

func (e *QuotaError) Unwrap() error { return e.Err }

// quotaRefused tells identity's refusal of a quota charge, which region passes on as
// it is, from region's own 403s (a class or a network of another organization).
func quotaRefused(err error) bool {
	return cloud.IsQuotaRefusal(err)
}

// AttachmentFailedError means the storage back end reported the export of the storage
// to a network as failed.
type AttachmentFailedError struct {
	StorageID string
	NetworkID string
}

func (e *AttachmentFailedError) Error() string {
	return fmt.Sprintf("the cloud failed to export file storage %s to network %s: the attachment's provisioning status is error",
		e.StorageID, e.NetworkID)
}

// ProvisioningFailedError means the cloud reported the provisioning of file storage as
// failed.
type ProvisioningFailedError struct {
	StorageID string
}

func (e *ProvisioningFailedError) Error() string {
	return fmt.Sprintf("the cloud failed to provision file storage %s: its provisioning status is error", e.StorageID)
}
