package volumes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

// replacing are the attributes region fixes when it makes a volume, whose change
// replaces it.
var replacing = []string{"network_id", "size_gib", "volume_class_id"}

// replacementLoss is what a replaced volume loses.
const replacementLoss = "region cannot change them on a volume it has made, so a new, empty volume is made, " +
	"and this one is deleted with its data"

// ModifyPlan warns of a replacement, which loses the volume's data (and of an
// attached volume's, which needs create_before_destroy), and checks at plan
// what region would refuse of a new volume, on the attribute at fault: a class not of
// the network's region, a size outside the class's bounds. A network made in the same
// apply has no region yet: then only a size every class of the ID refuses is an error,
// and the create checks the rest before it sends anything. It never writes.
func (r *volumeResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.PlanDeleting(ctx, req, resp) {
		return
	}

	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	if !req.State.Raw.IsNull() {
		changed, err := planning.Changed(req.Plan, req.State, replacing)

		switch {
		case err != nil:
			resp.Diagnostics.AddError("Unable to compare the plan with the state", err.Error())

			return
		case len(changed) == 0:
			return
		}

		var state resourceModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}

		resp.Diagnostics.Append(planning.Replaced(r.Noun, state.Name.ValueString(), state.ID.ValueString(), changed, replacementLoss))

		// Terraform does not tell a provider of lifecycle settings, so an attached
		// volume's replacement is warned of whether or not it is made first.
		if r.Provider.Online() {
			r.warnAttached(ctx, &state, &resp.Diagnostics)
		}
	}

	// While the provider's configuration is not known, the cloud is not asked: the
	// plan made again when Terraform applies checks the volume.
	if r.Provider.Online() {
		r.checkClass(ctx, &plan, &resp.Diagnostics)
	}
}

// checkClass checks the class and size of a new volume (or of a replacement).
func (r *volumeResource) checkClass(ctx context.Context, plan *resourceModel, diags *diag.Diagnostics) {
	if plan.VolumeClassID.IsUnknown() || plan.SizeGiB.IsUnknown() {
		return
	}

	networkID := ""
	if !plan.NetworkID.IsUnknown() {
		networkID = plan.NetworkID.ValueString()
	}

	problem, err := r.Provider.Volumes.CheckClass(ctx, networkID, plan.VolumeClassID.ValueString(), plan.SizeGiB.ValueInt64())
	if err != nil {
		diags.Append(diagnostic.APIError("Unable to check the volume class", err))

		return
	}

	if problem != nil {
		diags.Append(diagnostic.VolumeProblem(path.Root(string(problem.Field)), problem))
	}
}

// warnAttached warns when the volume being replaced is attached (see
// diagnostic.AttachedVolumeReplaced). A volume the read cannot show is left to the
// apply, which says what it meets.
func (r *volumeResource) warnAttached(ctx context.Context, state *resourceModel, diags *diag.Diagnostics) {
	volume, err := r.Provider.Volumes.Read(ctx, state.ID.ValueString())
	if err == nil && volume.AttachedAt != nil {
		diags.Append(diagnostic.AttachedVolumeReplaced(state.Name.ValueString(), state.ID.ValueString()))
	}
}
