package loadbalancer

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/importing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

var (
	_ resource.ResourceWithConfigure      = (*loadBalancerResource)(nil)
	_ resource.ResourceWithImportState    = (*loadBalancerResource)(nil)
	_ resource.ResourceWithIdentity       = (*loadBalancerResource)(nil)
	_ resource.ResourceWithValidateConfig = (*loadBalancerResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*loadBalancerResource)(nil)
)

// defaultTimeout bounds a create, update or delete whose configuration sets none.
const defaultTimeout = 20 * time.Minute

var (
	pathID         = path.Root("id")
	pathVIPAddress = path.Root("vip_address")
	pathNetworkID  = path.Root("network_id")
)

// NewResource returns the unikorn_load_balancer resource.
func NewResource() resource.Resource {
	return &loadBalancerResource{}
}

// loadBalancerResource manages a load balancer as the one document region keeps:
// every change but of its network or VIP is one in-place update of that document.
type loadBalancerResource struct {
	provider *providerdata.Data
}

type identityModel struct {
	ID types.String `tfsdk:"id"`
}

func (r *loadBalancerResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = TypeName
}

func (r *loadBalancerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}

func (r *loadBalancerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(ctx)
}

// IdentitySchema is the load balancer's ID: region's IDs are unique across
// organizations and projects.
func (r *loadBalancerResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the load balancer in region."},
	}}
}

func (r *loadBalancerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importing.Type{Name: TypeName, Noun: "load balancer"}.Import(ctx, r.provider, req, resp)
}

// ValidateConfig checks every listener against region's rules, each problem at the
// listener and attribute it concerns. Values not yet known are judged at apply.
func (r *loadBalancerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config resourceModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}

	if config.Listeners.IsUnknown() || config.Listeners.IsNull() {
		return
	}

	all, unknown := listeners(ctx, config.Listeners, &resp.Diagnostics)

	for _, problem := range loadbalancing.ValidateListeners(all) {
		if !unknown[problem.Listener][problem.Field] {
			resp.Diagnostics.Append(diagnostic.ListenerProblem(problem))
		}
	}
}

// ModifyPlan stops, before anything is sent, a plan that region would refuse: a VIP
// outside the network's prefix; and a listener keeping its name while changing what
// region fixes for a name, by the rule for in-place changes (planning.RefusedInPlace:
// not when the load balancer is replaced, a warning at plan, refused by Update).
func (r *loadBalancerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.provider == nil || (private.Deletion{Noun: "load balancer"}).PlanDeleting(ctx, req, resp) {
		return
	}

	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	if !req.State.Raw.IsNull() {
		var state resourceModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
			return
		}

		refusals := immutableChanges(ctx, &state, &plan, &resp.Diagnostics)
		resp.Diagnostics.Append(planning.RefusedInPlace(ctx, req, refusals)...)

		if state.NetworkID.Equal(plan.NetworkID) && state.VIPAddress.Equal(plan.VIPAddress) {
			return
		}
	}

	// Only a VIP the configuration asks for is checked: one kept from the state is the
	// old network's, which a replacement does not keep.
	var configured types.String

	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathVIPAddress, &configured)...)

	if !configured.IsNull() {
		r.checkVIP(ctx, &plan, &resp.Diagnostics)
	}
}

// immutableChanges are the refusals of region's for a listener that keeps its name
// while it changes its protocol, port or PROXY protocol in place. diags takes what
// reading the listeners finds.
func immutableChanges(ctx context.Context, state, plan *resourceModel, diags *diag.Diagnostics) diag.Diagnostics {
	var refusals diag.Diagnostics

	current, _ := listeners(ctx, state.Listeners, diags)
	desired, unknown := listeners(ctx, plan.Listeners, diags)

	for _, problem := range loadbalancing.ImmutableChanges(current, desired) {
		if !unknown[problem.Listener][problem.Field] {
			refusals.Append(diagnostic.ListenerProblem(problem))
		}
	}

	return refusals
}

// checkVIP requires a VIP the configuration sets to lie in the network's prefix, read
// from region. A network that cannot be read now leaves the check to region.
func (r *loadBalancerResource) checkVIP(ctx context.Context, plan *resourceModel, diags *diag.Diagnostics) {
	if plan.VIPAddress.IsNull() || plan.VIPAddress.IsUnknown() || plan.NetworkID.IsUnknown() || !r.provider.Online() {
		return
	}

	prefix, err := r.provider.LoadBalancers.NetworkPrefix(ctx, plan.NetworkID.ValueString())
	if err != nil {
		diags.Append(diagnostic.LoadBalancingNetwork(pathNetworkID, plan.NetworkID.ValueString(), err))

		return
	}

	if err := loadbalancing.CheckVIP(plan.VIPAddress.ValueString(), prefix); err != nil {
		diags.Append(diagnostic.VIPOutsideNetwork(pathVIPAddress, err))
	}
}

func (r *loadBalancerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() ||
		!r.provider.Reachable("create the load balancer", providerdata.RemedyApply, &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Create, defaultTimeout, &resp.Diagnostics)
	defer cancel()

	create := loadbalancing.Create{
		Spec:       plan.spec(ctx, &resp.Diagnostics),
		NetworkID:  plan.NetworkID.ValueString(),
		VIPAddress: plan.VIPAddress.ValueString(),
	}
	if resp.Diagnostics.HasError() {
		return
	}

	lb, err := r.provider.LoadBalancers.Create(ctx, create)
	finish(ctx, "create", &plan, lb, err, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *loadBalancerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() ||
		!r.provider.Refreshable("load balancer", state.ID.ValueString(), &resp.Diagnostics) {
		return
	}

	lb, err := r.provider.LoadBalancers.Read(ctx, state.ID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(diagnostic.LoadBalancing("Could not read the load balancer", err)...)

		return
	}

	if lb == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	save(ctx, &state, lb, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *loadBalancerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan resourceModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() ||
		!r.provider.Reachable("update the load balancer", providerdata.RemedyApply, &resp.Diagnostics) {
		return
	}

	// What the plan could only warn of is refused here, before anything is sent.
	var state resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}

	if resp.Diagnostics.Append(immutableChanges(ctx, &state, &plan, &resp.Diagnostics)...); resp.Diagnostics.HasError() {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Update, defaultTimeout, &resp.Diagnostics)
	defer cancel()

	spec := plan.spec(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	lb, err := r.provider.LoadBalancers.Update(ctx, plan.ID.ValueString(), spec)
	finish(ctx, "update", &plan, lb, err, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *loadBalancerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state resourceModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() ||
		!r.provider.Reachable("delete the load balancer", providerdata.RemedyApply, &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.Timeouts.Delete, defaultTimeout, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.provider.LoadBalancers.Delete(ctx, state.ID.ValueString(), created); err != nil {
		resp.Diagnostics.Append(diagnostic.LoadBalancing("Could not delete the load balancer", err)...)
	}
}

// save records lb in the state, the identity and the private state, in the forms m holds.
func save(ctx context.Context, m *resourceModel, lb *loadbalancing.LoadBalancer, state *tfsdk.State, identity *tfsdk.ResourceIdentity,
	privateState private.Writer, diags *diag.Diagnostics,
) {
	m.set(ctx, lb, diags)
	diags.Append(state.Set(ctx, m)...)

	if identity != nil {
		diags.Append(identity.Set(ctx, identityModel{ID: m.ID})...)
	}

	private.KeepCreationTime(ctx, privateState, lb.CreationTime, diags)
	private.KeepDeleting(ctx, privateState, lb.Deleting, diags)
}

// finish ends a create or an update: whatever the wait says, a load balancer that
// exists is saved, so that Terraform keeps track of it, and a failure is reported.
func finish(ctx context.Context, operation string, m *resourceModel, lb *loadbalancing.LoadBalancer, err error,
	state *tfsdk.State, identity *tfsdk.ResourceIdentity, privateState private.Writer, diags *diag.Diagnostics,
) {
	if lb != nil {
		save(ctx, m, lb, state, identity, privateState, diags)
	}

	if err != nil {
		diags.Append(diagnostic.LoadBalancing("Could not "+operation+" the load balancer", err)...)
	}
}
