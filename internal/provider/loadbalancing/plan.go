package loadbalancing

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ planmodifier.Int64  = idleTimeoutDefault{}
	_ planmodifier.String = publicIPFollowsEnabled{}
)

// idleTimeoutDefault plans region's default idle timeout for a listener that sets
// none: 60 seconds for TCP, none for UDP. Region stores and reads back that default,
// so a plan that left the value unknown, or null, would differ from every refresh.
type idleTimeoutDefault struct{ validators.Described }

func (idleTimeoutDefault) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() {
		return
	}

	var protocol types.String

	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, req.Path.ParentPath().AtName("protocol"), &protocol)...)

	switch {
	case protocol.IsUnknown() || protocol.IsNull():
		resp.PlanValue = types.Int64Unknown()
	case loadbalancing.DefaultIdleTimeout(protocol.ValueString()) == 0:
		resp.PlanValue = types.Int64Null()
	default:
		resp.PlanValue = types.Int64Value(int64(loadbalancing.DefaultIdleTimeout(protocol.ValueString())))
	}
}

// publicIPFollowsEnabled plans the public IP: kept while public_ip_enabled stays as it
// was, unknown when it is switched on (or on without an address yet) and null when it
// is switched off.
type publicIPFollowsEnabled struct{ validators.Described }

func (publicIPFollowsEnabled) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}

	var planned, current types.Bool

	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, req.Path.ParentPath().AtName("public_ip_enabled"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, req.Path.ParentPath().AtName("public_ip_enabled"), &current)...)

	switch {
	case planned.IsUnknown():
		resp.PlanValue = types.StringUnknown()
	case planned.Equal(current) && (!planned.ValueBool() || !req.StateValue.IsNull()):
		resp.PlanValue = req.StateValue
	case planned.ValueBool():
		resp.PlanValue = types.StringUnknown()
	default:
		resp.PlanValue = types.StringNull()
	}
}
