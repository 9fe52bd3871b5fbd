package catalogue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

var _ datasource.DataSourceWithConfigure = (*regionsDataSource)(nil)

// NewRegionsDataSource is the `unikorn_regions` data source: the regions an
// organization may use.
func NewRegionsDataSource() datasource.DataSource {
	return &regionsDataSource{}
}

type regionsDataSource struct {
	configured
}

type regionsModel struct {
	OrganizationID types.String  `tfsdk:"organization_id"`
	Regions        []regionModel `tfsdk:"regions"`
}

type regionModel struct {
	ID   string `tfsdk:"id"`
	Name string `tfsdk:"name"`
	Type string `tfsdk:"type"`
}

func (d *regionsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_regions"
}

func (d *regionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the regions an organization may use. A region's `id` is what " +
			"the `unikorn_flavors` and `unikorn_images` data sources take as `region_id`.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationIDAttribute(),
			"regions": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The regions, in the order the API lists them.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":   schema.StringAttribute{Computed: true, MarkdownDescription: "Region ID."},
						"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Region name."},
						"type": schema.StringAttribute{
							Computed:            true,
							MarkdownDescription: "What runs the region: `openstack`, `kubernetes` or `simulated`.",
						},
					},
				},
			},
		},
	}
}

func (d *regionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model regionsModel

	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)

	if resp.Diagnostics.HasError() || !d.provider.Reachable("list regions", providerdata.RemedyDataSource, &resp.Diagnostics) {
		return
	}

	organizationID := d.provider.Organization(model.OrganizationID, path.Root("organization_id"), &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	regions, err := d.provider.Catalogue.Regions(ctx, organizationID)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.APIError("Unable to list regions", err))

		return
	}

	model.OrganizationID = types.StringValue(organizationID)
	model.Regions = make([]regionModel, 0, len(regions))

	for _, region := range regions {
		model.Regions = append(model.Regions, regionModel{
			ID:   region.Metadata.ID,
			Name: region.Metadata.Name,
			Type: region.Spec.Type,
		})
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}
