package volumes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
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
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

var _ datasource.DataSourceWithConfigure = (*classesDataSource)(nil)

// NewClassesDataSource returns the unikorn_volume_classes data source.
func NewClassesDataSource() datasource.DataSource {
	return &classesDataSource{family.DataSource{Name: TypeName + "_classes", Looks: "list volume classes"}}
}

// classesDataSource lists the classes volumes can be made of.
type classesDataSource struct {
	family.DataSource
}

type classesModel struct {
	RegionID  types.String `tfsdk:"region_id"`
	Name      types.String `tfsdk:"name"`
	Media     types.String `tfsdk:"media"`
	Encrypted types.Bool   `tfsdk:"encrypted"`
	SizeGiB   types.Int64  `tfsdk:"size_gib"`
	FlavorID  types.String `tfsdk:"flavor_id"`
	Classes   []classModel `tfsdk:"classes"`
}

type classModel struct {
	ID                 string       `tfsdk:"id"`
	Name               string       `tfsdk:"name"`
	Description        types.String `tfsdk:"description"`
	RegionID           string       `tfsdk:"region_id"`
	MinimumSizeGiB     types.Int64  `tfsdk:"minimum_size_gib"`
	MaximumSizeGiB     types.Int64  `tfsdk:"maximum_size_gib"`
	SupportedFlavorIDs []string     `tfsdk:"supported_flavor_ids"`
	Media              types.String `tfsdk:"media"`
	Encrypted          bool         `tfsdk:"encrypted"`
	MaxIOPS            types.Int64  `tfsdk:"max_iops"`
	MaxThroughputMiBps types.Int64  `tfsdk:"max_throughput_mibps"`
}

func (d *classesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	number := func(description string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the volume classes `unikorn_volume` can be made of, optionally narrowed by region, " +
			"name, media, encryption, a size the class must take and a flavor whose instances must be able to attach " +
			"its volumes. " + filter.CatalogueRule,
		Attributes: map[string]schema.Attribute{
			"region_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only classes of this region; without it, the classes of every region the token sees.",
				Validators:          []validator.String{validators.UUID()},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the class with exactly this name.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"media": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only classes on this medium: `hdd`, `ssd` or `nvme`.",
				Validators:          []validator.String{stringvalidator.OneOf(volumes.HDD, volumes.SSD, volumes.NVMe)},
			},
			"encrypted": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Only classes whose volumes are (`true`) or are not (`false`) encrypted at rest.",
			},
			"size_gib": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Only classes that make a volume of this size in GiB: within their bounds.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"flavor_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only classes whose volumes instances of this flavor can attach (see the " +
					"`unikorn_flavors` data source).",
				Validators: []validator.String{validators.UUID()},
			},
			"classes": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching classes, in the API's order (by region, then name).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":          computed("Class ID, what a volume's `volume_class_id` takes; region's name for the class, not necessarily a UUID."),
					"name":        computed("Class name."),
					"description": computed("What the class is, in the region's words; null when it has none."),
					"region_id":   computed("Region of the class; a volume of the class must be on a network of it."),
					"minimum_size_gib": number("The smallest volume of the class, in GiB; null when the region " +
						"sets no minimum."),
					"maximum_size_gib": number("The largest volume of the class, in GiB; null when the region " +
						"sets no maximum."),
					"supported_flavor_ids": schema.ListAttribute{
						Computed: true, ElementType: types.StringType,
						MarkdownDescription: "The flavors whose instances can attach the class's volumes. Compute " +
							"attaches a volume of a class that names none to no instance.",
					},
					"media": computed("The medium backing the class: `hdd`, `ssd` or `nvme`; null when the region " +
						"does not say."),
					"encrypted": schema.BoolAttribute{
						Computed: true, MarkdownDescription: "Whether the class's volumes are encrypted at rest.",
					},
					"max_iops": number("Advertised maximum input/output operations per second of a volume, not a " +
						"reservation; null when not published."),
					"max_throughput_mibps": number("Advertised maximum throughput of a volume in MiB per second, not a " +
						"reservation; null when not published."),
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

	classes, err := d.Provider.Volumes.Classes(ctx, model.RegionID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(diagnostic.APIError("Unable to list volume classes", err))

		return
	}

	model.Classes = []classModel{}
	names := make([]string, len(classes))

	for i := range classes {
		class := &classes[i]
		names[i] = class.Name

		if model.matches(class) {
			model.Classes = append(model.Classes, newClassModel(class))
		}
	}

	resp.Diagnostics.Append(diagnostic.NoneNamedAmong(path.Root("name"), "volume class", model.Name.ValueString(), names)...)

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

// matches reports whether the class passes every filter the configuration sets.
func (m *classesModel) matches(class *volumes.Class) bool {
	return filter.String(m.Name, class.Name) && filter.String(m.RegionID, class.RegionID) &&
		filter.String(m.Media, class.Media) && filter.Present(m.Encrypted, class.Encrypted) &&
		(m.SizeGiB.IsNull() || class.Takes(m.SizeGiB.ValueInt64())) &&
		(m.FlavorID.IsNull() || class.Supports(m.FlavorID.ValueString()))
}

func newClassModel(class *volumes.Class) classModel {
	optional := func(value *int64) types.Int64 {
		if value == nil {
			return types.Int64Null()
		}

		return types.Int64Value(*value)
	}
	widen := func(value *int) *int64 {
		if value == nil {
			return nil
		}

		wide := int64(*value)

		return &wide
	}

	return classModel{
		ID: class.ID, Name: class.Name, Description: family.OptionalString(class.Description), RegionID: class.RegionID,
		MinimumSizeGiB: optional(class.MinimumSizeGiB), MaximumSizeGiB: optional(class.MaximumSizeGiB),
		SupportedFlavorIDs: append([]string{}, class.SupportedFlavorIDs...), Media: family.OptionalString(class.Media),
		Encrypted: class.Encrypted, MaxIOPS: optional(widen(class.MaxIOPS)), MaxThroughputMiBps: optional(widen(class.MaxThroughputMiBps)),
	}
}
