// Package listing holds what the provider's list resources share.
package listing

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// NullTimeouts is an unset timeouts block, for a listed resource's state: generated
// configuration then leaves it out. Even a null object needs its attribute types, and
// only the resource schema knows them.
func NullTimeouts(ctx context.Context, resourceSchema interface {
	TypeAtPath(context.Context, path.Path) (attr.Type, diag.Diagnostics)
}, diags *diag.Diagnostics,
) timeouts.Value {
	typ, d := resourceSchema.TypeAtPath(ctx, path.Root("timeouts"))
	diags.Append(d...)

	object, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Unexpected timeouts type", fmt.Sprintf("The resource schema gives timeouts the type %T, which is not an object. "+
			"This is a bug in the provider; please report it.", typ))

		return timeouts.Value{}
	}

	return timeouts.Value{Object: types.ObjectNull(object.AttributeTypes())}
}

// Results answers a list resource's List: the result of every object that shown keeps
// (objects being deleted are left out), up to limit, for as long as Terraform takes
// them.
func Results[T any](objects []T, limit int64, shown func(*T) bool, result func(*T) list.ListResult) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var pushed int64

		for i := range objects {
			if !shown(&objects[i]) {
				continue
			}

			if pushed >= limit || !push(result(&objects[i])) {
				return
			}

			pushed++
		}
	}
}

// Result is one listed object as the resource's import would read it: named
// `<name> (<id>)`, with the identity the resource has and, when Terraform asks for it,
// the state that state fills. state returns the resource model and its timeouts,
// which a listed result leaves unset so that generated configuration leaves them out.
func Result(ctx context.Context, req list.ListRequest, name, id string, identity any,
	state func(*diag.Diagnostics) (model any, timeouts *timeouts.Value),
) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = fmt.Sprintf("%s (%s)", name, id)

	if result.Identity != nil {
		result.Diagnostics.Append(result.Identity.Set(ctx, identity)...)
	}

	if !req.IncludeResource {
		return result
	}

	model, unset := state(&result.Diagnostics)
	*unset = NullTimeouts(ctx, req.ResourceSchema, &result.Diagnostics)

	if !result.Diagnostics.HasError() {
		result.Diagnostics.Append(result.Resource.Set(ctx, model)...)
	}

	return result
}

// Base is what every list resource has: its type name, and the provider's data once
// Terraform has configured it. Embedded, it answers Metadata and Configure.
type Base struct {
	TypeName string
	Provider *providerdata.Data
}

func (b *Base) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.TypeName
}

func (b *Base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		b.Provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}
