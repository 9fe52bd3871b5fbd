package catalogue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/filter"
)

var _ datasource.DataSourceWithConfigure = (*flavorsDataSource)(nil)

// NewFlavorsDataSource is the `unikorn_flavors` data source: the machine sizes of a
// region, narrowed by what a workload needs.
func NewFlavorsDataSource() datasource.DataSource {
	return &flavorsDataSource{newSource("unikorn_flavors", "list flavors")}
}

type flavorsDataSource struct {
	source
}

type flavorsModel struct {
	inRegion

	Name         types.String  `tfsdk:"name"`
	Architecture types.String  `tfsdk:"architecture"`
	MinCPUs      types.Int64   `tfsdk:"min_cpus"`
	MinMemory    types.Int64   `tfsdk:"min_memory"`
	GPU          types.Bool    `tfsdk:"gpu"`
	GPUVendor    types.String  `tfsdk:"gpu_vendor"`
	Flavors      []flavorModel `tfsdk:"flavors"`
}

type flavorModel struct {
	ID           string          `tfsdk:"id"`
	Name         string          `tfsdk:"name"`
	CPUs         int64           `tfsdk:"cpus"`
	Memory       int64           `tfsdk:"memory"`
	Disk         int64           `tfsdk:"disk"`
	Architecture string          `tfsdk:"architecture"`
	Baremetal    bool            `tfsdk:"baremetal"`
	GPU          *flavorGPUModel `tfsdk:"gpu"`
}

type flavorGPUModel struct {
	Vendor string `tfsdk:"vendor"`
	Model  string `tfsdk:"model"`
	Memory int64  `tfsdk:"memory"`
	Count  int64  `tfsdk:"count"`
}

// GPU vendors a flavor may carry.
var gpuVendors = []string{"NVIDIA", "AMD"}

func (d *flavorsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the flavors (machine sizes) of a region, optionally narrowed by " +
			"name, architecture, size and GPU. Every filter that is set must match. A filter that " +
			"matches nothing gives an empty list, not an error.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationIDAttribute(),
			"region_id":       regionIDAttribute(),
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the flavor with exactly this name.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"architecture": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only flavors of this CPU architecture: `x86_64` or `aarch64`.",
				Validators:          []validator.String{architectureValidator()},
			},
			"min_cpus": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Only flavors with at least this many CPUs.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"min_memory": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Only flavors with at least this much memory, in GiB.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"gpu": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "`true` for only flavors with a GPU, `false` for only flavors without.",
			},
			"gpu_vendor": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only flavors with a GPU of this vendor: `NVIDIA` or `AMD`.",
				Validators:          []validator.String{stringvalidator.OneOf(gpuVendors...)},
			},
			"flavors": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The matching flavors, in the API's order: by GPU count, then " +
					"CPUs, then memory, so the first is the smallest.",
				NestedObject: schema.NestedAttributeObject{Attributes: flavorAttributes()},
			},
		},
	}
}

func flavorAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "Flavor ID, what an instance's `flavor_id` takes."},
		"name":         schema.StringAttribute{Computed: true, MarkdownDescription: "Flavor name."},
		"cpus":         schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of CPUs."},
		"memory":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory in GiB."},
		"disk":         schema.Int64Attribute{Computed: true, MarkdownDescription: "Root disk size in GB (10⁹ bytes); it must hold the image's `size_gib`."},
		"architecture": schema.StringAttribute{Computed: true, MarkdownDescription: "CPU architecture: `x86_64` or `aarch64`."},
		"baremetal":    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the flavor is a whole physical machine rather than a virtual one."},
		"gpu": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The flavor's GPUs; null when it has none.",
			Attributes: map[string]schema.Attribute{
				"vendor": schema.StringAttribute{Computed: true, MarkdownDescription: "GPU vendor: `NVIDIA` or `AMD`."},
				"model":  schema.StringAttribute{Computed: true, MarkdownDescription: "GPU model, e.g. `L4`."},
				"memory": schema.Int64Attribute{Computed: true, MarkdownDescription: "Memory of one GPU in GiB."},
				"count":  schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of physical GPUs (what the `gpus` quota counts)."},
			},
		},
	}
}

func (d *flavorsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model flavorsModel

	organizationID, ok := d.begin(ctx, req.Config, &model, &resp.Diagnostics)
	if !ok {
		return
	}

	flavors, err := d.Provider.Catalogue.Flavors(ctx, organizationID, model.RegionID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(d.failed(err))

		return
	}

	model.Flavors = matching(flavors, "flavor", model.Name, func(flavor *catalogue.Flavor) string { return flavor.Name },
		model.matches, newFlavorModel, &resp.Diagnostics)

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func (m *flavorsModel) matches(flavor *catalogue.Flavor) bool {
	var vendor string
	if flavor.GPU != nil {
		vendor = flavor.GPU.Vendor
	}

	return filter.String(m.Name, flavor.Name) &&
		filter.String(m.Architecture, flavor.Architecture) &&
		filter.AtLeast(m.MinCPUs, flavor.CPUs) &&
		filter.AtLeast(m.MinMemory, flavor.Memory) &&
		filter.Present(m.GPU, flavor.GPU != nil) &&
		filter.String(m.GPUVendor, vendor)
}

func newFlavorModel(flavor *catalogue.Flavor) flavorModel {
	model := flavorModel{
		ID:           flavor.ID,
		Name:         flavor.Name,
		CPUs:         int64(flavor.CPUs),
		Memory:       int64(flavor.Memory),
		Disk:         int64(flavor.Disk),
		Architecture: flavor.Architecture,
		Baremetal:    flavor.Baremetal,
	}

	if gpu := flavor.GPU; gpu != nil {
		model.GPU = &flavorGPUModel{
			Vendor: gpu.Vendor,
			Model:  gpu.Model,
			Memory: int64(gpu.Memory),
			Count:  int64(gpu.Count),
		}
	}

	return model
}

// architectureValidator accepts the CPU architectures Unikorn knows.
func architectureValidator() validator.String {
	return stringvalidator.OneOf(catalogue.ArchitectureX86_64, catalogue.ArchitectureAarch64)
}
