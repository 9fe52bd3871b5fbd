package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// The validators below run the façade's own rules at plan time, so that a value is
// judged by exactly one implementation whether Terraform or the façade sees it first.

// publicAddressUnlessToggled keeps the known public address across plans, except when
// public_ip changes: then the address is released or allocated and only the apply
// can tell it.
type publicAddressUnlessToggled struct{ validators.Described }

func (publicAddressUnlessToggled) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || !req.PlanValue.IsUnknown() || req.ConfigValue.IsUnknown() {
		return
	}

	var planned, prior types.Bool

	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathPublicIP, &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathPublicIP, &prior)...)

	if planned.IsUnknown() || !planned.Equal(prior) {
		return
	}

	resp.PlanValue = req.StateValue
}
