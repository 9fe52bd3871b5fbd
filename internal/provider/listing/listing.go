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
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
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

// Base is what every list resource has: its type name, what it lists, and the
// provider's data once Terraform has configured it. Embedded, it answers Metadata and
// Configure, and Stream answers List.
type Base struct {
	TypeName string
	// Nouns names the objects listed, e.g. "networks".
	Nouns string
	// Diagnose maps the family's errors to diagnostics (see package diagnostic).
	Diagnose func(summary string, err error) diag.Diagnostics

	Provider *providerdata.Data
}

// Config is a list resource's configuration: whatever else it filters on, a list is of
// one organization's objects.
type Config interface {
	Organization() types.String
}

// Stream answers a list resource's List. It reads the configuration into config, and,
// once Unikorn can be reached, the organization it names or the provider's; find then
// lists that organization's objects (adding to diags what it finds wrong with the rest
// of config), and the results of those that shown keeps are streamed, up to the limit.
func Stream[T any](ctx context.Context, b *Base, req list.ListRequest, stream *list.ListResultsStream, config Config,
	find func(ctx context.Context, organizationID string, diags *diag.Diagnostics) ([]T, error),
	shown func(*T) bool, result func(*T) list.ListResult,
) {
	var diags diag.Diagnostics

	organizationID := ""
	if diags.Append(req.Config.Get(ctx, config)...); !diags.HasError() &&
		b.Provider.Reachable("list "+b.Nouns, providerdata.RemedyQuery, &diags) {
		organizationID = b.Provider.Organization(config.Organization(), path.Root("organization_id"), &diags)
	}

	var (
		objects []T
		err     error
	)

	if !diags.HasError() {
		objects, err = find(ctx, organizationID, &diags)
	}

	switch {
	case diags.HasError():
		stream.Results = list.ListResultsStreamDiagnostics(diags)
	case err != nil:
		stream.Results = list.ListResultsStreamDiagnostics(b.Diagnose("Unable to list "+b.Nouns, err))
	default:
		stream.Results = Results(objects, req.Limit, shown, result)
	}
}

// OrganizationAttribute is the list configuration's organization_id.
func OrganizationAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Organization to search. Defaults to the provider's `organization_id`.",
		Validators:          []validator.String{validators.UUID()},
	}
}

func (b *Base) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.TypeName
}

func (b *Base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		b.Provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}
