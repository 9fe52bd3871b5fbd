package storage

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/filter"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

var _ datasource.DataSourceWithConfigure = (*classesDataSource)(nil)

// NewClassesDataSource returns the unikorn_file_storage_classes data source.
func NewClassesDataSource() datasource.DataSource {
	return &classesDataSource{family.DataSource{Name: TypeName + "_classes", Looks: "list storage classes"}}
}

// classesDataSource lists the storage classes file storage can be made of.
type classesDataSource struct {
	family.DataSource
}

type classesModel struct {
	RegionID types.String `tfsdk:"region_id"`
	Name     types.String `tfsdk:"name"`
	Protocol types.String `tfsdk:"protocol"`
	Classes  []classModel `tfsdk:"classes"`
}

type classModel struct {
	ID          string   `tfsdk:"id"`
	Name        string   `tfsdk:"name"`
	RegionID    string   `tfsdk:"region_id"`
	Protocols   []string `tfsdk:"protocols"`
	Parallelism int64    `tfsdk:"parallelism"`
}

func (d *classesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the storage classes `unikorn_file_storage` can be made of, optionally narrowed " +
			"by region, name and protocol. " + filter.CatalogueRule + " A class of an organization is listed only to its members.",
		Attributes: map[string]schema.Attribute{
			"region_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only classes of this region; without it, the classes of every region.",
				Validators:          []validator.String{validators.UUID()},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the class with exactly this name.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"protocol": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only classes that serve this protocol: `nfsv3` or `nfsv4`.",
				Validators:          []validator.String{stringvalidator.OneOf(storage.NFSv3, storage.NFSv4)},
			},
			"classes": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching classes, in the API's order (by ID).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":        schema.StringAttribute{Computed: true, MarkdownDescription: "Class ID, what a file storage's `storage_class_id` takes."},
					"name":      schema.StringAttribute{Computed: true, MarkdownDescription: "Class name."},
					"region_id": schema.StringAttribute{Computed: true, MarkdownDescription: "Region of the class; file storage of the class must be in it."},
					"protocols": schema.ListAttribute{
						Computed: true, ElementType: types.StringType,
						MarkdownDescription: "NFS versions the class serves: `nfsv3`, `nfsv4`.",
					},
					"parallelism": schema.Int64Attribute{
						Computed: true,
						MarkdownDescription: "How many addresses of an attached network's storage range the share is " +
							"exported from, at most (fewer when the range is smaller): more addresses can carry more " +
							"traffic with multipath NFS.",
					},
				}},
			},
		},
	}
}

func (d *classesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model classesModel
	if !d.Begin(ctx, req.Config, &model, &resp.Diagnostics) {
		return
	}

	classes, err := d.Provider.Storage.Classes(ctx, model.RegionID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(diagnostic.APIError("Unable to list storage classes", err))

		return
	}

	model.Classes = []classModel{}
	names := make([]string, len(classes))

	for i, class := range classes {
		names[i] = class.Name
		protocols := append([]string{}, class.Protocols...)

		if filter.String(model.Name, class.Name) && filter.String(model.RegionID, class.RegionID) &&
			(model.Protocol.IsNull() || slices.Contains(protocols, model.Protocol.ValueString())) {
			model.Classes = append(model.Classes, classModel{
				ID: class.ID, Name: class.Name, RegionID: class.RegionID,
				Protocols: protocols, Parallelism: int64(class.Parallelism),
			})
		}
	}

	resp.Diagnostics.Append(diagnostic.NoneNamedAmong(path.Root("name"), "file storage class", model.Name.ValueString(), names)...)

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}
