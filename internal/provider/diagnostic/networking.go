package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
)

// Networking turns an error of the networking façade (networks, security groups, SSH
// certificate authorities) into a diagnostic; the failures every family shares read
// as Cloud words them. summary names the operation that failed.
func Networking(summary string, err error) diag.Diagnostics {
	var quota *networking.NetworkQuotaError

	if errors.As(err, &quota) {
		return diag.Diagnostics{Error(summary, quota.Error()+". Nothing was created.",
			"Delete networks you no longer need, or ask the platform operator to raise the `networks` quota.")}
	}

	return Cloud(summary, err)
}
