package volumes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

var (
	_ datasource.DataSourceWithConfigure        = (*dataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*dataSource)(nil)
)

// NewDataSource returns the unikorn_volume data source.
func NewDataSource() datasource.DataSource {
	return &dataSource{family.DataSource{Name: TypeName, Looks: "look the volume up"}}
}

// dataSource looks a volume up by ID, or by a name that exactly one volume of the
// project (of a network, when one is given) has.
type dataSource struct {
	family.DataSource
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(name string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: about(name)}
	}
	uuid := []validator.String{validators.UUID()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a block volume, by `id` or by `name` within a project (and, to narrow it, a " +
			"network), whether or not this configuration manages it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: uuid,
				MarkdownDescription: about("id") + " Give either this or `name`.",
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: about("name") + " A look-up by name fails unless exactly one volume of the " +
					"project (of `network_id`, when given) has it.",
				Validators: []validator.String{validators.Name("volume")},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: uuid,
				MarkdownDescription: about("organization_id") + " A look-up by name searches it; defaults to the " +
					"provider's `organization_id`. With `id` it is read from the volume.",
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: uuid,
				MarkdownDescription: about("project_id") + " A look-up by name searches it; defaults to the " +
					"provider's `project_id`. With `id` it is read from the volume.",
			},
			"network_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: uuid,
				MarkdownDescription: about("network_id") + " With `name`, only this network is searched.",
			},
			"description":     computed("description"),
			"tags":            schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: about("tags")},
			"region_id":       computed("region_id"),
			"volume_class_id": computed("volume_class_id"),
			"size_gib":        schema.Int64Attribute{Computed: true, MarkdownDescription: about("size_gib")},
			"attached":        schema.BoolAttribute{Computed: true, MarkdownDescription: about("attached")},
		},
	}
}

func (d *dataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name", "organization_id", "project_id", "network_id")
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data dataModel
	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	selector := volumes.Selector{ID: data.ID.ValueString()}

	// An ID names one volume wherever it is, so only a name is searched in a scope.
	if selector.ID == "" {
		selector.Name = data.Name.ValueString()
		selector.OrganizationID = d.Organization(data.OrganizationID, &resp.Diagnostics)
		selector.ProjectID = d.Provider.Project(data.ProjectID, path.Root("project_id"), &resp.Diagnostics)
		selector.NetworkID = data.NetworkID.ValueString()
	}

	if resp.Diagnostics.HasError() {
		return
	}

	volume, err := d.Provider.Volumes.Find(ctx, selector)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Lookup("volume", nil, err))

		return
	}

	data.setFound(ctx, volume, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
