package cloud

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// Deleting says whether a read shows a delete the cloud has accepted and not
// finished: region and identity set the object's deletionTime and report it
// `deprovisioning` from the moment they accept the delete until it is gone (a
// project's while other services still reference it). Such an object will be gone
// however it looks otherwise, and nothing can be built on it.
func Deleting(metadata *unikorn.ReadMetadata) bool {
	return metadata != nil && (metadata.DeletionTime != nil || metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning)
}
