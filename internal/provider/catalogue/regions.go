package catalogue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var _ datasource.DataSourceWithConfigure = (*regionsDataSource)(nil)

// NewRegionsDataSource is the `unikorn_regions` data source: the regions an
// organization may use.
func NewRegionsDataSource() datasource.DataSource {
	return &regionsDataSource{newSource("unikorn_regions", "list regions")}
}

type regionsDataSource struct {
	source
}

type regionsModel struct {
	view

	Regions []regionModel `tfsdk:"regions"`
}

type regionModel struct {
	ID   string `tfsdk:"id"`
	Name string `tfsdk:"name"`
	Type string `tfsdk:"type"`
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

	organizationID, ok := d.begin(ctx, req.Config, &model, &resp.Diagnostics)
	if !ok {
		return
	}

	regions, err := d.Provider.Catalogue.Regions(ctx, organizationID)
	if err != nil {
		resp.Diagnostics.Append(d.failed(err))

		return
	}

	model.Regions = make([]regionModel, 0, len(regions))

	for _, region := range regions {
		model.Regions = append(model.Regions, regionModel{
			ID:   region.ID,
			Name: region.Name,
			Type: region.Type,
		})
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}
