// Package floor is the least a provider with the instance's schema can cost: a
// provider built from the same framework, serving unikorn_compute_instance with the
// very schema (validators, plan modifiers and identity included) whose plan and read
// do nothing and whose create makes up what the cloud would report. `make bench`
// walks a thousand of its instances beside a thousand of the real provider's, so that
// what Terraform, the plugin protocol and the framework cost with this schema is told
// apart from what the provider itself costs.
//
// Paced (see Pacing), each create, update and delete also lasts what a phase's bound
// counts for it, without a request: what Terraform and the framework add to a bound
// when the provider only waits as long as the cloud makes it.
package floor

import (
	"context"
	"fmt"
	"os"
	"time"

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
// name so that the benchmark's configuration serves both unchanged; its changes last
// as pacing says.
func New(version string, pacing Pacing) func() provider.Provider {
	return func() provider.Provider { return &floorProvider{version: version, pacing: pacing} }
}

// Pacing is how long each change of a floor instance lasts: nothing unpaced.
type Pacing struct {
	Create, Update, Delete time.Duration
}

// The environment variables the benchmark paces the floor provider with, each a Go
// duration; Terraform starts the provider, so it cannot be told any other way.
const (
	CreateTakesVariable = "UNIKORN_FLOOR_CREATE_TAKES"
	UpdateTakesVariable = "UNIKORN_FLOOR_UPDATE_TAKES"
	DeleteTakesVariable = "UNIKORN_FLOOR_DELETE_TAKES"
)

// Environ is pacing as the environment variables that PacingFromEnvironment reads.
func (p Pacing) Environ() []string {
	return []string{
		CreateTakesVariable + "=" + p.Create.String(),
		UpdateTakesVariable + "=" + p.Update.String(),
		DeleteTakesVariable + "=" + p.Delete.String(),
	}
}

// PacingFromEnvironment reads the pacing that Environ wrote; a variable unset is no
// pause.
func PacingFromEnvironment() (Pacing, error) {
	var pacing Pacing

	for variable, into := range map[string]*time.Duration{
		CreateTakesVariable: &pacing.Create, UpdateTakesVariable: &pacing.Update, DeleteTakesVariable: &pacing.Delete,
	} {
		value, set := os.LookupEnv(variable)
		if !set {
			continue
		}

		duration, err := time.ParseDuration(value)
		if err != nil || duration < 0 {
			return Pacing{}, fmt.Errorf("%s must be a duration of at least 0, such as 2.05s; it is %q", variable, value)
		}

		*into = duration
	}

	return pacing, nil
}

// last waits d, or until ctx ends.
func last(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()

	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

type floorProvider struct {
	version string
	pacing  Pacing
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
	return []func() resource.Resource{func() resource.Resource { return newFloorInstance(p.pacing) }}
}

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource {
	return nil
}

// floorInstance takes its name and schemas from the real instance resource, and
// nothing else: it has no ModifyPlan, Read leaves the state as it was, and its changes
// only last as pacing says.
type floorInstance struct {
	real   resource.Resource
	pacing Pacing
}

func newFloorInstance(pacing Pacing) resource.Resource {
	return &floorInstance{real: instance.NewResource(), pacing: pacing}
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
	last(ctx, r.pacing.Create)

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
	last(ctx, r.pacing.Update)

	known, err := madeUp(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Unable to make up the instance", err.Error())

		return
	}

	resp.State.Raw = known
}

func (r *floorInstance) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	last(ctx, r.pacing.Delete)
}

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
