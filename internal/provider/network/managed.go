package network

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/importing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// resourceModel is the state of a resource of this package.
type resourceModel interface {
	common() *commonModel
	timeouts() *timed
}

// managed is what the resources of this package share: the type name, configuration,
// identity and import, and a read and a delete that differ only in the object's kind.
// Each resource adds its schema, create and update.
type managed[T any, M resourceModel] struct {
	identified

	typeName string
	noun     string
	newModel func() M
	read     func(networking.Objects, context.Context, string) (*T, error)
	remove   func(networking.Objects, context.Context, string, time.Time) error
	set      func(context.Context, M, *T, *diag.Diagnostics)
	// created is the object's creation time, kept in private state for its delete.
	created func(*T) time.Time
	// deleting says whether the cloud is deleting the object (see cloud.Deleting).
	deleting func(*T) bool

	provider *providerdata.Data
}

func (r *managed[T, M]) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.typeName
}

func (r *managed[T, M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}

// ImportState takes the object's ID, or its identity.
func (r *managed[T, M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importing.Type{Name: r.typeName, Noun: r.noun}.Import(ctx, r.provider, req, resp)
}

// ModifyPlan replaces an object the cloud is deleting.
func (r *managed[T, M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	private.Deletion{Noun: r.noun}.PlanDeleting(ctx, req, resp)
}

// Read refreshes the state; only region's definite 404 removes the object from it.
func (r *managed[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state := r.newModel()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() ||
		!r.provider.Refreshable(r.noun, state.common().ID.ValueString(), &resp.Diagnostics) {
		return
	}

	object, err := r.read(r.provider.Networking, ctx, state.common().ID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Compute("Could not read the "+r.noun, err)...)

		return
	}

	if object == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	r.save(ctx, state, object, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *managed[T, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := r.newModel()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() ||
		!r.provider.Reachable("delete the "+r.noun, providerdata.RemedyApply, &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.timeouts().Timeouts.Delete, defaultTimeout, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.remove(r.provider.Networking, ctx, state.common().ID.ValueString(), created); err != nil {
		resp.Diagnostics.Append(diagnostic.Held("Could not delete the "+r.noun, err, diagnostic.Compute)...)
	}
}

// save records object in the state, identity and private state, as m's resource sees it.
func (r *managed[T, M]) save(ctx context.Context, m M, object *T, state *tfsdk.State, identity *tfsdk.ResourceIdentity,
	privateState private.Writer, diags *diag.Diagnostics,
) {
	r.set(ctx, m, object, diags)
	diags.Append(state.Set(ctx, m)...)
	saveIdentity(ctx, identity, m.common().ID, diags)
	private.KeepCreationTime(ctx, privateState, r.created(object), diags)
	private.KeepDeleting(ctx, privateState, r.deleting(object), diags)
}

// reachable says whether a create or an update, which run when Terraform applies,
// can reach Unikorn.
func (r *managed[T, M]) reachable(operation string, diags *diag.Diagnostics) bool {
	return r.provider.Reachable(operation+" the "+r.noun, providerdata.RemedyApply, diags)
}

// finish ends a create or an update: whatever the wait says, an object that exists is
// saved, so that Terraform keeps track of it, and a failure is reported.
func (r *managed[T, M]) finish(ctx context.Context, operation string, m M, object *T, err error,
	state *tfsdk.State, identity *tfsdk.ResourceIdentity, privateState private.Writer, diags *diag.Diagnostics,
) {
	if object != nil {
		r.save(ctx, m, object, state, identity, privateState, diags)
	}

	if err != nil {
		diags.Append(diagnostic.Compute("Could not "+operation+" the "+r.noun, err)...)
	}
}
