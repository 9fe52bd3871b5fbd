package planning

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Prior is the resource's state before the plan: nil for a create; ok is false when
// the state cannot be read, and diags say why.
func Prior[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (prior *M, ok bool) {
	if req.State.Raw.IsNull() {
		return nil, true
	}

	prior = new(M)
	if diags.Append(req.State.Get(ctx, prior)...); diags.HasError() {
		return nil, false
	}

	return prior, true
}

// RefusedInPlace is the rule for a refusal of an in-place change: a change region
// would refuse, or the provider will not risk, on an object that stays (file storage
// made smaller, a listener changing what region fixes for its name). refusals are what
// a type's check found comparing the prior state with the plan, as errors; what
// RefusedInPlace returns is what ModifyPlan reports of them.
//
//   - Nothing, when nothing changes in place: the plan creates the object (no prior
//     state: a create, a tainted object, the create half of a replacement), destroys
//     it (a null plan), or replaces it for a change of an attribute whose plan
//     modifiers require it (run again here: ModifyPlan is not told of them). The new
//     object is checked as new.
//   - Otherwise warnings, each saying that applying will stop at this object before
//     anything is sent, and the type's Update refuses with the errors themselves.
//     Terraform asks for the plan of `terraform apply -replace=ADDRESS`, and the plan
//     that refreshes the state before `terraform destroy`, with the very call it makes
//     for an update: an error at plan would stop the replacement that makes the change
//     fine and the destroy that makes it moot, and the provider cannot tell them apart.
func RefusedInPlace(ctx context.Context, req resource.ModifyPlanRequest, refusals diag.Diagnostics) diag.Diagnostics {
	if !refusals.HasError() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || Replaces(ctx, req) {
		return nil
	}

	var warnings diag.Diagnostics

	for _, refusal := range refusals {
		if refusal.Severity() != diag.SeverityError {
			warnings.Append(refusal)

			continue
		}

		detail := refusal.Detail() + "\n\nApplying this plan stops at this resource before anything is sent to the cloud. " +
			"Replacing the resource (`terraform apply -replace=<address>`) or destroying it is not refused."

		if withPath, ok := refusal.(diag.DiagnosticWithPath); ok {
			warnings.AddAttributeWarning(withPath.Path(), refusal.Summary(), detail)
		} else {
			warnings.AddWarning(refusal.Summary(), detail)
		}
	}

	return warnings
}

// Replaces reports whether the plan replaces the object for a change of one of its
// top-level attributes: whether any attribute that changes has a plan modifier that
// requires replacement (stringplanmodifier.RequiresReplace and the like, or one of the
// provider's own), as the framework found before calling ModifyPlan. The modifiers run
// again with the same request; only attributes that change are looked at.
func Replaces(ctx context.Context, req resource.ModifyPlanRequest) bool {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return false
	}

	var planned, prior map[string]tftypes.Value
	if req.Plan.Raw.As(&planned) != nil || req.State.Raw.As(&prior) != nil {
		return false
	}

	for name, attribute := range req.Plan.Schema.GetAttributes() {
		if planned[name].Equal(prior[name]) {
			continue
		}

		if requiresReplace(ctx, req, path.Root(name), attribute) {
			return true
		}
	}

	return false
}

// requiresReplace runs the plan modifiers of one top-level attribute.
func requiresReplace(ctx context.Context, req resource.ModifyPlanRequest, at path.Path, attribute any) bool {
	switch a := attribute.(type) {
	case schema.StringAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.String, c, p, s types.String) bool {
			resp := &planmodifier.StringResponse{PlanValue: p}
			m.PlanModifyString(ctx, planmodifier.StringRequest{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.Int64Attribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.Int64, c, p, s types.Int64) bool {
			resp := &planmodifier.Int64Response{PlanValue: p}
			m.PlanModifyInt64(ctx, planmodifier.Int64Request{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.BoolAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.Bool, c, p, s types.Bool) bool {
			resp := &planmodifier.BoolResponse{PlanValue: p}
			m.PlanModifyBool(ctx, planmodifier.BoolRequest{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.SetAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.Set, c, p, s types.Set) bool {
			resp := &planmodifier.SetResponse{PlanValue: p}
			m.PlanModifySet(ctx, planmodifier.SetRequest{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.MapAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.Map, c, p, s types.Map) bool {
			resp := &planmodifier.MapResponse{PlanValue: p}
			m.PlanModifyMap(ctx, planmodifier.MapRequest{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.ListAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, func(m planmodifier.List, c, p, s types.List) bool {
			resp := &planmodifier.ListResponse{PlanValue: p}
			m.PlanModifyList(ctx, planmodifier.ListRequest{
				Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
				Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
			}, resp)

			return resp.RequiresReplace
		})
	case schema.SingleNestedAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, objectModifier(ctx, req, at))
	case schema.ObjectAttribute:
		return runModifiers(ctx, req, at, a.PlanModifiers, objectModifier(ctx, req, at))
	}

	// The provider's other kinds of attributes (nested sets, lists and maps) replace no
	// resource; a type whose do adds its kind here.
	return false
}

func objectModifier(ctx context.Context, req resource.ModifyPlanRequest, at path.Path) func(m planmodifier.Object, c, p, s types.Object) bool {
	return func(m planmodifier.Object, c, p, s types.Object) bool {
		resp := &planmodifier.ObjectResponse{PlanValue: p}
		m.PlanModifyObject(ctx, planmodifier.ObjectRequest{
			Path: at, PathExpression: at.Expression(), Config: req.Config, ConfigValue: c,
			Plan: req.Plan, PlanValue: p, State: req.State, StateValue: s,
		}, resp)

		return resp.RequiresReplace
	}
}

// runModifiers reads the attribute's configured, planned and prior values and runs
// each modifier on them until one requires replacement.
func runModifiers[M any, V any](ctx context.Context, req resource.ModifyPlanRequest, at path.Path, modifiers []M,
	run func(m M, config, plan, state V) bool,
) bool {
	if len(modifiers) == 0 {
		return false
	}

	var config, plan, state V
	if req.Config.GetAttribute(ctx, at, &config).HasError() || req.Plan.GetAttribute(ctx, at, &plan).HasError() ||
		req.State.GetAttribute(ctx, at, &state).HasError() {
		return false
	}

	for _, m := range modifiers {
		if run(m, config, plan, state) {
			return true
		}
	}

	return false
}
