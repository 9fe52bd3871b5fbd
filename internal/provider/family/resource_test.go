package family_test

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

type object struct{}

type model struct {
	ID       types.String   `tfsdk:"id"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *model) Keys() (types.String, types.String) { return types.StringNull(), m.ID }

func (m *model) Limits() timeouts.Value { return m.Timeouts }

// deleteAllows is how long a delete of typ's object may take, its configuration
// setting no delete timeout.
func deleteAllows(t *testing.T, typ family.Type) time.Duration {
	t.Helper()

	ctx := t.Context()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":       schema.StringAttribute{Computed: true},
		"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Delete: true}),
	}}

	timeoutsType, diags := s.TypeAtPath(ctx, path.Root("timeouts"))
	require.False(t, diags.HasError(), diags)

	objectType, ok := timeoutsType.(attr.TypeWithAttributeTypes)
	require.True(t, ok)

	state := tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}
	diags = state.Set(ctx, &model{ID: types.StringValue("f0000000-0000-4000-8000-000000000001"),
		Timeouts: timeouts.Value{Object: types.ObjectNull(objectType.AttributeTypes())}})
	require.False(t, diags.HasError(), diags)

	var allowed time.Duration

	r := family.Resource[object, *model]{
		Base: family.Base{Type: typ, Provider: &providerdata.Data{}},
		Object: family.Object[object, *model]{
			New: func() *model { return &model{} },
			Remove: func(ctx context.Context, _ *providerdata.Data, _ family.Key, _ time.Time) error {
				deadline, ok := ctx.Deadline()
				require.True(t, ok, "the delete has a deadline")

				allowed = time.Until(deadline)

				return nil
			},
		},
	}

	resp := resource.DeleteResponse{State: state}
	r.Delete(ctx, resource.DeleteRequest{State: state}, &resp)
	require.False(t, resp.Diagnostics.HasError(), resp.Diagnostics)

	return allowed
}

// A delete whose configuration sets no timeout is bounded by the type's Timeout, or by
// its DeleteTimeout where it has one.
func TestDeleteIsBoundedByTheTypesTimeout(t *testing.T) {
	const write, remove = 30 * time.Minute, 20 * time.Minute

	assert.InDelta(t, write, deleteAllows(t, family.Type{Name: "unikorn_test", Noun: "test", Timeout: write}), float64(time.Minute))
	assert.InDelta(t, remove, deleteAllows(t, family.Type{Name: "unikorn_test", Noun: "test", Timeout: write, DeleteTimeout: remove}),
		float64(time.Minute))
}
