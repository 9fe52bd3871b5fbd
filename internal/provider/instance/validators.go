package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
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

// attachmentsFollowVolumes keeps the known attachments across plans while volume_ids
// does not change and every attachment is settled: a device stays the guest's name for
// its volume. When the set changes, or an earlier apply left an attachment unsettled
// (pending, failed, without a device, or missing), only the apply can tell the
// attachments: the apply waits for them, so keeping the old rows would promise a value
// the apply does not return.
type attachmentsFollowVolumes struct{ validators.Described }

func (attachmentsFollowVolumes) PlanModifyMap(ctx context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	if req.StateValue.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}

	var planned, prior types.Set

	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathVolumeIDs, &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathVolumeIDs, &prior)...)

	if planned.IsUnknown() || !sameIDs(planned, prior) || !settled(ctx, req.StateValue, planned) {
		return
	}

	resp.PlanValue = req.StateValue
}

// settled reports whether the attachments are exactly the volumes wanted, each one
// provisioned with its device.
func settled(ctx context.Context, rows types.Map, wanted types.Set) bool {
	var byVolume map[string]attachmentModel
	if rows.ElementsAs(ctx, &byVolume, false).HasError() || len(byVolume) != len(wanted.Elements()) {
		return false
	}

	for _, element := range wanted.Elements() {
		id, ok := element.(types.String)
		if !ok {
			return false
		}

		row, found := byVolume[id.ValueString()]
		attachment := compute.Attachment{ProvisioningStatus: row.Status.ValueString(), Device: row.Device.ValueString()}
		if !found || !attachment.Settled() {
			return false
		}
	}

	return true
}

// sameIDs reports whether two known sets of IDs hold the same IDs, null and empty alike.
func sameIDs(a, b types.Set) bool {
	return len(a.Elements()) == 0 && len(b.Elements()) == 0 || a.Equal(b)
}
