package catalogue

import (
	"context"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/filter"
)

var _ datasource.DataSourceWithConfigure = (*imagesDataSource)(nil)

// NewImagesDataSource is the `unikorn_images` data source: the images of a region an
// organization may boot, including its own snapshots.
func NewImagesDataSource() datasource.DataSource {
	return &imagesDataSource{newSource("unikorn_images", "list images")}
}

type imagesDataSource struct {
	source
}

type imagesModel struct {
	inRegion

	Name         types.String `tfsdk:"name"`
	Architecture types.String `tfsdk:"architecture"`
	OSDistro     types.String `tfsdk:"os_distro"`
	OSVersion    types.String `tfsdk:"os_version"`
	Status       types.Set    `tfsdk:"status"`
	InstanceID   types.String `tfsdk:"instance_id"`
	Owned        types.Bool   `tfsdk:"owned"`
	Images       []imageModel `tfsdk:"images"`
}

type imageModel struct {
	ID               string            `tfsdk:"id"`
	Name             string            `tfsdk:"name"`
	Architecture     string            `tfsdk:"architecture"`
	SizeGiB          int64             `tfsdk:"size_gib"`
	Virtualization   string            `tfsdk:"virtualization"`
	OS               imageOSModel      `tfsdk:"os"`
	GPU              *imageGPUModel    `tfsdk:"gpu"`
	SoftwareVersions map[string]string `tfsdk:"software_versions"`
	Status           string            `tfsdk:"status"`
	Tags             map[string]string `tfsdk:"tags"`
	CreationTime     string            `tfsdk:"creation_time"`
}

type imageOSModel struct {
	Kernel   string `tfsdk:"kernel"`
	Family   string `tfsdk:"family"`
	Distro   string `tfsdk:"distro"`
	Version  string `tfsdk:"version"`
	Variant  string `tfsdk:"variant"`
	Codename string `tfsdk:"codename"`
}

type imageGPUModel struct {
	Vendor string   `tfsdk:"vendor"`
	Driver string   `tfsdk:"driver"`
	Models []string `tfsdk:"models"`
}

// imageStates are the states an image passes through; only ready ones can boot.
var imageStates = []string{catalogue.ImagePending, catalogue.ImageCreating, catalogue.ImageReady, catalogue.ImageFailed}

func (d *imagesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the images of a region that an organization may boot: the " +
			"region's global images and the organization's own, snapshots included. By default " +
			"only `ready` images, the ones an instance can use; `status` widens that. Every " +
			"filter that is set must match. A filter that matches nothing gives an empty list, " +
			"not an error.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationIDAttribute(),
			"region_id":       regionIDAttribute(),
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only images with exactly this name.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"architecture": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only images for this CPU architecture: `x86_64` or `aarch64`.",
				Validators:          []validator.String{architectureValidator()},
			},
			"os_distro": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only images of this operating system distribution, e.g. `ubuntu`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"os_version": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only images of this operating system version, e.g. `24.04`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"status": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Only images in one of these states: `pending`, `creating`, `ready`, " +
					"`failed`. Defaults to `[\"ready\"]`; a snapshot in progress needs `pending` and " +
					"`creating` too.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.OneOf(imageStates...)),
				},
			},
			"instance_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only snapshots taken of this compute instance (images tagged `" +
					compute.SnapshotInstanceIDTag + "` with its ID).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"owned": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "`true`: only the organization's own images (those it imported, such as " +
					"`unikorn_image`'s, and its snapshots); `false`: only the region's images that the " +
					"organization does not own. Both when not set.",
			},
			"images": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching images, sorted by name.",
				NestedObject:        schema.NestedAttributeObject{Attributes: imageAttributes()},
			},
		},
	}
}

func imageAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":             schema.StringAttribute{Computed: true, MarkdownDescription: "Image ID, what an instance's `image_id` takes."},
		"name":           schema.StringAttribute{Computed: true, MarkdownDescription: "Image name."},
		"architecture":   schema.StringAttribute{Computed: true, MarkdownDescription: "CPU architecture: `x86_64` or `aarch64`."},
		"size_gib":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Smallest root disk the image fits on, in GiB."},
		"virtualization": schema.StringAttribute{Computed: true, MarkdownDescription: "Where the image boots: `virtualized`, `baremetal` or `any`."},
		"os": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The operating system on the image.",
			Attributes: map[string]schema.Attribute{
				"kernel":   schema.StringAttribute{Computed: true, MarkdownDescription: "Kernel, e.g. `linux`."},
				"family":   schema.StringAttribute{Computed: true, MarkdownDescription: "Distribution family, e.g. `debian`."},
				"distro":   schema.StringAttribute{Computed: true, MarkdownDescription: "Distribution, e.g. `ubuntu`."},
				"version":  schema.StringAttribute{Computed: true, MarkdownDescription: "Distribution version, e.g. `24.04`."},
				"variant":  schema.StringAttribute{Computed: true, MarkdownDescription: "Variant, e.g. `server`; empty when the image declares none."},
				"codename": schema.StringAttribute{Computed: true, MarkdownDescription: "Release codename, e.g. `noble`; empty when the image declares none."},
			},
		},
		"gpu": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The GPU driver on the image; null when it has none.",
			Attributes: map[string]schema.Attribute{
				"vendor": schema.StringAttribute{Computed: true, MarkdownDescription: "GPU vendor the driver is for: `NVIDIA` or `AMD`."},
				"driver": schema.StringAttribute{Computed: true, MarkdownDescription: "Driver version."},
				"models": schema.ListAttribute{
					ElementType:         types.StringType,
					Computed:            true,
					MarkdownDescription: "GPU models the image supports; empty when it does not say.",
				},
			},
		},
		"software_versions": schema.MapAttribute{
			ElementType:         types.StringType,
			Computed:            true,
			MarkdownDescription: "Software preinstalled on the image, by name, e.g. `kubernetes = \"v1.31.0\"`.",
		},
		"status": schema.StringAttribute{Computed: true, MarkdownDescription: "State: `pending`, `creating`, `ready` or `failed`."},
		"tags": schema.MapAttribute{
			ElementType: types.StringType,
			Computed:    true,
			MarkdownDescription: "Tags of the image, including those the platform sets, such as " +
				"`images.unikorn-cloud.org:source`.",
		},
		"creation_time": schema.StringAttribute{Computed: true, MarkdownDescription: "When the image was created (RFC 3339)."},
	}
}

func (d *imagesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model imagesModel

	organizationID, ok := d.begin(ctx, req.Config, &model, &resp.Diagnostics)
	if !ok {
		return
	}

	statuses := []string{catalogue.ImageReady}
	if !model.Status.IsNull() {
		if resp.Diagnostics.Append(model.Status.ElementsAs(ctx, &statuses, false)...); resp.Diagnostics.HasError() {
			return
		}
	}

	// The v2 list, unlike v1, can include images that are not ready yet, which is
	// what a snapshot in progress is.
	query := catalogue.ImageQuery{OrganizationIDs: []string{organizationID}, Status: statuses}
	if model.Owned.ValueBool() {
		query.Scope = catalogue.ImageScopeOwned
	}

	images, err := d.Provider.Catalogue.Images(ctx, model.RegionID.ValueString(), query)
	if err == nil && !model.Owned.IsNull() && !model.Owned.ValueBool() {
		images, err = d.notOwned(ctx, model.RegionID.ValueString(), query, images)
	}

	if err != nil {
		resp.Diagnostics.Append(d.failed(err))

		return
	}

	model.Images = matching(images, "image", model.Name, func(image *catalogue.Image) string { return image.Name },
		model.matches, newImageModel, &resp.Diagnostics)

	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

// notOwned leaves out of images, all the organization may boot, those it owns: region's
// image, unlike its list, does not say who owns it.
func (d *imagesDataSource) notOwned(ctx context.Context, regionID string, query catalogue.ImageQuery,
	images []catalogue.Image,
) ([]catalogue.Image, error) {
	query.Scope = catalogue.ImageScopeOwned

	owned, err := d.Provider.Catalogue.Images(ctx, regionID, query)
	if err != nil {
		return nil, err
	}

	return slices.DeleteFunc(images, func(image catalogue.Image) bool {
		return slices.ContainsFunc(owned, func(o catalogue.Image) bool { return o.ID == image.ID })
	}), nil
}

func (m *imagesModel) matches(image *catalogue.Image) bool {
	return filter.String(m.Name, image.Name) &&
		filter.String(m.Architecture, image.Spec.Architecture) &&
		filter.String(m.OSDistro, image.Spec.OS.Distro) &&
		filter.String(m.OSVersion, image.Spec.OS.Version) &&
		filter.String(m.InstanceID, image.InstanceID)
}

func newImageModel(image *catalogue.Image) imageModel {
	model := imageModel{
		ID:             image.ID,
		Name:           image.Name,
		Architecture:   image.Spec.Architecture,
		SizeGiB:        int64(image.Spec.SizeGiB),
		Virtualization: image.Spec.Virtualization,
		OS: imageOSModel{
			Kernel:   image.Spec.OS.Kernel,
			Family:   image.Spec.OS.Family,
			Distro:   image.Spec.OS.Distro,
			Version:  image.Spec.OS.Version,
			Variant:  image.Spec.OS.Variant,
			Codename: image.Spec.OS.Codename,
		},
		SoftwareVersions: map[string]string{},
		Status:           image.Status,
		Tags:             image.Tags,
		CreationTime:     image.CreationTime.Format(time.RFC3339),
	}

	for name, version := range image.Spec.SoftwareVersions {
		model.SoftwareVersions[name] = version
	}

	if gpu := image.Spec.GPU; gpu != nil {
		model.GPU = &imageGPUModel{Vendor: gpu.Vendor, Driver: gpu.Driver, Models: append([]string{}, gpu.Models...)}
	}

	return model
}
