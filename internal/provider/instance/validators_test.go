package instance

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan keeps the attachments state holds only while they are settled: rows an earlier
// apply left pending, failed, without a device or missing are what the next apply waits
// for and changes, so planning them as they were would make its result inconsistent.
func TestAttachmentsAreKeptOnlyWhileSettled(t *testing.T) {
	t.Parallel()

	const volume, other = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"

	settled := map[string]attachmentModel{volume: {Device: types.StringValue("/dev/vdb"), Status: types.StringValue("provisioned")}}

	for name, tc := range map[string]struct {
		rows map[string]attachmentModel
		kept bool
	}{
		"provisioned with its device": {rows: settled, kept: true},
		"still provisioning": {rows: map[string]attachmentModel{
			volume: {Device: types.StringNull(), Status: types.StringValue("provisioning")},
		}},
		"failed": {rows: map[string]attachmentModel{
			volume: {Device: types.StringNull(), Status: types.StringValue("error")},
		}},
		"provisioned without a device": {rows: map[string]attachmentModel{
			volume: {Device: types.StringNull(), Status: types.StringValue("provisioned")},
		}},
		"missing": {rows: map[string]attachmentModel{}},
		"another volume's row left over": {rows: map[string]attachmentModel{
			volume: settled[volume],
			other:  {Device: types.StringValue("/dev/vdc"), Status: types.StringValue("deprovisioning")},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			resp := planAttachments(t, []string{volume}, tc.rows)

			if tc.kept {
				assert.False(t, resp.PlanValue.IsUnknown(), "settled attachments are kept")
			} else {
				assert.True(t, resp.PlanValue.IsUnknown(), "unsettled attachments are left to the apply")
			}
		})
	}
}

// planAttachments runs the plan modifier of volume_attachments on an instance whose
// volume_ids stays ids and whose state holds rows.
func planAttachments(t *testing.T, ids []string, rows map[string]attachmentModel) *planmodifier.MapResponse {
	t.Helper()

	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"volume_ids": schema.SetAttribute{Optional: true, ElementType: types.StringType},
		"volume_attachments": schema.MapNestedAttribute{Computed: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"device": schema.StringAttribute{Computed: true},
			"status": schema.StringAttribute{Computed: true},
		}}},
	}}

	set, d := types.SetValueFrom(ctx, types.StringType, ids)
	require.False(t, d.HasError())

	prior, d := types.MapValueFrom(ctx, attachmentType, rows)
	require.False(t, d.HasError())

	raw := func(attachments attr.Value) tftypes.Value {
		idsValue, err := set.ToTerraformValue(ctx)
		require.NoError(t, err)

		rowsValue, err := attachments.ToTerraformValue(ctx)
		require.NoError(t, err)

		return tftypes.NewValue(s.Type().TerraformType(ctx), map[string]tftypes.Value{
			"volume_ids": idsValue, "volume_attachments": rowsValue,
		})
	}

	unknown := types.MapUnknown(attachmentType)
	req := planmodifier.MapRequest{
		Plan:        tfsdk.Plan{Schema: s, Raw: raw(unknown)},
		State:       tfsdk.State{Schema: s, Raw: raw(prior)},
		ConfigValue: types.MapNull(attachmentType),
		PlanValue:   unknown,
		StateValue:  prior,
	}
	resp := &planmodifier.MapResponse{PlanValue: req.PlanValue}

	attachmentsFollowVolumes{}.PlanModifyMap(ctx, req, resp)
	require.False(t, resp.Diagnostics.HasError(), "%v", resp.Diagnostics)

	return resp
}
