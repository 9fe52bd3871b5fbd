package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// ModifyPlan checks at plan what region would refuse at apply, on the attribute at
// fault: a class not of the region, an attached network that is of another project
// or has no storage range; a smaller size is refused by the rule for in-place changes
// (planning.RefusedInPlace). It fills in the provider's organization and project for
// new storage that leaves them out, so that those checks know them, and keeps the
// mount sources of networks that stay attached known through an update, so that what
// is built on them (an instance's user data) does not change. It never writes.
func (r *fileStorageResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}

	if r.PlanDeleting(ctx, req, resp) {
		return
	}

	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	state, ok := planning.Prior[resourceModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}

	resp.Diagnostics.Append(planning.RefusedInPlace(ctx, req, checkSize(ctx, &plan, state))...)

	if r.Provider == nil {
		return
	}

	if state == nil {
		var config resourceModel
		if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
			return
		}

		r.fillScope(&plan, &config)
	}

	// While the provider's configuration is not known, the cloud is not asked: the
	// plan made again when Terraform applies checks them.
	if r.Provider.Online() {
		r.checkClass(ctx, &plan, state, &resp.Diagnostics)
		r.checkAttachments(ctx, &plan, state, &resp.Diagnostics)
	}

	switch {
	case state == nil:
	case !changesCloud(&plan.storageModel, &state.storageModel):
		// Nothing changes in the cloud, though the framework, seeing the snapshot
		// policies left out of the configuration, may have taken them for a change and
		// marked what is computed unknown: what region reports stands as it is.
		plan.keepReported(state)
	case plan.Mounts.IsUnknown():
		plan.Mounts = keptMounts(ctx, &plan, state, &resp.Diagnostics)
	}

	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// checkSize refuses a smaller size in place. Region has no guard against it, and an
// NFS share shrunk below what it holds loses data, or fails on the storage back end
// halfway: either is worse than being told now. New storage of the smaller size (a
// replacement) loses the data knowingly, and is not refused.
func checkSize(ctx context.Context, plan, state *resourceModel) diag.Diagnostics {
	var diags diag.Diagnostics

	if state == nil || plan.SizeGiB.IsUnknown() || plan.SizeGiB.IsNull() || state.SizeGiB.IsNull() {
		return nil
	}

	before, after := state.SizeGiB.ValueInt64(), plan.SizeGiB.ValueInt64()
	if after >= before {
		return nil
	}

	used := ""
	if usage := usageOf(ctx, state); usage != nil && !usage.UsedBytes.IsNull() {
		used = fmt.Sprintf(" It holds %d bytes.", usage.UsedBytes.ValueInt64())
	}

	diags.Append(diagnostic.AttributeError(pathSizeGiB, "File storage cannot shrink",
		fmt.Sprintf("size_gib would go from %d to %d GiB.%s Region would shrink the share in place, below the data "+
			"it holds if it holds more, and the provider does not risk that.", before, after, used),
		fmt.Sprintf("Keep size_gib at %d or more. To make the storage smaller, create new file storage of the smaller "+
			"size, copy the data across, and delete this one; or, if its data may be lost, replace it with "+
			"`terraform apply -replace=<address>` at the new size.", before)))

	return diags
}

func usageOf(ctx context.Context, m *resourceModel) *usageModel {
	if m.Usage.IsNull() || m.Usage.IsUnknown() {
		return nil
	}

	var usage usageModel
	if diags := m.Usage.As(ctx, &usage, objectAsOptions); diags.HasError() {
		return nil
	}

	return &usage
}

// fillScope gives new storage the provider's organization and project where the
// configuration leaves them out; one configured but not yet known stays so.
func (r *fileStorageResource) fillScope(plan, config *resourceModel) {
	plan.OrganizationID = planning.Default(config.OrganizationID, plan.OrganizationID, r.Provider.OrganizationID)
	plan.ProjectID = planning.Default(config.ProjectID, plan.ProjectID, r.Provider.ProjectID)
}

// checkClass checks the class of new storage (or of its replacement) against the region.
func (r *fileStorageResource) checkClass(ctx context.Context, plan, state *resourceModel, diags *diag.Diagnostics) {
	if plan.RegionID.IsUnknown() || plan.StorageClassID.IsUnknown() {
		return
	}

	if state != nil && plan.RegionID.Equal(state.RegionID) && plan.StorageClassID.Equal(state.StorageClassID) {
		return
	}

	problem, err := r.Provider.Storage.CheckClass(ctx, plan.RegionID.ValueString(), plan.StorageClassID.ValueString())
	if err != nil {
		diags.Append(diagnostic.APIError("Unable to check the storage class", err))

		return
	}

	if problem != nil {
		diags.Append(diagnostic.AttributeError(pathClassID, problem.Summary, problem.Detail, problem.Remedy))
	}
}

// checkAttachments checks the networks the plan attaches that the storage is not yet
// attached to: those it is were accepted by region already.
func (r *fileStorageResource) checkAttachments(ctx context.Context, plan, state *resourceModel, diags *diag.Diagnostics) {
	if plan.Attachments.IsUnknown() || plan.ProjectID.IsUnknown() {
		return
	}

	attached := map[string]bool{}

	if state != nil && plan.ProjectID.Equal(state.ProjectID) {
		before, _ := planning.KnownStrings(state.Attachments)
		for _, id := range before {
			attached[id] = true
		}
	}

	// A network not yet known (made in the same apply) is checked by the plan made
	// again at apply.
	var added []string

	planned, _ := planning.KnownStrings(plan.Attachments)
	for _, id := range planned {
		if !attached[id] {
			added = append(added, id)
		}
	}

	if len(added) == 0 {
		return
	}

	problems, err := r.Provider.Storage.CheckAttachments(ctx, plan.ProjectID.ValueString(), added)
	if err != nil {
		diags.Append(diagnostic.APIError("Unable to check the attached networks", err))

		return
	}

	for _, problem := range problems {
		diags.Append(diagnostic.AttributeError(pathAttachments, problem.Summary, problem.Detail, problem.Remedy))
	}
}

// keptMounts is the plan of mounts for an update: a network that stays attached keeps
// its mount source (its storage address and the share's path do not change), while
// its options and status are known after apply; a network being attached is known
// after apply as a whole, and one being detached goes. While a network's ID is not
// yet known, neither are the map's keys: the mounts are known after apply.
func keptMounts(ctx context.Context, plan, state *resourceModel, diags *diag.Diagnostics) types.Map {
	networkIDs, unknown := planning.KnownStrings(plan.Attachments)
	if unknown {
		return types.MapUnknown(mountType)
	}

	before := map[string]mountModel{}
	if !state.Mounts.IsNull() && !state.Mounts.IsUnknown() {
		diags.Append(state.Mounts.ElementsAs(ctx, &before, false)...)
	}

	mounts := map[string]attr.Value{}

	for _, id := range networkIDs {
		mount, ok := before[id]
		if !ok || mount.MountSource.IsNull() || mount.MountSource.IsUnknown() {
			mounts[id] = types.ObjectUnknown(mountType.AttrTypes)

			continue
		}

		value, d := types.ObjectValue(mountType.AttrTypes, map[string]attr.Value{
			"mount_source":  mount.MountSource,
			"mount_options": types.MapUnknown(types.StringType),
			"status":        types.StringUnknown(),
		})
		diags.Append(d...)
		mounts[id] = value
	}

	value, d := types.MapValue(mountType, mounts)
	diags.Append(d...)

	return value
}

// policies checks each snapshot policy by region's rules: its name, and which
// schedule fields its interval takes, reported on the field at fault.
type policies struct{ validators.Described }

var _ validator.Map = policies{}

func (policies) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	for name, element := range req.ConfigValue.Elements() {
		at := req.Path.AtMapKey(name)

		if err := storage.ValidatePolicyName(name); err != nil {
			resp.Diagnostics.Append(diagnostic.AttributeError(at, "Invalid snapshot policy name", err.Error()+".",
				"Rename the policy; its name is its key in snapshot_policies."))
		}

		object, ok := element.(types.Object)
		if !ok || object.IsUnknown() || object.IsNull() {
			continue
		}

		var model policyModel
		if diags := object.As(ctx, &model, objectAsOptions); diags.HasError() || anyUnknown(model) {
			continue
		}

		for _, err := range storage.ValidateSchedule(policySpec(name, model).Schedule) {
			var field *storage.ScheduleFieldError
			if !errors.As(err, &field) {
				continue // an interval of the wrong kind, which its own validator reports
			}

			resp.Diagnostics.Append(diagnostic.AttributeError(at.AtName(field.Field), "Invalid snapshot schedule",
				fmt.Sprintf("Policy %q: %s.", name, field.Message), "Set the fields that the policy's interval takes, and only those."))
		}
	}
}

func anyUnknown(m policyModel) bool {
	return m.Interval.IsUnknown() || m.TimeOfDay.IsUnknown() || m.DayOfWeek.IsUnknown() || m.DayOfMonth.IsUnknown() || m.Keep.IsUnknown()
}
