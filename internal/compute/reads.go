package compute

import (
	"errors"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ProvisioningError is the provisioning status of an instance the cloud gave up on.
const ProvisioningError = unikorn.ProvisioningError

// StatusCode is the HTTP status a service answered a failed call with, or 0 when err
// is no answer at all (unreachable, timed out).
func StatusCode(err error) int {
	var apiErr *unikorn.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}

	return 0
}
