package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
)

var _ validator.String = ipv4Prefix{}

// IPv4Prefix accepts an IPv4 CIDR prefix without host bits, as region and the
// Kubernetes service take address ranges; summary names the value in the error.
func IPv4Prefix(summary string) validator.String {
	return ipv4Prefix{Described: "must be an IPv4 CIDR prefix", summary: summary}
}

type ipv4Prefix struct {
	Described

	summary string
}

func (v ipv4Prefix) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	if err := compute.ValidateCIDR(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, err.Error())
	}
}
