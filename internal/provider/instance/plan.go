package instance

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// ModifyPlan checks a plan against the cloud while the values are known, so that a
// bad flavor, image, security group or SSH certificate authority fails the plan, not
// the apply half-way. It also warns about replacements, which lose data, and fills in
// what the plan can already know: the organization, project and region (those of the
// network). The ID, though derivable, stays unknown until the instance exists: what
// reads an instance by its ID (an ephemeral SSH key, say) must wait for it.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}

	// An instance being deleted is replaced, and its replacement checked as a new one.
	deleting := (private.Deletion{Noun: r.Noun}).PlanDeleting(ctx, req, resp)
	if !deleting && unchanged(ctx, req) {
		return
	}

	var plannedVolumes types.Set
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathVolumeIDs, &plannedVolumes)...); resp.Diagnostics.HasError() {
		return
	}

	// Whether volumes can be attached at all needs no value the apply could still
	// change: only how many there are.
	if r.Provider != nil && r.Provider.InstanceAPI == providerdata.InstanceAPIRegion && len(plannedVolumes.Elements()) > 0 {
		resp.Diagnostics.Append(diagnostic.Compute("Unable to attach volumes",
			&compute.ValidationError{Problems: []compute.Problem{compute.RegionAttachesNoVolumes}})...)

		return
	}

	creating := req.State.Raw.IsNull() || deleting
	needsCheck := creating

	if !creating {
		var state model

		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

		if resp.Diagnostics.HasError() {
			return
		}

		switch state.ProvisioningStatus.ValueString() {
		case vanishedStatus:
			resp.Diagnostics.AddWarning("Instance no longer exists",
				fmt.Sprintf("The server of instance %q (%s) was deleted outside Terraform. Applying deletes what is left "+
					"of it (its quota allocation) and creates it again; remove it from the configuration to only release the quota.",
					state.Name.ValueString(), state.ID.ValueString()))
			resp.RequiresReplace = append(resp.RequiresReplace, pathProvisioningStatus)
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathProvisioningStatus, types.StringUnknown())...)
			creating = true
		case compute.ProvisioningError:
			resp.Diagnostics.AddWarning("Instance failed in the cloud",
				fmt.Sprintf("The cloud reports instance %q (%s) with provisioning status error. Terraform leaves it as it is; "+
					"to replace it, run terraform apply -replace=<address of this resource>.",
					state.Name.ValueString(), state.ID.ValueString()))
		}

		replaced, err := replacingChanges(req.Plan, req.State)
		if err != nil {
			resp.Diagnostics.AddError("Unable to compare the plan with the state", err.Error())

			return
		}

		if len(replaced) > 0 {
			resp.Diagnostics.Append(planning.Replaced(r.Noun, state.Name.ValueString(), state.ID.ValueString(), replaced,
				replacementLoss(ctx, req)))

			creating = true
		}

		var plannedGroups types.Set
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathSecurityGroupIDs, &plannedGroups)...)

		needsCheck = creating || !plannedGroups.Equal(state.SecurityGroupIDs) || !sameIDs(plannedVolumes, state.VolumeIDs)
	}

	if !needsCheck || r.Provider == nil || r.Provider.Instances == nil || resp.Diagnostics.HasError() {
		return
	}

	// Only a check needs the whole plan and configuration: reading them into models is
	// most of the framework's reflection in a plan that changes tags on every instance.
	var plan, config model

	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)

	if resp.Diagnostics.HasError() || !config.allKnown() {
		return
	}

	plan.UserDataWO = config.UserDataWO
	spec := plan.spec(ctx, &resp.Diagnostics)

	if !creating {
		if err := r.Provider.Instances.ValidateUpdate(ctx, spec); err != nil {
			resp.Diagnostics.Append(planDiagnostics(err, false)...)
		}

		return
	}

	location, err := r.Provider.Instances.Validate(ctx, spec)
	if err != nil {
		resp.Diagnostics.Append(planDiagnostics(err, !config.UserDataWO.IsNull())...)

		return
	}

	resp.Diagnostics.Append(planNewInstance(ctx, resp, location)...)
}

// planNewInstance fills in what a new instance's plan can know before it exists; what
// only the cloud can tell stays unknown, even where a replaced instance knew it.
func planNewInstance(ctx context.Context, resp *resource.ModifyPlanResponse, location *compute.Location) diag.Diagnostics {
	var diags diag.Diagnostics

	known := map[string]string{
		"organization_id": location.OrganizationID,
		"project_id":      location.ProjectID,
		"region_id":       location.RegionID,
	}
	for name, value := range known {
		diags.Append(resp.Plan.SetAttribute(ctx, path.Root(name), types.StringValue(value))...)
	}

	for _, name := range []string{"id", "private_ip", "public_ip_address", "mac_address", "power_state", "provisioning_status", "health_status", "creation_time"} {
		diags.Append(resp.Plan.SetAttribute(ctx, path.Root(name), types.StringUnknown())...)
	}

	diags.Append(resp.Plan.SetAttribute(ctx, path.Root("volume_attachments"), types.MapUnknown(attachmentType))...)

	return diags
}

// planDiagnostics points each validation problem at its attribute. User data that came
// from the write-only attribute is blamed on that attribute.
func planDiagnostics(err error, writeOnlyUserData bool) diag.Diagnostics {
	var problems *compute.ValidationError
	if writeOnlyUserData && errors.As(err, &problems) {
		for i := range problems.Problems {
			if problems.Problems[i].Field == compute.FieldUserData {
				problems.Problems[i].Field = compute.Field(pathUserDataW.String())
			}
		}
	}

	return diagnostic.Compute("Unable to check the instance against the cloud", err)
}

// unchanged reports whether the plan is the state of an instance that is as it should
// be: nothing to check, warn about or fill in. A refresh plans every instance of a
// configuration, and reading the plan, the configuration and the state into models
// (the framework's reflection) was nearly a tenth of the provider's CPU in a refresh of
// 1,000 instances.
func unchanged(ctx context.Context, req resource.ModifyPlanRequest) bool {
	if req.State.Raw.IsNull() || !req.Plan.Raw.Equal(req.State.Raw) {
		return false
	}

	var status types.String
	if diags := req.State.GetAttribute(ctx, pathProvisioningStatus, &status); diags.HasError() {
		return false
	}

	return status.ValueString() != vanishedStatus && status.ValueString() != compute.ProvisioningError
}

// replacementLoss says what a replacement of the instance loses, and what it keeps:
// its volumes, which the replacement attaches in the same apply.
func replacementLoss(ctx context.Context, req resource.ModifyPlanRequest) string {
	loss := "its server, its disk and its IP addresses are lost, and a new server is created from the image"

	var volumes types.Set
	if diags := req.Plan.GetAttribute(ctx, pathVolumeIDs, &volumes); !diags.HasError() && len(volumes.Elements()) > 0 {
		loss += "; its volumes keep their data and are attached to the new instance in the same apply"
	}

	return loss
}
