package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Cloud turns a failure every family shares into a diagnostic: a wait that ran out or
// was interrupted, a delete that what still uses the object outlasted (both
// internal/cloud's), and an answer of Unikorn's API or a request that got none,
// advised by its class (APIError). Each family's mapper words its own façade's
// failures and hands every other one here, so that the same failure reads the same
// whichever type met it. summary names the operation that failed.
func Cloud(summary string, err error) diag.Diagnostics {
	var (
		wait  *cloud.WaitError
		inUse *cloud.InUseError
	)

	switch {
	case errors.As(err, &wait) && wait.Interrupted():
		return diag.Diagnostics{Error(summary, sentence(wait.Error()),
			"Terraform was interrupted; the requests already sent were completed. Run Terraform again to see where the cloud got to.")}
	case errors.As(err, &wait):
		return diag.Diagnostics{Error(summary, sentence(wait.Error()),
			"The cloud was asked and may still finish; nothing is undone. Raise the timeout if the cloud is slow: "+
				"the resource's `timeouts`, or the action's `timeout`, which bound the wait (request_timeout bounds "+
				"one request only).")}
	case errors.As(err, &inUse):
		return diag.Diagnostics{Error(summary, sentence(inUse.Error()),
			"Nothing was deleted. Delete or move what uses it, then run Terraform again; or raise the delete timeout "+
				"if those are already going away.")}
	default:
		return diag.Diagnostics{APIError(summary, err)}
	}
}
