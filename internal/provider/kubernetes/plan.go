package kubernetes

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// The cluster's own keys in its private state.
const (
	// keyNetworkingSent says this provider made the cluster, with the networking the
	// state holds: an import, which cannot know it, does not have it.
	keyNetworkingSent = "kubernetes_networking_sent"
	// keyUnsettled says a create or an update was interrupted while the cluster was
	// still being made, so that the next apply waits for it.
	keyUnsettled = "kubernetes_unsettled"
)

func keep(ctx context.Context, w private.Writer, key string, value bool, diags *diag.Diagnostics) {
	encoded, _ := json.Marshal(value) //nolint:errchkjson // a bool encodes

	diags.Append(w.SetKey(ctx, key, encoded)...)
}

func kept(ctx context.Context, r private.Reader, key string, diags *diag.Diagnostics) bool {
	encoded, d := r.GetKey(ctx, key)
	diags.Append(d...)

	var value bool

	return len(encoded) > 0 && json.Unmarshal(encoded, &value) == nil && value
}

func unsettled(ctx context.Context, r private.Reader, diags *diag.Diagnostics) bool {
	return kept(ctx, r, keyUnsettled, diags)
}

// ModifyPlan checks at plan what the service would refuse or fail at apply, on the
// attribute at fault: a version the region has no image of, a flavor it does not offer
// for Kubernetes or whose architecture the version has no image for, an even control
// plane, an autoscaling minimum above its maximum, and a quota the cluster would
// exceed. A new cluster's problems are errors; an update's are warnings, and the
// apply refuses the update before anything is sent (planning.RefusedInPlace), except
// for quota, which only the service's answer settles. It fills in the provider's
// organization and project for a new cluster that leaves them out, and plans the wait
// for a cluster that an interrupted apply left being made. It never writes.
func (r *clusterResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.PlanDeleting(ctx, req, resp) || r.Provider == nil {
		return
	}

	var plan, config resourceModel

	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)

	if resp.Diagnostics.HasError() {
		return
	}

	state, ok := planning.Prior[resourceModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}

	if state == nil {
		plan.OrganizationID = planning.Default(config.OrganizationID, plan.OrganizationID, r.Provider.OrganizationID)
		plan.ProjectID = planning.Default(config.ProjectID, plan.ProjectID, r.Provider.ProjectID)
	}

	if r.Provider.Online() {
		refusals, quota := r.problems(ctx, &plan, &config, state, &resp.Diagnostics)

		if state == nil {
			resp.Diagnostics.Append(refusals...)
			resp.Diagnostics.Append(quota...)
		} else {
			resp.Diagnostics.Append(planning.RefusedInPlace(ctx, req, refusals)...)
			resp.Diagnostics.Append(warnings(quota)...)
		}
	}

	switch {
	case state == nil:
	case unsettled(ctx, req.Private, &resp.Diagnostics) &&
		state.ProvisioningStatus.ValueString() != kubernetes.Provisioned && !planning.Replaces(ctx, req):
		plan.ProvisioningStatus = types.StringUnknown()
		resp.Diagnostics.AddAttributeWarning(pathProvisioning, "Kubernetes cluster still being provisioned",
			"An earlier apply was interrupted while Kubernetes cluster "+state.ID.ValueString()+" was being made, and "+
				"the service shows it "+state.ProvisioningStatus.ValueString()+". Applying waits until it is provisioned.")
	case !changesCloud(ctx, &plan, state, &resp.Diagnostics):
		// Nothing changes in the cloud, though the framework, seeing attributes left
		// out of the configuration, may have taken them for a change and marked what
		// is computed unknown: what the service reports stands as it is.
		plan.keepReported(state)
	}

	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// problems is what the façade finds at fault in the plan, as errors: the refusals on
// the attribute concerned, apart from the quota the cluster would exceed, which only
// the service's answer settles. An update is checked only where it changes what the
// checks judge.
func (r *clusterResource) problems(ctx context.Context, plan, config, state *resourceModel, diags *diag.Diagnostics) (refusals, quota diag.Diagnostics) {
	check := kubernetes.Plan{
		OrganizationID: plan.OrganizationID.ValueString(),
		RegionID:       plan.RegionID.ValueString(),
		Version:        plan.Version.ValueString(),
		Pools:          plan.pools(ctx, diags),
	}

	if !config.ControlPlane.IsNull() {
		check.ControlPlane = plan.controlPlane(ctx, diags)
	}

	if state != nil {
		if plan.Version.Equal(state.Version) && plan.WorkloadPools.Equal(state.WorkloadPools) &&
			(config.ControlPlane.IsNull() || plan.ControlPlane.Equal(state.ControlPlane)) {
			return nil, nil
		}

		check.Current = &kubernetes.Cluster{Pools: state.pools(ctx, diags)}
	}

	if plan.OrganizationID.IsUnknown() || plan.RegionID.IsUnknown() {
		check.RegionID = ""
	}

	if diags.HasError() {
		return nil, nil
	}

	found, err := r.Provider.Kubernetes.Check(ctx, check)
	if err != nil {
		diags.Append(diagnostic.APIError("Unable to check the Kubernetes cluster", err))
	}

	for _, problem := range found {
		if at, ok := problemPath(problem); ok {
			refusals.Append(diagnostic.AttributeError(at, problem.Summary, problem.Detail, problem.Remedy))
		} else {
			quota.Append(diagnostic.Error(problem.Summary, problem.Detail, problem.Remedy))
		}
	}

	return refusals, quota
}

// problemPath is the attribute a problem is about; none for the cluster as a whole.
func problemPath(problem kubernetes.Problem) (path.Path, bool) {
	pool := pathPools.AtMapKey(problem.Pool)

	switch problem.Field {
	case kubernetes.FieldVersion:
		return pathVersion, true
	case kubernetes.FieldControlPlaneFlavor:
		return pathControlPlane.AtName("flavor_id"), true
	case kubernetes.FieldControlPlaneReplicas:
		return pathControlPlane.AtName("replicas"), true
	case kubernetes.FieldPoolFlavor:
		return pool.AtName("flavor_id"), true
	case kubernetes.FieldPoolReplicas:
		return pool.AtName("min_replicas"), true
	}

	return path.Empty(), false
}

// warnings is diagnostics as warnings.
func warnings(diags diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range diags {
		out.AddWarning(d.Summary(), d.Detail())
	}

	return out
}

// refuse stops an update the plan warned of, before anything is sent: what the
// service would refuse or fail, found by the same checks the plan made.
func (r *clusterResource) refuse(ctx context.Context, plan, config, state *resourceModel, diags *diag.Diagnostics) {
	refusals, _ := r.problems(ctx, plan, config, state, diags)
	diags.Append(refusals...)
}

// Read refreshes the state as every resource does, and forgets an interrupted wait
// once the service shows the cluster provisioned: nothing is left to wait for.
func (r *clusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.Resource.Read(ctx, req, resp)

	if resp.State.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}

	var status types.String
	if resp.Diagnostics.Append(resp.State.GetAttribute(ctx, pathProvisioning, &status)...); status.ValueString() == kubernetes.Provisioned {
		keep(ctx, resp.Private, keyUnsettled, false, &resp.Diagnostics)
	}
}

// networkingReplaces replaces the cluster when its networking changes: the service
// takes it once, at create, and ignores it in every update, so an update could only
// let the change vanish. An imported cluster's networking is not known (the service
// never shows it), so the first configuration given for it after the import is taken
// as what the cluster has, with a warning, rather than replacing the cluster.
type networkingReplaces struct{ validators.Described }

func (networkingReplaces) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || req.PlanValue.Equal(req.StateValue) {
		return
	}

	if req.StateValue.IsNull() && !kept(ctx, req.Private, keyNetworkingSent, &resp.Diagnostics) {
		resp.Diagnostics.AddAttributeWarning(req.Path, "Networking of an imported cluster taken as configured",
			"The Kubernetes service never shows a cluster's networking, so an import cannot know it. The "+
				"configuration's is recorded as what the cluster has, without a change: make sure it is. A later "+
				"change of it replaces the cluster.")

		return
	}

	resp.RequiresReplace = true
}

// poolNames checks the names of workload pools by the façade's rule.
type poolNames struct{ validators.Described }

func (poolNames) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	if err := kubernetes.ValidatePoolName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid workload pool name",
			"The workload pool name "+err.Error()+".", "Rename the pool."))
	}
}
