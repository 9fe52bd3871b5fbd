package family_test

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	family.Timed

	ID types.String `tfsdk:"id"`
}

func (m *model) Keys() (types.String, types.String) { return types.StringNull(), m.ID }

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
		Timed: family.Timed{Timeouts: timeouts.Value{Object: types.ObjectNull(objectType.AttributeTypes())}}})
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

// plannedWith is a plan of the test type whose timeouts block sets create and update.
func plannedWith(t *testing.T, create, update string) tfsdk.Plan {
	t.Helper()

	ctx := t.Context()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":       schema.StringAttribute{Computed: true},
		"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true}),
	}}

	timeoutsType, diags := s.TypeAtPath(ctx, path.Root("timeouts"))
	require.False(t, diags.HasError(), diags)

	objectType, ok := timeoutsType.(attr.TypeWithAttributeTypes)
	require.True(t, ok)

	limits, diags := types.ObjectValue(objectType.AttributeTypes(), map[string]attr.Value{
		"create": types.StringValue(create), "update": types.StringValue(update),
	})
	require.False(t, diags.HasError(), diags)

	plan := tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}
	diags = plan.Set(ctx, &model{ID: types.StringUnknown(), Timed: family.Timed{Timeouts: timeouts.Value{Object: limits}}})
	require.False(t, diags.HasError(), diags)

	return plan
}

// Begin reads the plan and bounds a create or an update by the plan's timeout for it;
// a provider that cannot reach Unikorn stops the operation before it starts.
func TestBeginBoundsTheOperationByItsTimeout(t *testing.T) {
	plan := plannedWith(t, "7m", "3m")
	base := family.Base{Type: family.Type{Name: "unikorn_test", Noun: "test", Timeout: time.Hour}, Provider: &providerdata.Data{}}

	for operation, want := range map[string]time.Duration{"create": 7 * time.Minute, "update": 3 * time.Minute} {
		var (
			m     model
			diags diag.Diagnostics
		)

		ctx, cancel, ok := base.Begin(t.Context(), plan, &m, operation, &diags)
		require.True(t, ok, diags)

		deadline, bounded := ctx.Deadline()
		require.True(t, bounded)
		assert.InDelta(t, want, time.Until(deadline), float64(time.Minute), operation)
		assert.True(t, m.ID.IsUnknown(), "the plan is read into the model")

		cancel()
	}

	var diags diag.Diagnostics

	offline := family.Base{Type: base.Type, Provider: &providerdata.Data{Offline: true}}
	_, cancel, ok := offline.Begin(t.Context(), plan, &model{}, "create", &diags)
	cancel()

	assert.False(t, ok)
	assert.True(t, diags.HasError())
}
