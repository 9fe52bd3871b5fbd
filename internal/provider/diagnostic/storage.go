package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// Storage turns an error of the file storage façade into diagnostics that say what is
// left behind and what to do; the failures every family shares (waits, API answers)
// read as Cloud words them.
func Storage(summary string, err error) diag.Diagnostics {
	var (
		quota    *storage.QuotaError
		attached *storage.AttachmentFailedError
		failed   *storage.ProvisioningFailedError
	)

	switch {
	case errors.As(err, &quota) && quota.ID != "":
		return diag.Diagnostics{Error(summary, sentence(quota.Error())+" The file storage is unchanged.",
			"Shrink or delete file storage you no longer need elsewhere, or ask the platform operator to raise the "+
				"organization's `filestorage` quota.")}
	case errors.As(err, &quota):
		return diag.Diagnostics{Error(summary, sentence(quota.Error())+" Nothing was created.",
			"Choose a smaller size_gib, delete file storage you no longer need, or ask the platform operator to raise "+
				"the organization's `filestorage` quota.")}
	case errors.As(err, &attached):
		return diag.Diagnostics{Error(summary, sentence(attached.Error()),
			"The file storage is kept in the state. Check the network, then apply again, or detach the network; if it "+
				"fails again, report the storage and network IDs to the platform operator.")}
	case errors.As(err, &failed):
		return diag.Diagnostics{Error(summary, sentence(failed.Error()),
			"The file storage is recorded in the state as tainted if it was being created: the next apply replaces it. "+
				"If it fails again, report the storage ID to the platform operator.")}
	default:
		return Cloud(summary, err)
	}
}
