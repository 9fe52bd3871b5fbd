// Package listing holds the provider's list resource: one type, Resource, which each
// family declares for each of its types that `terraform query` can find.
package listing

import (
	"context"
	"fmt"
	"iter"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Base is what every list resource has: its type name, what it lists, and the
// provider's data once Terraform has configured it. Embedded, it answers Metadata and
// Configure.
type Base struct {
	TypeName string
	// Nouns names the objects listed, e.g. "networks".
	Nouns string
	// Diagnose maps the family's errors to diagnostics (see package diagnostic).
	Diagnose func(summary string, err error) diag.Diagnostics

	Provider *providerdata.Data
}

// Resource finds one organization's objects of type T for `terraform query`, filtered
// by a configuration C (a struct of tfsdk fields, one for each attribute, with
// organization_id among them). Each result is what the resource's import would read of
// the object, so that generated configuration imports cleanly. A family declares one
// by filling in the fields below; Resource answers the rest.
type Resource[T, C any] struct {
	Base

	// Description is the list configuration's; Attributes are its attributes, to
	// which organization_id is added as organizationAttribute() unless Attributes
	// has its own.
	Description string
	Attributes  map[string]schema.Attribute

	// Find lists the objects of the organization (the one config names or the
	// provider's) that config asks for, adding to diags what it finds wrong with
	// config. Warnings it adds are each shown as a result of their own, with no
	// identity, ahead of the objects, so that the limit never hides them.
	Find func(ctx context.Context, provider *providerdata.Data, config *C, organizationID string, diags *diag.Diagnostics) ([]T, error)
	// Wanted, when given, keeps only the objects that the filters of config which
	// Find does not apply let through.
	Wanted func(config *C, object *T) bool
	// Show is how an object is shown.
	Show func(object *T) Shown
	// State is the resource's state for an object, as an import reads it, and its
	// timeouts, which a listed result leaves unset so that generated configuration
	// leaves them out.
	State func(ctx context.Context, object *T, diags *diag.Diagnostics) (model any, timeouts *timeouts.Value)
}

// Shown is what a list shows of an object: its result is named `<Name> (<ID>)` and
// carries Identity, the resource's identity of the object; an object that is being
// deleted is left out.
type Shown struct {
	Name, ID string
	Identity any
	Deleting bool
}

// Global is how a list shows an object whose resource's identity is its ID alone.
func Global(name, id string, deleting bool) Shown {
	return Shown{
		Name: name, ID: id, Deleting: deleting,
		Identity: family.IdentityOf(family.Global, types.StringNull(), types.StringValue(id)),
	}
}

// InOrganization is how a list shows an object whose resource's identity is its
// organization and ID.
func InOrganization(name, organizationID, id string, deleting bool) Shown {
	return Shown{
		Name: name, ID: id, Deleting: deleting,
		Identity: family.IdentityOf(family.InOrganization, types.StringValue(organizationID), types.StringValue(id)),
	}
}

// Project is how a list shows an object of a project, by what the cloud keeps of it,
// when its resource's identity is its ID alone.
func Project(kept *cloud.ProjectMetadata) Shown {
	return Global(kept.Name, kept.ID, kept.DeletionTime != nil)
}

var (
	_ list.ListResource              = (*Resource[struct{}, struct{}])(nil)
	_ list.ListResourceWithConfigure = (*Resource[struct{}, struct{}])(nil)
)

// Describe is the list configuration's description of a list of what (e.g. "networks",
// "an organization's projects").
func Describe(what string) string {
	return "Finds " + what + " for `terraform query`, to review them or to generate configuration that imports " +
		"them. Each result is named `<name> (<id>)` and carries the identity the resource has. Objects that are " +
		"being deleted are left out."
}

// organizationAttribute is the list configuration's organization_id.
func organizationAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Organization to search. Defaults to the provider's `organization_id`.",
		Validators:          []validator.String{validators.UUID()},
	}
}

func (r *Resource[T, C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attributes := map[string]schema.Attribute{"organization_id": organizationAttribute()}
	maps.Copy(attributes, r.Attributes)

	resp.Schema = schema.Schema{MarkdownDescription: r.Description, Attributes: attributes}
}

// List reads the configuration and, once Unikorn can be reached, the organization it
// names or the provider's; Find then lists that organization's objects, and the
// results of those shown (not being deleted, and wanted) are streamed, up to the limit.
func (r *Resource[T, C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var (
		config       C
		organization types.String
		diags        diag.Diagnostics
	)

	organizationID := ""
	if diags.Append(req.Config.Get(ctx, &config)...); !diags.HasError() &&
		r.Provider.Reachable("list "+r.Nouns, providerdata.RemedyQuery, &diags) {
		diags.Append(req.Config.GetAttribute(ctx, path.Root("organization_id"), &organization)...)
		organizationID = r.Provider.Organization(organization, path.Root("organization_id"), &diags)
	}

	var (
		objects []T
		found   diag.Diagnostics
		err     error
	)

	if !diags.HasError() {
		objects, err = r.Find(ctx, r.Provider, &config, organizationID, &found)
		diags.Append(found...)
	}

	switch {
	case diags.HasError():
		stream.Results = list.ListResultsStreamDiagnostics(diags)
	case err != nil:
		stream.Results = list.ListResultsStreamDiagnostics(r.Diagnose("Unable to list "+r.Nouns, err))
	default:
		stream.Results = r.results(ctx, req, &config, found.Warnings(), objects)
	}
}

// results is each of warnings as a result of its own, then the result of every object
// shown, up to the limit, for as long as Terraform takes them.
func (r *Resource[T, C]) results(ctx context.Context, req list.ListRequest, config *C, warnings diag.Diagnostics, objects []T) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		for _, warning := range warnings {
			if !push(list.ListResult{Diagnostics: diag.Diagnostics{warning}}) {
				return
			}
		}

		var pushed int64

		for i := range objects {
			object := &objects[i]

			shown := r.Show(object)
			if shown.Deleting || (r.Wanted != nil && !r.Wanted(config, object)) {
				continue
			}

			if pushed >= req.Limit || !push(r.result(ctx, req, object, shown)) {
				return
			}

			pushed++
		}
	}
}

// result is one object as the resource's import would read it: named, with the
// identity the resource has and, when Terraform asks for it, the state State fills.
func (r *Resource[T, C]) result(ctx context.Context, req list.ListRequest, object *T, shown Shown) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = fmt.Sprintf("%s (%s)", shown.Name, shown.ID)

	if result.Identity != nil {
		result.Diagnostics.Append(result.Identity.Set(ctx, shown.Identity)...)
	}

	if !req.IncludeResource {
		return result
	}

	model, unset := r.State(ctx, object, &result.Diagnostics)
	*unset = nullTimeouts(ctx, req.ResourceSchema, &result.Diagnostics)

	if !result.Diagnostics.HasError() {
		result.Diagnostics.Append(result.Resource.Set(ctx, model)...)
	}

	return result
}

func (b *Base) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.TypeName
}

func (b *Base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		b.Provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}

// nullTimeouts is an unset timeouts block, for a listed resource's state: generated
// configuration then leaves it out. Even a null object needs its attribute types, and
// only the resource schema knows them.
func nullTimeouts(ctx context.Context, resourceSchema interface {
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
