// Package floor is the least a provider with the instance's schema can cost: a
// provider built from the same framework, serving unikorn_compute_instance with the
// very schema (validators, plan modifiers and identity included) whose plan and read
// do nothing and whose create makes up what the cloud would report. `make bench`
// walks a thousand of its instances beside a thousand of the real provider's, so that
// what Terraform, the plugin protocol and the framework cost with this schema is told
// apart from what the provider itself costs.
package floor

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	unikorn "github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
)

var (
	_ provider.Provider                = (*floorProvider)(nil)
	_ resource.Resource                = (*floorInstance)(nil)
	_ resource.ResourceWithIdentity    = (*floorInstance)(nil)
	_ resource.ResourceWithImportState = (*floorInstance)(nil)
)

// New returns the constructor of the floor provider, which answers to the real one's
// name so that the benchmark's configuration serves both unchanged.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &floorProvider{version: version} }
}

type floorProvider struct {
	version string
}

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = unikorn.TypeName
	resp.Version = p.version
}

func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{MarkdownDescription: "The benchmark's floor: the instance's schema, and nothing behind it."}
}

func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *floorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newFloorInstance}
}

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource {
	return nil
}

// floorInstance takes its name and schemas from the real instance resource, and
// nothing else: it has no ModifyPlan, and Read leaves the state as it was.
type floorInstance struct {
	real resource.Resource
}

func newFloorInstance() resource.Resource {
	return &floorInstance{real: instance.NewResource()}
}

func (r *floorInstance) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.real.Metadata(ctx, req, resp)
}

func (r *floorInstance) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.real.Schema(ctx, req, resp)
}

func (r *floorInstance) IdentitySchema(ctx context.Context, req resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	r.real.(resource.ResourceWithIdentity).IdentitySchema(ctx, req, resp) //nolint:forcetypeassert // the instance has an identity
}

// Create keeps the plan, with what only the cloud would know made up.
func (r *floorInstance) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	known, err := madeUp(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Unable to make up the instance", err.Error())

		return
	}

	resp.State.Raw = known
	r.identify(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *floorInstance) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *floorInstance) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	known, err := madeUp(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Unable to make up the instance", err.Error())

		return
	}

	resp.State.Raw = known
}

func (r *floorInstance) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func (r *floorInstance) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// identity is what the instance's identity schema declares.
type identity struct {
	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

// identify sets the identity of a created instance from its state.
func (r *floorInstance) identify(ctx context.Context, state *tfsdk.State, into *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var id identity

	diags.Append(state.GetAttribute(ctx, path.Root("id"), &id.ID)...)
	diags.Append(state.GetAttribute(ctx, path.Root("organization_id"), &id.OrganizationID)...)
	diags.Append(state.GetAttribute(ctx, path.Root("project_id"), &id.ProjectID)...)

	if !diags.HasError() {
		diags.Append(into.Set(ctx, id)...)
	}
}

// madeUp is value with every unknown part replaced by a known one of its type: what a
// cloud would have reported once the instance existed.
func madeUp(value tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(value, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}

		switch {
		case v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, "floor"), nil
		case v.Type().Is(tftypes.Bool):
			return tftypes.NewValue(tftypes.Bool, false), nil
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, 0), nil
		default:
			// A collection or object only the cloud would fill: none, as far as it knows.
			return tftypes.NewValue(v.Type(), nil), nil
		}
	})
}
