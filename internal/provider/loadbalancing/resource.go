package loadbalancing

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
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
	pathVIPAddress = path.Root("vip_address")
	pathNetworkID  = path.Root("network_id")
)

// NewResource returns the unikorn_load_balancer resource.
func NewResource() resource.Resource {
	return &loadBalancerResource{family.Resource[loadbalancing.LoadBalancer, *resourceModel]{
		Base: family.Base{Type: family.Type{
			Name: TypeName, Noun: "load balancer", Service: "region", Scope: family.Global,
			Timeout: defaultTimeout, Diagnose: diagnostic.LoadBalancing,
		}},
		Object: family.Object[loadbalancing.LoadBalancer, *resourceModel]{
			New: func() *resourceModel { return &resourceModel{} },
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*loadbalancing.LoadBalancer, error) {
				return p.LoadBalancers.Read(ctx, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return p.LoadBalancers.Delete(ctx, key.ID, created)
			},
			Set: func(ctx context.Context, m *resourceModel, lb *loadbalancing.LoadBalancer, diags *diag.Diagnostics) {
				m.setKept(ctx, lb, diags)
			},
			Lifecycle: func(lb *loadbalancing.LoadBalancer) (time.Time, bool) { return lb.CreationTime, lb.Deleting },
		},
	}}
}

// loadBalancerResource manages a load balancer as the one document region keeps:
// every change but of its network or VIP is one in-place update of that document.
type loadBalancerResource struct {
	family.Resource[loadbalancing.LoadBalancer, *resourceModel]
}

func (r *loadBalancerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(ctx)
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
	if req.Plan.Raw.IsNull() || r.Provider == nil || r.PlanDeleting(ctx, req, resp) {
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
	if plan.VIPAddress.IsNull() || plan.VIPAddress.IsUnknown() || plan.NetworkID.IsUnknown() || !r.Provider.Online() {
		return
	}

	prefix, err := r.Provider.LoadBalancers.NetworkPrefix(ctx, plan.NetworkID.ValueString())
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

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*loadbalancing.LoadBalancer, error) {
		create := loadbalancing.Create{
			Spec:       plan.spec(ctx, diags),
			NetworkID:  plan.NetworkID.ValueString(),
			VIPAddress: plan.VIPAddress.ValueString(),
		}
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.LoadBalancers.Create(ctx, create)
	})
}

func (r *loadBalancerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan resourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*loadbalancing.LoadBalancer, error) {
		// What the plan could only warn of is refused here, before anything is sent.
		var state resourceModel
		if diags.Append(req.State.Get(ctx, &state)...); diags.HasError() {
			return nil, nil
		}

		if diags.Append(immutableChanges(ctx, &state, &plan, diags)...); diags.HasError() {
			return nil, nil
		}

		spec := plan.spec(ctx, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.LoadBalancers.Update(ctx, plan.ID.ValueString(), spec)
	})
}
