package volumes

import (
	"context"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

var (
	_ resource.ResourceWithConfigure   = (*volumeResource)(nil)
	_ resource.ResourceWithImportState = (*volumeResource)(nil)
	_ resource.ResourceWithIdentity    = (*volumeResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*volumeResource)(nil)
)

// defaultTimeout bounds a create, update or delete whose configuration sets none:
// region's own tests allow five minutes for a volume to be provisioned, and a delete
// detaches it first.
const defaultTimeout = 20 * time.Minute

// NewResource returns the unikorn_volume resource.
func NewResource() resource.Resource {
	return &volumeResource{family.Resource[volumes.Volume, *resourceModel]{
		Base: family.Base{Type: family.Type{
			Name: TypeName, Noun: "volume", Service: "region", Scope: family.Global,
			Timeout: defaultTimeout, Diagnose: diagnostic.Volumes,
		}},
		Object: family.Object[volumes.Volume, *resourceModel]{
			New: func() *resourceModel { return &resourceModel{} },
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*volumes.Volume, error) {
				return p.Volumes.Read(ctx, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return p.Volumes.Delete(ctx, key.ID, created)
			},
			Set: func(ctx context.Context, m *resourceModel, volume *volumes.Volume, diags *diag.Diagnostics) {
				m.setKept(ctx, volume, diags)
			},
			Lifecycle: func(volume *volumes.Volume) (time.Time, bool) {
				return volume.Metadata.CreationTime, volume.Metadata.Deleting
			},
		},
	}}
}

// volumeResource manages a volume. Region fixes its network, class and size when it
// makes it, so changing them replaces it, losing its data; its name, description and
// tags change in place.
type volumeResource struct {
	family.Resource[volumes.Volume, *resourceModel]
}

func (r *volumeResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	kept := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A block volume: storage on a network that outlives the instances it is attached to. " +
			"An instance on the same network attaches it through its `volume_ids` (with `instance_api = \"compute\"`), " +
			"one instance at a time; when that instance is replaced, the volume is attached to the replacement in the " +
			"same apply (see the guide \"Keeping data across instance replacement\"). Name, description and tags change " +
			"in place. Region fixes the network, class and size when it makes a volume and has no resize, so changing " +
			"any of them replaces the volume, and its data is lost: the plan warns when it does. A create waits until " +
			"region has provisioned the volume. Region refuses to delete a volume while an instance holds it. " +
			"`terraform destroy` deletes the instance first; a volume removed together with its place in an " +
			"instance's `volume_ids` is deleted before the instance is updated, so the apply stops naming the " +
			"instance, with the ways to finish (see the guide \"Removing an object together with the references to it\").",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: resourceDescription("id"), PlanModifiers: kept,
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: resourceDescription("name"),
				Validators: []validator.String{validators.Name("volume")},
			},
			"description": schema.StringAttribute{
				Optional: true, MarkdownDescription: resourceDescription("description"),
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType, MarkdownDescription: resourceDescription("tags"),
				Validators: []validator.Map{validators.TagNames()},
			},
			"network_id": schema.StringAttribute{
				Required: true, MarkdownDescription: resourceDescription("network_id"), PlanModifiers: replace,
				Validators: []validator.String{validators.UUID()},
			},
			"volume_class_id": schema.StringAttribute{
				Required: true, MarkdownDescription: resourceDescription("volume_class_id"), PlanModifiers: replace,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"size_gib": schema.Int64Attribute{
				Required: true, MarkdownDescription: resourceDescription("size_gib"),
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
				Validators:    []validator.Int64{int64validator.AtLeast(1)},
			},
			"organization_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: resourceDescription("organization_id"), PlanModifiers: kept,
			},
			"project_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: resourceDescription("project_id"), PlanModifiers: kept,
			},
			"region_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: resourceDescription("region_id"), PlanModifiers: kept,
			},
		},
	}
}

func (r *volumeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan resourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*volumes.Volume, error) {
		create := plan.create(ctx, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Volumes.Create(ctx, create)
	})
}

func (r *volumeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state resourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*volumes.Volume, error) {
		diags.Append(req.State.Get(ctx, &state)...)
		metadata := plan.Write(ctx, diags)

		if diags.HasError() {
			return nil, nil
		}

		// A change region would not see (timeouts, an empty map for no tags) sends
		// nothing to the cloud.
		if metadata.Name == state.Name.ValueString() && metadata.Description == state.Description.ValueString() &&
			maps.Equal(cloud.TagMap(metadata.Tags), state.TagMap(ctx, diags)) {
			diags.Append(resp.State.Set(ctx, &plan)...)

			return nil, nil
		}

		return r.Provider.Volumes.Update(ctx, plan.ID.ValueString(), metadata)
	})
}
